package paynotify.channel;

/**
 * A notification we refuse: malformed, forged, or for another merchant. Nothing is booked; the
 * platform gets the channel's failure reply with {@link #status()}.
 */
public final class RejectedNotification extends Exception {
  private final Reason reason;

  /** Why, grouped by what the operator should look at. */
  public enum Reason {
    MALFORMED(400),
    /** A DOCTYPE or entity in XML: refused before anything is resolved. */
    XML_DOCTYPE(400),
    MISSING_SIGNATURE(401),
    BAD_SIGNATURE(401),
    /** WeChat Pay v3: no configured platform key has this serial. */
    UNKNOWN_SERIAL(401),
    /** WeChat Pay v3: outside the configured timestamp window. */
    STALE_TIMESTAMP(401),
    /** An encrypted resource or req_info that does not decrypt with the configured key. */
    DECRYPT_FAILED(400),
    WRONG_MERCHANT(403);

    public final int status;

    Reason(int status) {
      this.status = status;
    }
  }

  public RejectedNotification(Reason reason, String message) {
    super(message, null, false, false);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }

  public int status() {
    return reason.status;
  }

  public static RejectedNotification malformed(String message) {
    return new RejectedNotification(Reason.MALFORMED, message);
  }
}
