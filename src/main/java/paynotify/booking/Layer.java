package paynotify.booking;

/** The unique key that found an event booked before: the idempotency key, or a second layer that outlives it. */
enum Layer {
  /** idempotent_keys' primary key. */
  KEY,
  /** payments.uk_trade_no. */
  TRADE,
  /** refunds.uk_refund_no. */
  REFUND
}
