/** Stripe webhooks: Stripe-Signature (HMAC-SHA256 over the timestamp and the raw body), Checkout and PaymentIntents. */
package paynotify.channel.stripe;
