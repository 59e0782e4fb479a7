/**
 * Stripe, in and out: webhooks signed in Stripe-Signature (HMAC-SHA256 over the timestamp and the raw body),
 * Checkout and PaymentIntents ({@code StripeChannel}, {@code StripeSignature}); the events whose delivery failed,
 * listed with a read-only key ({@code StripeEvents}, built by {@code StripeClients}) and read by the same channel.
 */
package paynotify.channel.stripe;
