package paynotify.booking;

/**
 * What became of a notification; stored lower-case in notify_log.outcome. The first five are
 * answered with the channel's success reply, the last two with its failure reply.
 */
public enum Outcome {
  /** Booked now. */
  PROCESSED,
  /** Already booked earlier: answered exactly like the first delivery. */
  DUPLICATE,
  /** Same idempotency key, different business content: recorded as an anomaly, not booked again. */
  CONFLICT,
  /**
   * Real money that does not fit (unknown order, amount, paid twice, closed, over-refunded): booked + anomaly. Also a
   * payment waiting for its platform's confirmation (confirm_before_book): nothing booked, answered failure.
   */
  ANOMALY,
  /** Genuine but nothing to book (e.g. WAIT_BUYER_PAY, a failed refund, a close of an order that is not unpaid). */
  IGNORED,
  /** Not genuine or malformed: nothing booked. */
  REJECTED,
  /** The database failed before COMMIT: the platform must retry. */
  ERROR;

  public String code() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
