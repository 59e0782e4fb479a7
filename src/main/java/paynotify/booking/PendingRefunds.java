package paynotify.booking;

import static paynotify.store.SqlQueries.PENDING_REFUNDED_TOTAL;
import static paynotify.store.SqlQueries.PENDING_REFUNDS;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import paynotify.channel.Platform;

/**
 * The refunds of a trade waiting for its payment, which that payment's booking will settle, read
 * without locks (a dry run's view).
 *
 * @param refunds       each one, smallest first
 * @param refundedCents what they pay back in all (cumulative amounts counted as totals)
 */
public record PendingRefunds(List<Refund> refunds, long refundedCents) {
  /** @param amountCents its own amount, or the trade's running total when {@code cumulative} (Alipay) */
  public record Refund(String refundNo, long amountCents, boolean cumulative) {}

  /** Whether they pay back {@code paidCents} or more: the site is told not to deliver (fulfil false). */
  public boolean cover(long paidCents) {
    return !refunds.isEmpty() && refundedCents >= paidCents;
  }

  static Future<PendingRefunds> read(SqlConnection conn, Platform platform, String tradeNo) {
    Tuple trade = Tuple.of(platform.code(), tradeNo);
    return conn.preparedQuery(PENDING_REFUNDS).execute(trade).compose(rows -> {
      List<Refund> refunds = new ArrayList<>();
      for (Row r : rows) {
        refunds.add(new Refund(r.getString("refund_no"), r.getLong("amount_cents"),
            ((Number) r.getValue("cumulative")).intValue() != 0));
      }
      return refunds.isEmpty() ? Future.succeededFuture(new PendingRefunds(List.of(), 0))
          : conn.preparedQuery(PENDING_REFUNDED_TOTAL).execute(trade)
              .map(total -> new PendingRefunds(refunds, total.iterator().next().getLong(0)));
    });
  }
}
