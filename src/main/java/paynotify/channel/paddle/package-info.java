/**
 * Paddle Billing, in: webhooks signed in Paddle-Signature (HMAC-SHA256 over the timestamp and the raw body,
 * {@code PaddleSignature}), transactions and their adjustments ({@code PaddleChannel}).
 */
package paynotify.channel.paddle;
