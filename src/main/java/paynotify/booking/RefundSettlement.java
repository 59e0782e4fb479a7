package paynotify.booking;

import static paynotify.store.SqlQueries.REFUNDED_TOTAL;

import io.vertx.core.Future;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import paynotify.booking.anomaly.Anomaly;
import paynotify.booking.anomaly.Anomalies;
import paynotify.booking.anomaly.AnomalyKind;
import paynotify.channel.Money;
import paynotify.channel.Platform;
import paynotify.store.OrdersTable;

/**
 * Settled refunds against their payment, inside the booking transaction: the trade's refunded
 * total moves the order forward (paid -> partially_refunded -> refunded, never back), and more
 * refunded than paid is an anomaly. Called with the payment row locked, so settlements of one
 * trade happen one after the other.
 */
final class RefundSettlement {
  private RefundSettlement() {}

  /** What a settlement did, and the trade's refunded total it found. */
  record Settled(BookingResult result, long refundedCents) {}

  /**
   * @param orderNo   the order the trade paid (the payment's order)
   * @param paidCents what the trade paid
   * @param key       the booking's idempotency key, to name an over-refund anomaly
   * @param livemode  the trade's money is live (what the site is told of its refunds)
   */
  static Future<Settled> settle(SqlConnection conn, OrdersTable orders, SiteEvents outbox, Platform platform,
      String tradeNo, String orderNo, long paidCents, String key, boolean livemode) {
    return conn.preparedQuery(REFUNDED_TOTAL).execute(Tuple.of(platform.code(), tradeNo)).compose(rows -> {
      long refunded = rows.iterator().next().getLong(0);
      boolean full = refunded >= paidCents;
      String to = full ? "refunded" : "partially_refunded";
      Future<Boolean> order = orders.markRefunded(conn, orderNo, platform, tradeNo, full);
      return outbox.refundsSettled(conn, platform, tradeNo, orderNo, refunded, livemode).compose(told -> order)
          .compose(moved -> {
            String detail = "trade " + tradeNo + " refunded " + Money.format(refunded) + " of "
                + Money.format(paidCents) + (moved == null ? ", order status left alone (orders.status_values." + to
                    + " is empty)" : moved ? ", order " + orderNo + " -> " + to : "");
            if (refunded <= paidCents) {
              return Future.succeededFuture(new BookingResult(Outcome.PROCESSED, detail));
            }
            String kind = AnomalyKind.OVER_REFUND.code();
            Anomaly overRefund = new Anomaly(kind, platform.code(), orderNo, tradeNo, refunded,
                detail + ": more refunded than paid", kind + ":" + key);
            return outbox.recordAnomaly(conn, overRefund, livemode)
                .map(new BookingResult(Outcome.ANOMALY, kind + ": " + detail));
          })
          .map(result -> new Settled(result, refunded));
    });
  }
}
