package paynotify.recovery;

/**
 * The questions one instance may ask the platforms: recovery.max_queries_per_minute, one budget for the sweeper and
 * {@code check}; and, apart, recovery.max_confirmations_per_minute ({@link Confirmations}). A token bucket holding a
 * minute's worth, refilled at that rate. A check takes a token only while more than half the bucket (rounded down) is
 * left, so checks asked by whoever reloads a return page can neither spend the merchant's API quota nor what the
 * sweeper needs to find lost payments.
 */
final class QueryBudget {
  private final double capacity;
  private final double perNano;
  /** What checks leave to the sweeper. */
  private final int reserve;
  private double tokens;
  private long at = System.nanoTime();

  QueryBudget(int perMinute) {
    this.capacity = perMinute;
    this.perNano = perMinute / 60e9;
    this.reserve = perMinute / 2;
    this.tokens = perMinute;
  }

  /** One question for the sweeper, if any is left. */
  synchronized boolean takeForSweep() {
    return take(0);
  }

  /** One question for a check, if more than the sweeper's reserve is left. */
  synchronized boolean takeForCheck() {
    return take(reserve);
  }

  /** A question taken but not asked (another instance held the order). */
  synchronized void putBack() {
    tokens = Math.min(capacity, tokens + 1);
  }

  private boolean take(int keep) {
    long now = System.nanoTime();
    tokens = Math.min(capacity, tokens + (now - at) * perNano);
    at = now;
    if (tokens - 1 < keep) {
      return false;
    }
    tokens -= 1;
    return true;
  }
}
