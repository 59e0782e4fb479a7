package paynotify.booking;

import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import paynotify.channel.Money;
import paynotify.channel.NotifyEvent;

/**
 * What a new payment (no payments row had its trade) does to its order, decided from the order row
 * as it is now (locked while booking; as read, for a repair's dry run): it moves it from unpaid to
 * paid, finds it already marked paid by this very trade (the old notify.php during the cutover), or
 * is an anomaly a human must look at. Never a duplicate: only the payments row says that. The
 * payment itself is real money and is kept either way.
 */
public record PaymentVerdict(AnomalyKind anomaly, String detail, boolean movesOrder) {

  /** A verdict that leaves the order as it is. */
  public PaymentVerdict(AnomalyKind anomaly, String detail) {
    this(anomaly, detail, false);
  }

  /** The order as read by {@code SELECT_ORDER} / {@code LOCK_ORDER}. */
  public record OrderRow(String status, long amountCents, String channel, String tradeNo) {
    /** @return null when there is no row */
    static OrderRow of(RowSet<Row> rows) {
      Row r = Rows.first(rows);
      return r == null ? null : new OrderRow(r.getString("status"), r.getLong("amount_cents"),
          r.getString("channel"), r.getString("trade_no"));
    }
  }

  public boolean isAnomaly() {
    return anomaly != null;
  }

  /** @param order null when no order has the event's order_no */
  public static PaymentVerdict judge(OrderRow order, NotifyEvent e) {
    String paid = e.channel() + " trade " + e.tradeNo() + " paid " + Money.format(e.amountCents());
    if (order == null) {
      return new PaymentVerdict(AnomalyKind.UNKNOWN_ORDER, paid + " for unknown order " + e.orderNo());
    }
    switch (order.status()) {
      case "unpaid": // MARK_ORDER_PAID's condition
        return order.amountCents() == e.amountCents()
            ? new PaymentVerdict(null, "order " + e.orderNo() + " unpaid -> paid", true)
            : new PaymentVerdict(AnomalyKind.AMOUNT_MISMATCH, paid + " but order " + e.orderNo() + " is for "
                + Money.format(order.amountCents()) + ": order left unpaid");
      case "paid":
      case "partially_refunded":
      case "refunded":
        if (e.channel().equals(order.channel()) && e.tradeNo().equals(order.tradeNo())) {
          String marked = "order " + e.orderNo() + " was already marked paid by this trade outside paynotify";
          return order.amountCents() == e.amountCents() ? new PaymentVerdict(null, marked + ": payment recorded")
              : new PaymentVerdict(AnomalyKind.AMOUNT_MISMATCH, paid + " but " + marked + " for "
                  + Money.format(order.amountCents()));
        }
        return new PaymentVerdict(AnomalyKind.SECOND_PAYMENT, paid + " but order " + e.orderNo()
            + " was already paid by " + order.channel() + " trade " + order.tradeNo() + ": the buyer needs a refund");
      case "closed":
        return new PaymentVerdict(AnomalyKind.PAID_AFTER_CLOSE, paid + " after order " + e.orderNo()
            + " was closed: reopen it or refund the buyer");
      default:
        return new PaymentVerdict(AnomalyKind.UNEXPECTED_ORDER_STATUS, paid + " but order " + e.orderNo()
            + " has status '" + order.status() + "'");
    }
  }
}
