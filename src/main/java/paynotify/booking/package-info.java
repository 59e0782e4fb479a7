/**
 * What books money. Whatever arrives (an endpoint's notification, a query answer, a bill row, a Stripe event, a
 * repair) is taken by a {@link paynotify.booking.Receipt}: the one decision (booked, recorded as an anomaly,
 * refused), the one writer of the notify_log row of what was booked or recorded, and the {@code callback_missing}
 * anomaly when a payment is booked without its notification. {@link paynotify.booking.EventBooking} books a verified
 * event, and is the one door of every write to the site's orders table ({@code closeExpired} for recovery);
 * {@link paynotify.booking.BookingTransaction} is the ONE transaction that writes the idempotency keys, the payment
 * or refund, the site's order, the outbox event ({@link paynotify.booking.SiteEvents}) and any anomaly, committed
 * before the platform is told success. The races are decided by the database, in the statements of
 * {@code store.SqlQueries} and, on the site's orders, of {@code store.OrdersTable}.
 */
package paynotify.booking;
