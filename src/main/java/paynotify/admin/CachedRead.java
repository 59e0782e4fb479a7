package paynotify.admin;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.function.Supplier;

/**
 * A read from the database shared by everyone who asks for it while it runs and for {@code ttlMs}
 * after it started: however many requests come (a dashboard, several Prometheus servers, a script
 * polling in a loop), the database sees one read at a time. A failed read is not kept: the next
 * request tries again.
 */
final class CachedRead<T> {
  /**
   * A read still running after this many {@code ttlMs} is given up (its waiters fail): a database that
   * never answers it must not hold every later request once it is back.
   */
  static final int STUCK_AFTER_TTLS = 10;

  private final long ttlMs;
  private final Supplier<Future<T>> read;
  private Promise<T> current;
  private long startedAt;

  CachedRead(long ttlMs, Supplier<Future<T>> read) {
    this.ttlMs = ttlMs;
    this.read = read;
  }

  /** The read in flight, or the last one while it is fresh, or a new one. */
  synchronized Future<T> get() {
    long now = System.currentTimeMillis();
    if (current != null && now - startedAt >= ttlMs * STUCK_AFTER_TTLS) {
      current.tryFail("no answer from the database within " + ttlMs * STUCK_AFTER_TTLS + " ms");
    }
    Future<T> last = current == null ? null : current.future();
    boolean stale = last == null || last.failed() || last.isComplete() && now - startedAt >= ttlMs;
    if (stale) {
      startedAt = now;
      Promise<T> next = Promise.promise();
      current = next;
      read.get().onSuccess(next::tryComplete).onFailure(next::tryFail);
    }
    return current.future();
  }
}
