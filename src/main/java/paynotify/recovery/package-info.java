/**
 * What never arrived, gone and got: the sweeper ({@link paynotify.recovery.Recovery}) asks the platforms about
 * unpaid orders whose notification may have been lost, each with its back-off and lease in {@code order_checks};
 * Stripe's undelivered events are fetched ({@link paynotify.recovery.MissedStripeEvents}); a site's return page
 * asks about one order ({@code /orders/:no/check}). What a platform says was paid is booked through the same
 * booking as a notification ({@link paynotify.recovery.FoundPayment}).
 */
package paynotify.recovery;
