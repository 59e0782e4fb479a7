/**
 * Creem, in: webhooks signed in creem-signature (HMAC-SHA256 over the raw body, no timestamp), a checkout's order
 * booked, a refund booked when it succeeded, a dispute told ({@code CreemChannel}, {@code CreemSignature}). Nothing
 * is asked of Creem's API yet.
 */
package paynotify.channel.creem;
