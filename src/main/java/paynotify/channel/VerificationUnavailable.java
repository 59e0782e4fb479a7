package paynotify.channel;

/**
 * The platform could not be asked whether a notification is genuine (PayPal's verification endpoint
 * down or slow): nothing is known, nothing is booked, and the platform is told to retry.
 */
public final class VerificationUnavailable extends RuntimeException {
  public VerificationUnavailable(String message, Throwable cause) {
    super(message, cause);
  }
}
