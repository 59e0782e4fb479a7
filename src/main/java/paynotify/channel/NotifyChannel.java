package paynotify.channel;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * One notify endpoint of a payment platform: turns a raw request into a verified
 * {@link NotifyEvent}, and knows the words the platform expects back. Channels never touch the
 * database; booking is the same for all of them.
 */
public interface NotifyChannel {

  /** Where it is reached and what stops the platform's retries: fixed for each channel. */
  Door door();

  /**
   * A channel's fixed facts.
   *
   * @param endpoint its name in notify_log.channel and in the log, e.g. {@code wechat_v3}; not its platform
   * @param platform whose trades it books (both WeChat endpoints: {@link Platform#WECHAT})
   * @param path     where the platform sends notifications, e.g. {@code /notify/wechat/v3}
   * @param success  the reply that stops the platform's retries
   * @param minBody  the bytes of body read at least, whatever {@code http.max_body_bytes} says: for a platform
   *                 whose genuine events outgrow the default (0: that setting alone)
   */
  record Door(String endpoint, Platform platform, String path, Reply success, int minBody) {
    public Door(String endpoint, Platform platform, String path, Reply success) {
      this(endpoint, platform, path, success, 0);
    }
  }

  /** {@link Door#endpoint}. */
  default String endpoint() {
    return door().endpoint();
  }

  /** {@link Door#platform}. */
  default Platform platform() {
    return door().platform();
  }

  /** {@link Door#path}. */
  default String path() {
    return door().path();
  }

  /**
   * For the status page, where a platform signs with more than one kind of key: which kinds the notifications this
   * instance verified since its start came with (WeChat Pay v3: public key or platform certificate). Null: one kind.
   */
  default JsonObject keysSeen() {
    return null;
  }

  /** Whether the platform may also notify by GET (query string) instead of POST. */
  default boolean acceptsGet() {
    return false;
  }

  /**
   * Whether a verified payment is booked only once its platform's order query says paid, by the same trade, for the
   * same amount ({@code <section>.confirm_before_book}): for a channel whose signing key an aggregator, or anyone it
   * leaked to, also holds, so that a signature alone proves nothing was paid. False by default; true only where its
   * platform can be asked (the configuration refuses it otherwise).
   */
  default boolean confirmsBeforeBooking() {
    return false;
  }

  /**
   * Parse, check authenticity (every rule is its platform's {@code ...Signature} class, {@link Signatures}
   * says which), normalise. The future fails with {@link RejectedNotification} for anything not genuine,
   * with {@link VerificationUnavailable} when the platform could not be asked (PayPal's postback: then the
   * platform retries), with {@link UnbookableNotification} for a genuine notification booking cannot
   * follow, or with a bug.
   */
  Future<NotifyEvent> check(NotifyRequest request);

  /**
   * {@link #check} for a channel that decides on the request alone (all but PayPal): {@code decision}'s
   * event, or what it threw, as a completed future.
   */
  static Future<NotifyEvent> sync(Decision decision) {
    try {
      return Future.succeededFuture(decision.event());
    } catch (RejectedNotification | RuntimeException e) {
      return Future.failedFuture(e);
    }
  }

  /** A synchronous channel's {@link #check}, written as a call that throws. */
  @FunctionalInterface
  interface Decision {
    NotifyEvent event() throws RejectedNotification;
  }

  /** {@link Door#success}. */
  default Reply success() {
    return door().success();
  }

  /**
   * The reply that makes the platform retry (or tells it the request was refused).
   *
   * @param reason a short fixed word for the platform; never the untrusted input
   */
  Reply failure(int status, String reason);

  /** An HTTP reply in the platform's own format; {@code contentType} null for an empty body. */
  record Reply(int status, String contentType, String body) {}

  /** The webhooks that take a JSON failure, {@code {"error": reason}} (Stripe, Lemon Squeezy, Creem). */
  interface JsonReplies extends NotifyChannel {
    @Override
    default Reply failure(int status, String reason) {
      return new Reply(status, "application/json", new JsonObject().put("error", reason).encode());
    }
  }
}
