/**
 * Lemon Squeezy, in only: webhooks signed in X-Signature (HMAC-SHA256 over the raw body with the webhook's signing
 * secret), {@code order_created} booked when paid and {@code order_refunded} as a cumulative refund
 * ({@code LemonSqueezyChannel}, {@code LemonSqueezySignature}). Nothing is asked of it: its orders API carries no
 * custom data, so an order found there cannot be tied to the site's.
 */
package paynotify.channel.lemonsqueezy;
