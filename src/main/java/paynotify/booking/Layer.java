package paynotify.booking;

/** The unique key that found an event booked before: the idempotency key, or a second layer that outlives it. */
enum Layer {
  /** idempotent_keys' primary key. */
  KEY("key"),
  /** payments.uk_trade_no. */
  TRADE("trade"),
  /** refunds.uk_refund_no. */
  REFUND("refund");

  /** As notify_log's detail says it: "already booked (found by trade)". */
  final String word;

  Layer(String word) {
    this.word = word;
  }
}
