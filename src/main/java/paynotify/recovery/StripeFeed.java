package paynotify.recovery;

import paynotify.channel.stripe.StripeChannel;
import paynotify.gateway.StripeEvents;

/** Where Stripe's undelivered events come from, and the channel that reads them as their webhooks. */
public record StripeFeed(StripeEvents events, StripeChannel channel) {}
