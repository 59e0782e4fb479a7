package paynotify.booking;

/** What became of a notification; stored lower-case in notify_log.outcome. */
public enum Outcome {
  /** Booked now. */
  PROCESSED(true),
  /** Already booked earlier: answered exactly like the first delivery. */
  DUPLICATE(true),
  /** Same idempotency key, different business content: recorded as an anomaly, not booked again. */
  CONFLICT(true),
  /** Real money that does not fit the order (unknown, amount, paid twice, closed): booked + anomaly. */
  ANOMALY(true),
  /** Genuine but nothing to book (e.g. WAIT_BUYER_PAY, a close of an order that is not unpaid). */
  IGNORED(true),
  /** Genuine but not handled by this version (refunds): answered with failure so the platform retries. */
  UNHANDLED(false),
  /** Not genuine or malformed: nothing booked. */
  REJECTED(false),
  /** The database failed before COMMIT: the platform must retry. */
  ERROR(false);

  /** Whether the platform gets the success reply (and stops retrying). */
  public final boolean acknowledged;

  Outcome(boolean acknowledged) {
    this.acknowledged = acknowledged;
  }

  public String code() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
