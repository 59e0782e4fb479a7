package paynotify.booking;

/** Kinds of anomalies booking records; stored lower-case in anomalies.kind. */
public enum AnomalyKind {
  /** A payment for an order_no the site does not know. */
  UNKNOWN_ORDER,
  /** Paid amount differs from the order's amount: the order stays unpaid. */
  AMOUNT_MISMATCH,
  /** The order was already paid by another trade: the buyer paid twice and needs a refund. */
  SECOND_PAYMENT,
  /**
   * The order was already marked paid outside paynotify, and neither its table (no trade_no column,
   * or none written) nor our payments say by which trade: perhaps this one, perhaps a second payment.
   */
  ALREADY_PAID,
  /** Paid after the order was closed. */
  PAID_AFTER_CLOSE,
  /** The order has a status this service does not know. */
  UNEXPECTED_ORDER_STATUS,
  /** Same idempotency key or trade, different business content. */
  CONFLICT,
  /** More refunded on a trade than it paid. */
  OVER_REFUND,
  /** A refund still waiting for its payment after the retention (flagged by the periodic check). */
  REFUND_WITHOUT_PAYMENT;

  public String code() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
