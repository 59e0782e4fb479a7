package paynotify.booking;

import static paynotify.store.SqlQueries.INSERT_PAYMENT;
import static paynotify.store.SqlQueries.LOCK_ORDER;
import static paynotify.store.SqlQueries.MARK_ORDER_PAID;
import static paynotify.store.SqlQueries.SELECT_PAYMENT;
import static paynotify.store.SqlQueries.SETTLE_PENDING_REFUNDS;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import paynotify.booking.PaymentVerdict.OrderRow;
import paynotify.channel.NotifyEvent;
import paynotify.store.Anomalies;
import paynotify.store.Anomalies.Anomaly;

/**
 * A payment's writes: the payment row (uk_trade_no), the order unpaid -> paid, and the refunds
 * that arrived before it, settled. When the order did not move, the locked order says why (an
 * anomaly, booked with the payment: the money is real). Only uk_trade_no finds a repeat here.
 */
final class PaymentBooking implements BookingTransaction.Writes {
  @Override
  public Future<BookingResult> apply(SqlConnection conn, NotifyEvent e, String key) {
    Future<RowSet<Row>> payment = BookingTransaction.insert(conn, INSERT_PAYMENT,
        Tuple.of(e.channel(), e.tradeNo(), e.orderNo(), e.amountCents(), e.paidAt()), Layer.TRADE);
    Future<RowSet<Row>> order = conn.preparedQuery(MARK_ORDER_PAID)
        .execute(Tuple.of(e.paidAt(), e.channel(), e.tradeNo(), e.orderNo(), e.amountCents()));
    Future<RowSet<Row>> pendingRefunds = conn.preparedQuery(SETTLE_PENDING_REFUNDS)
        .execute(Tuple.of(e.channel(), e.tradeNo()));
    return Future.join(payment, order, pendingRefunds)
        .transform(all -> firstFailure(payment, order, pendingRefunds))
        .compose(v -> switch (order.result().rowCount()) {
          case 1 -> Future.succeededFuture(
              new BookingResult(Outcome.PROCESSED, "order " + e.orderNo() + " unpaid -> paid"));
          case 0 -> judgeOrder(conn, e, key);
          default -> Future.failedFuture(new IllegalStateException("orders: " + order.result().rowCount()
              + " rows have order_no " + e.orderNo() + " and one payment would mark them all paid: rolled back;"
              + " the order number must be a UNIQUE key of orders"));
        })
        .compose(result -> pendingRefunds.result().rowCount() == 0 ? Future.succeededFuture(result)
            : RefundSettlement.settle(conn, e.channel(), e.tradeNo(), e.orderNo(), e.amountCents(), key)
                .map(settled -> result.then(new BookingResult(settled.outcome(),
                    pendingRefunds.result().rowCount() + " pending refund(s) settled: " + settled.detail()))));
  }

  @Override
  public Future<String> difference(SqlConnection conn, NotifyEvent e) {
    return conn.preparedQuery(SELECT_PAYMENT).execute(Tuple.of(e.channel(), e.tradeNo())).map(rows -> {
      Row booked = Rows.single(rows);
      return booked.getString("order_no").equals(e.orderNo()) && booked.getLong("amount_cents") == e.amountCents()
          ? null
          : "trade " + e.tradeNo() + " was booked for order " + booked.getString("order_no") + ", "
              + booked.getLong("amount_cents") + " cents";
    });
  }

  /** The failure that decides, in statement order. */
  private static Future<Void> firstFailure(Future<?>... steps) {
    for (Future<?> step : steps) {
      if (step.failed()) {
        return Future.failedFuture(step.cause());
      }
    }
    return Future.succeededFuture();
  }

  /**
   * The order did not move, and the payment is new (its insert passed uk_trade_no): an anomaly, or
   * an order marked paid by this trade outside paynotify. Both keep the payment: the money is real.
   */
  private static Future<BookingResult> judgeOrder(SqlConnection conn, NotifyEvent e, String key) {
    return conn.preparedQuery(LOCK_ORDER).execute(Tuple.of(e.orderNo())).compose(rows -> {
      PaymentVerdict verdict = PaymentVerdict.judge(OrderRow.of(rows), e);
      if (verdict.movesOrder()) { // SQL found no such row, Java does: the amount column compares otherwise
        return Future.failedFuture(new IllegalStateException("orders: order " + e.orderNo() + " reads as unpaid for "
            + e.amountCents() + " cents but MARK_ORDER_PAID matched no row: rolled back; check the amount column's"
            + " type (integer cents)"));
      }
      if (!verdict.isAnomaly()) {
        return Future.succeededFuture(new BookingResult(Outcome.PROCESSED, verdict.detail()));
      }
      String kind = verdict.anomaly().code();
      Anomaly anomaly = new Anomaly(kind, e.channel(), e.orderNo(), e.tradeNo(), e.amountCents(),
          verdict.detail(), kind + ":" + key);
      return Anomalies.record(conn, anomaly)
          .map(new BookingResult(Outcome.ANOMALY, kind + ": " + verdict.detail()));
    });
  }
}
