package paynotify.booking;

import static paynotify.store.SqlQueries.HOLD_KEY_FOR_REFUNDS;
import static paynotify.store.SqlQueries.INSERT_REFUND;
import static paynotify.store.SqlQueries.LOCK_PAYMENT;
import static paynotify.store.SqlQueries.SELECT_REFUND;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import paynotify.channel.EventKind;
import paynotify.channel.NotifyEvent;
import paynotify.store.OrdersTable;
import paynotify.store.SqlQueries;

/**
 * A refund's writes: lock the trade's payment (this serialises the trade's refunds and its
 * payment), then the refund row (uk_refund_no): settled at once when the payment is booked,
 * else pending (待对账) until the payment's booking settles it, whichever comes first. A refund that
 * finds no payment holds the payment's key ({@link SqlQueries#HOLD_KEY_FOR_REFUNDS}): that is how the
 * payment's booking learns of it. A key there already is another refund's, or the payment's, booked
 * since the lock found none (READ COMMITTED takes no gap lock): the payment is locked again.
 */
final class RefundBooking implements BookingTransaction.Writes {
  private final OrdersTable orders;
  private final SiteEvents outbox;

  RefundBooking(OrdersTable orders, SiteEvents outbox) {
    this.orders = orders;
    this.outbox = outbox;
  }

  @Override
  public Future<BookingResult> apply(SqlConnection conn, NotifyEvent e, String key, boolean refundsWaiting) {
    NotifyEvent.Refund refund = e.refund();
    return paymentOrKeyHeld(conn, e).compose(payment -> {
      Tuple refundRow = Tuple.of(e.platform().code(), e.refundScope(), refund.refundNo(), e.tradeNo(), e.orderNo(),
          e.amountCents(), refund.cumulative(), payment == null ? "pending" : "settled", refund.refundedAt());
      return BookingTransaction.insert(conn, INSERT_REFUND, refundRow, Layer.REFUND).compose(inserted ->
          payment == null ? Future.succeededFuture(new BookingResult(Outcome.PROCESSED, "refund " + refund.refundNo()
              + " pending: trade " + e.tradeNo() + " is not booked yet (待对账); its payment will settle it"))
          : RefundSettlement.settle(conn, orders, outbox, e.platform(), e.tradeNo(), payment.getString("order_no"),
              payment.getLong("amount_cents"), key, !e.testMode()).map(RefundSettlement.Settled::result));
    });
  }

  /**
   * The trade's payment, locked; or null, and its key held for this refund (by it or by one before it). A key
   * there already may be the payment's, booked since the lock found none: the payment is locked again.
   */
  private static Future<Row> paymentOrKeyHeld(SqlConnection conn, NotifyEvent e) {
    Tuple trade = Tuple.of(e.platform().code(), e.tradeNo());
    return conn.preparedQuery(LOCK_PAYMENT).execute(trade).map(Rows::first).compose(payment -> payment != null
        ? Future.succeededFuture(payment)
        : conn.preparedQuery(HOLD_KEY_FOR_REFUNDS).execute(Tuple.of(NotifyEvent.key(e.platform(), EventKind.PAYMENT,
            e.tradeNo()))).compose(held -> held.rowCount() == 1 ? Future.<Row>succeededFuture()
            : conn.preparedQuery(LOCK_PAYMENT).execute(trade).map(Rows::first)));
  }

  @Override
  public Future<String> difference(SqlConnection conn, NotifyEvent e) {
    Tuple id = Tuple.of(e.platform().code(), e.refundScope(), e.refund().refundNo());
    return conn.preparedQuery(SELECT_REFUND).execute(id).map(rows -> {
      Row booked = Rows.single(rows);
      return booked.getString("trade_no").equals(e.tradeNo()) && booked.getLong("amount_cents") == e.amountCents()
          ? null
          : "refund " + e.refund().refundNo() + " was booked for trade " + booked.getString("trade_no") + ", "
              + booked.getLong("amount_cents") + " cents";
    });
  }
}
