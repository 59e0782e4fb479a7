package paynotify.net;

/**
 * Why a platform gave no usable answer. The message says what happened in one line an owner can act on,
 * never a key or a signature.
 */
public final class OutboundFailure extends RuntimeException {
  /** What the failure means for the caller. */
  public enum Kind {
    /** Not reached, timed out, a 5xx, a cut answer: ask again later (back-off). */
    UNAVAILABLE,
    /** An answer whose signature does not verify, or that names another merchant: nothing is booked, a WARN. */
    UNTRUSTED,
    /** The platform refused the request (a wrong app id, key or permission): the owner must fix the config. */
    REFUSED,
    /** Asked too early: the platform has not made it yet (a day's bill, before about 10:00 the next day). */
    NOT_READY
  }

  private final Kind kind;

  public OutboundFailure(Kind kind, String message) {
    super(message, null, false, false);
    this.kind = kind;
  }

  public OutboundFailure(Kind kind, String message, Throwable cause) {
    super(message, cause, false, false);
    this.kind = kind;
  }

  public Kind kind() {
    return kind;
  }

  public static OutboundFailure unavailable(String message) {
    return new OutboundFailure(Kind.UNAVAILABLE, message);
  }

  public static OutboundFailure untrusted(String message) {
    return new OutboundFailure(Kind.UNTRUSTED, message);
  }

  public static OutboundFailure notReady(String message) {
    return new OutboundFailure(Kind.NOT_READY, message);
  }

  public static OutboundFailure refused(String message) {
    return new OutboundFailure(Kind.REFUSED, message);
  }

  @Override
  public String toString() {
    return kind.name().toLowerCase(java.util.Locale.ROOT) + ": " + getMessage();
  }
}
