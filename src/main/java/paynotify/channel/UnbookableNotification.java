package paynotify.channel;

/**
 * A genuine notification (its signature, or PayPal, vouched for it) that booking cannot follow: money
 * moved, but not as a payment or refund of an order we can name. It is recorded as an anomaly that
 * says what a human should do, with the notification's body kept, and the platform gets its success
 * reply once that anomaly is committed: the anomaly is the durable record, a retry would add nothing
 * (PayPal and Stripe retry a failing notification for days, then disable the endpoint).
 */
public final class UnbookableNotification extends RuntimeException {
  /** What is wrong with it, which says what a human should do. */
  public enum Problem {
    /** Verified, then unreadable: an unknown charset, a repeated name, a missing or malformed field. */
    UNREADABLE,
    /** A payment that names no order (a Checkout Session without client_reference_id, an IPN without it). */
    PAYMENT_WITHOUT_ORDER,
    /**
     * A Stripe payment one of whose two events names no order: a PaymentIntent without metadata.order_no
     * (its Checkout Session, the same trade, usually books it within seconds), or a Session without
     * client_reference_id (its PaymentIntent's metadata may name the order). Recorded only while that
     * trade is not booked, told only once it has waited.
     */
    INTENT_WITHOUT_ORDER,
    /**
     * A paid order found in a platform's list of its orders, which names no order of the site (Lemon Squeezy's orders
     * API carries no custom data): paid, and perhaps never booked, its webhook (which names the order) lost. Recorded
     * only while that trade is not booked, told only once it has waited, resolved once it is booked.
     */
    LISTED_WITHOUT_ORDER,
    /** A completed payment for one of our orders, of a type that books nothing (a PayPal subscription's). */
    UNBOOKED_PAYMENT,
    /** A V免签 payment whose reallyPrice is further from its price than vmq.max_price_shift allows. */
    PRICE_SHIFT,
    /** A V免签 payment whose sign also reads as a payment of another order waiting for that price. */
    AMBIGUOUS_PAYMENT,
    /** A V免签 payment of an order the site does not have: not kept, as its sign binds no value to its field. */
    UNKNOWN_ORDER,
    /** A chargeback decided for the merchant, after its reversal was booked as a refund. */
    CHARGEBACK_REVERSED,
    /** The buyer disputes a payment with the bank. */
    DISPUTE,
    /** A refund that failed or was canceled: the buyer did not get the money back after all. */
    REFUND_FAILED,
    /** Found by recovery, and its booking failed in sweep after sweep (an error, not a verdict): given up. */
    BOOKING_FAILED,
    /** A refund made (or failed) at the platform that paynotify does not book (虎皮椒's RD and UD). */
    UNBOOKED_REFUND,
    /** A payment or refund naming an order number not written as orders.out_trade_no writes the site's. */
    NOT_OUR_NUMBER
  }

  private final Problem problem;
  private final Platform platform;
  private final String reference;
  private final String orderNo;
  private final String tradeNo;
  private final Long amountCents;

  /**
   * @param platform  whose notification it is
   * @param reference the platform's id of what happened (a txn_id, a PaymentIntent, a dispute), so that
   *                  a redelivery records nothing more
   * @param orderNo   the order, when the notification names one, else null
   * @param tradeNo   the trade concerned, when known, else null
   * @param amountCents the amount concerned, when readable, else null
   * @param detail    what happened, for the anomaly and the log
   */
  public UnbookableNotification(Problem problem, Platform platform, String reference, String orderNo, String tradeNo,
      Long amountCents, String detail) {
    super(detail, null, false, false);
    this.problem = problem;
    this.platform = platform;
    this.reference = reference;
    this.orderNo = orderNo;
    this.tradeNo = tradeNo;
    this.amountCents = amountCents;
  }

  /**
   * A signed notification a field of which cannot be read ({@code why}): {@code reference} is its platform id
   * when that one is readable, else null (the body names it); {@code orderNo} the order it names when that one
   * is readable, else null: the owner looks it up by that.
   */
  public static UnbookableNotification unreadable(Platform platform, String reference, String orderNo, String why) {
    return new UnbookableNotification(Problem.UNREADABLE, platform, reference, orderNo, reference, null,
        platform.code() + " signed notification " + (reference == null ? "(no readable trade id)" : reference)
            + (orderNo == null ? "" : " for order " + orderNo) + ", but it cannot be read: " + why);
  }

  public Problem problem() {
    return problem;
  }

  public Platform platform() {
    return platform;
  }

  public String reference() {
    return reference;
  }

  public String orderNo() {
    return orderNo;
  }

  public String tradeNo() {
    return tradeNo;
  }

  public Long amountCents() {
    return amountCents;
  }
}
