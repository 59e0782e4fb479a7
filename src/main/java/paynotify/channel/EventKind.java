package paynotify.channel;

/** What a verified notification asks of us. */
public enum EventKind {
  /** The buyer paid: book it. */
  PAYMENT("pay"),
  /** Money went back to the buyer: a refund, booked against its trade's payment. */
  REFUND("refund"),
  /** An unpaid trade was closed by the platform. */
  CLOSE("close"),
  /** A genuine message that books nothing (e.g. WAIT_BUYER_PAY). */
  NONE("none");

  /** The kind's part of an idempotency key: {@code channel:kind:platform id}. */
  public final String keyPart;

  EventKind(String keyPart) {
    this.keyPart = keyPart;
  }
}
