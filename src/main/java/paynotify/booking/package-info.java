/**
 * What books money: {@link paynotify.booking.EventBooking} takes a verified event, and
 * {@link paynotify.booking.BookingTransaction} is the ONE transaction that writes the idempotency keys, the payment
 * or refund, the site's order, the outbox event and any anomaly, committed before the platform is told success.
 * Whatever arrives (an endpoint's notification, a query answer, a bill row, a Stripe event, a repair) is taken by
 * a {@link paynotify.booking.Receipt}: the one decision (booked, recorded as an anomaly, refused) and the one writer
 * of its notify_log row. The races are decided by the database, in the statements of {@code store.SqlQueries} and,
 * on the site's orders, of {@code store.OrdersTable}.
 */
package paynotify.booking;
