package paynotify.recovery;

import paynotify.channel.stripe.StripeChannel;
import paynotify.channel.stripe.StripeEvents;
import paynotify.store.Database;

/**
 * Where Stripe's undelivered events come from, the channel that reads them as their webhooks, and the database
 * that keeps how far they were read (recovery's pool).
 */
public record MissedEventsFeed(StripeEvents events, StripeChannel channel, Database db) {}
