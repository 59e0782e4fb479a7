/**
 * Lemon Squeezy: webhooks signed in X-Signature (HMAC-SHA256 over the raw body with the webhook's signing secret),
 * {@code order_created} booked when paid and {@code order_refunded} as a cumulative refund
 * ({@code LemonSqueezyChannel}, {@code LemonSqueezySignature}); and, opt-in by the account's API key
 * ({@code LemonSqueezyClients}), its Order asked by the id the site keeps with the Order's identifier, the proof that
 * the buyer paid it ({@code LemonSqueezyQuery}: its orders carry no custom data, so it cannot be asked by the site's
 * order number), and the store's orders listed for a paid one no webhook booked ({@code LemonSqueezyOrders}: recorded
 * for a human, never booked).
 */
package paynotify.channel.lemonsqueezy;
