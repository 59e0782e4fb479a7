package paynotify.recovery;

import java.time.Duration;

/**
 * When an unpaid order is asked about again: soon at first, when a lost notification is likeliest to
 * be found (the buyer paid, the callback failed), then hourly until max_age.
 */
final class Backoff {
  private static final long[] MINUTES = {1, 2, 4, 8, 15, 30, 60};

  private Backoff() {}

  /** The wait after the {@code attempts}-th question (0: the first). */
  static Duration after(int attempts) {
    return Duration.ofMinutes(MINUTES[Math.min(attempts, MINUTES.length - 1)]);
  }
}
