/**
 * What never arrived, gone and got. {@link paynotify.recovery.Recovery} is the door (the server, the admin listener and
 * {@code paynotify check} use it); behind it the {@link paynotify.recovery.Sweeper} sweeps: unpaid orders whose
 * notification may have been lost, each at its {@link paynotify.recovery.Backoff} and held in {@code order_checks}
 * ({@code store.Lease}), then Stripe's and Paddle's undelivered events and Lemon Squeezy's orders ({@link
 * paynotify.recovery.MissedEvents}, one walk a {@link paynotify.recovery.MissedEventsFeed}, how far read kept by {@link
 * paynotify.recovery.MissedEventsCursor}, a row a platform); an {@link paynotify.recovery.OrderCheck} asks about one
 * order now, for a site's return page ({@code /orders/:no/check}). Both ask through {@link paynotify.recovery.Asking},
 * within one {@link paynotify.recovery.QueryBudget}: what a platform says was paid is booked by {@link
 * paynotify.recovery.FoundPayment} through booking's {@code Receipt}, its notify_log row naming how it was found
 * ({@link paynotify.recovery.FoundBy}); an order unpaid too long is closed by {@link paynotify.recovery.OrderExpiry}
 * through {@code EventBooking.closeExpired}.
 */
package paynotify.recovery;
