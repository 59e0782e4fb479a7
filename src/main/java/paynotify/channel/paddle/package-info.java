/**
 * Paddle Billing, in: webhooks signed in Paddle-Signature (HMAC-SHA256 over the timestamp and the raw body,
 * {@code PaddleSignature}), transactions and their adjustments ({@code PaddleChannel}); out: the notifications whose
 * delivery failed, listed with a read-only API key ({@code PaddleEvents}, built by {@code PaddleClients}) and read by
 * the same channel.
 */
package paynotify.channel.paddle;
