package paynotify.booking;

import paynotify.booking.anomaly.AnomalyKind;
import paynotify.channel.Money;
import paynotify.channel.NotifyEvent;
import paynotify.store.OrdersTable.Order;
import paynotify.store.OrdersTable.OrderStatus;

/**
 * What a new payment (no payments row had its trade) does to its order, decided from the order as
 * it is now (locked while booking; as read, for a repair's dry run): it moves it from unpaid to
 * paid, finds it already marked paid by this very trade (the old notify.php during the cutover), or
 * is an anomaly a human must look at. Never a duplicate: only the payments row says that. The
 * payment itself is real money and is kept either way, except where its platform's sign does not bind the amount
 * to the order ({@code Platform.signsAmountToOrder}): there one of another amount than the order's, or of no order,
 * is not kept (PaymentBooking).
 *
 * @param markedByThisTrade the order was found paid by this trade outside paynotify: this payment is its payer
 */
public record PaymentVerdict(AnomalyKind anomaly, String detail, boolean movesOrder, boolean markedByThisTrade) {

  /** A verdict that leaves the order as it is. */
  public PaymentVerdict(AnomalyKind anomaly, String detail) {
    this(anomaly, detail, false, false);
  }

  public boolean isAnomaly() {
    return anomaly != null;
  }

  /** @param order null when no order has the event's order_no */
  public static PaymentVerdict judge(Order order, NotifyEvent e) {
    String paid = e.platform().code() + " trade " + e.tradeNo() + " paid " + Money.format(e.amountCents());
    if (order == null) {
      return new PaymentVerdict(AnomalyKind.UNKNOWN_ORDER, paid + " for unknown order " + e.orderNo());
    }
    if (order.status() == null) {
      return new PaymentVerdict(AnomalyKind.UNEXPECTED_ORDER_STATUS, paid + " but order " + e.orderNo()
          + " has status '" + order.storedStatus() + "'");
    }
    return switch (order.status()) {
      case UNPAID -> dueIsPaid(order, e) // the condition of the UPDATE that marks it paid
          ? new PaymentVerdict(null, "order " + e.orderNo() + " unpaid -> paid", true, false)
          : new PaymentVerdict(AnomalyKind.AMOUNT_MISMATCH, paid + " but order " + e.orderNo() + " is for "
              + due(order) + ": order left unpaid");
      case PAID, PARTIALLY_REFUNDED, REFUNDED -> alreadyPaid(order, e, paid);
      case CLOSED -> new PaymentVerdict(AnomalyKind.PAID_AFTER_CLOSE, paid + " after order " + e.orderNo()
          + " was closed: reopen it or refund the buyer");
    };
  }

  private static boolean dueIsPaid(Order order, NotifyEvent e) {
    return dueIs(order, e.amountCents());
  }

  private static boolean dueIs(Order order, long amountCents) {
    return order.amountCents() != null && order.amountCents() == amountCents;
  }

  /** Whether {@code e} pays the order's own amount (whatever its status); never when there is no order. */
  static boolean paysDue(Order order, NotifyEvent e) {
    return order != null && dueIsPaid(order, e);
  }

  /** Whether the order waits unpaid for exactly {@code amountCents}: a payment of it would mark it paid. */
  static boolean waitsFor(Order order, long amountCents) {
    return order != null && order.status() == OrderStatus.UNPAID && dueIs(order, amountCents);
  }

  /** What the order is for; a site's NULL amount is no amount, never a match. */
  static String due(Order order) {
    return order.amountCents() == null ? "no amount (NULL)" : Money.format(order.amountCents());
  }

  private static PaymentVerdict alreadyPaid(Order order, NotifyEvent e, String paid) {
    if (order.paidByTrade() == null || order.paidByTrade().isEmpty()) {
      return new PaymentVerdict(AnomalyKind.ALREADY_PAID, paid + " but order " + e.orderNo() + " was already"
          + " marked paid outside paynotify, and nothing says by which trade: if not by this one, refund the buyer");
    }
    boolean sameChannel = order.paidByChannel() == null || order.paidByChannel().equals(e.platform().code());
    if (sameChannel && order.paidByTrade().equals(e.tradeNo())) {
      String marked = "order " + e.orderNo() + " was already marked paid by this trade outside paynotify";
      return dueIsPaid(order, e)
          ? new PaymentVerdict(null, marked + ": payment recorded", false, true)
          : new PaymentVerdict(AnomalyKind.AMOUNT_MISMATCH, paid + " but " + marked + " for " + due(order));
    }
    return new PaymentVerdict(AnomalyKind.SECOND_PAYMENT, paid + " but order " + e.orderNo() + " was already paid by "
        + (order.paidByChannel() == null ? "" : order.paidByChannel() + " ") + "trade " + order.paidByTrade()
        + ": the buyer needs a refund");
  }
}
