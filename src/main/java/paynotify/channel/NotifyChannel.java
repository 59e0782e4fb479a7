package paynotify.channel;

import io.vertx.core.Future;

/**
 * One notify endpoint of a payment platform: turns a raw request into a verified
 * {@link NotifyEvent}, and knows the words the platform expects back. Channels never touch the
 * database; booking is the same for all of them.
 */
public interface NotifyChannel {

  /** The endpoint's name in notify_log.channel and in the log, e.g. {@code wechat_v3}; not its {@link Platform}. */
  String endpoint();

  /** The platform whose trades it books (both WeChat endpoints: {@link Platform#WECHAT}). */
  Platform platform();

  /** Where the platform sends notifications, e.g. {@code /notify/wechat/v3}. */
  String path();

  /** Whether the platform may also notify by GET (query string) instead of POST. */
  default boolean acceptsGet() {
    return false;
  }

  /** Parse, verify signature and merchant ids, normalise. Throws for anything not genuine. */
  NotifyEvent verify(NotifyRequest request) throws RejectedNotification;

  /**
   * {@link #verify} for a channel that must ask its platform (PayPal's IPN verification): the future
   * fails with {@link RejectedNotification} for anything not genuine, with {@link VerificationUnavailable}
   * when the platform could not be asked (then the platform retries), or with a bug.
   */
  default Future<NotifyEvent> check(NotifyRequest request) {
    try {
      return Future.succeededFuture(verify(request));
    } catch (RejectedNotification | RuntimeException e) {
      return Future.failedFuture(e);
    }
  }

  /** The reply that stops the platform's retries. */
  Reply success();

  /**
   * The reply that makes the platform retry (or tells it the request was refused).
   *
   * @param reason a short fixed word for the platform; never the untrusted input
   */
  Reply failure(int status, String reason);

  /** An HTTP reply in the platform's own format; {@code contentType} null for an empty body. */
  record Reply(int status, String contentType, String body) {}
}
