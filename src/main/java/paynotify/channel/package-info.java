/**
 * The platforms' common words: a {@link paynotify.channel.NotifyChannel} turns a raw request into a verified
 * {@link paynotify.channel.NotifyEvent}; {@link paynotify.channel.Platform} names whose trades it books. One
 * subpackage per platform holds its channel and its {@code *Signature} (see {@link paynotify.channel.Signatures}).
 * Channels never touch the database.
 */
package paynotify.channel;
