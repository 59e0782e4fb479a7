/**
 * The periodic checks {@code server.Housekeeping} runs on a timer, never on a request: what a booking
 * left for later, finished. {@link paynotify.booking.check.PendingRefundCheck} settles refunds left
 * pending beside their booked payment and flags those whose payment never came;
 * {@link paynotify.booking.check.OrderlessPaymentCheck} resolves or tells the payments that named no order;
 * {@link paynotify.booking.check.BookedWaitCheck} resolves a signed payment's wait for its platform's confirmation
 * whose trade a booking elsewhere (another Galera node) booked.
 *
 * <p>A room of its own because the arrow runs one way: these call into {@code booking} (its settlement,
 * its anomalies, what the site is told), and nothing in {@code booking} calls them.
 */
package paynotify.booking.check;
