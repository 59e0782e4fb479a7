package paynotify.channel;

/**
 * One payment platform: turns a raw request into a verified {@link NotifyEvent}, and knows the
 * words the platform expects back. Channels never touch the database.
 */
public interface NotifyChannel {

  /** Channel name as stored in the database, e.g. {@code alipay}. */
  String name();

  /** Parse, verify signature and merchant ids, normalise. Throws for anything not genuine. */
  NotifyEvent verify(NotifyRequest request) throws RejectedNotification;

  /** The reply that stops the platform's retries. */
  Reply success();

  /** The reply that makes the platform retry (or tells it the request was refused). */
  Reply failure(int status, String reason);

  /** An HTTP reply in the platform's own format. */
  record Reply(int status, String contentType, String body) {}
}
