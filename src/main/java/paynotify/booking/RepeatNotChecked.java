package paynotify.booking;

/**
 * A repeat of a key this process saw committed, while the duplicate pre-check could not answer (its
 * pool's queue full, a timeout, the database gone): answered 503 at once instead of taking a booking
 * connection. The event is booked already; the platform retries and the pre-check answers then.
 */
public final class RepeatNotChecked extends RuntimeException {
  RepeatNotChecked(String key, Throwable why) {
    super(key + " is booked already; the duplicate pre-check could not confirm it (" + why.getMessage() + ")",
        null, false, false);
  }
}
