/**
 * Creem, in: webhooks signed in creem-signature (HMAC-SHA256 over the raw body, no timestamp), a checkout's order
 * booked, a refund booked when it succeeded, a dispute told ({@code CreemChannel}, {@code CreemSignature}); out: the
 * checkout the site kept the id of, asked with the account's API key ({@code CreemQuery}, built by
 * {@code CreemClients}) and read by the same channel.
 */
package paynotify.channel.creem;
