package paynotify.admin;

import io.vertx.core.Future;
import java.util.function.Supplier;

/**
 * A read from the database shared by everyone who asks for it while it runs and for {@code ttlMs}
 * after it started: however many requests come (a dashboard, several Prometheus servers, a script
 * polling in a loop), the database sees one read at a time. A failed read is not kept: the next
 * request tries again.
 */
final class CachedRead<T> {
  private final long ttlMs;
  private final Supplier<Future<T>> read;
  private Future<T> current;
  private long startedAt;

  CachedRead(long ttlMs, Supplier<Future<T>> read) {
    this.ttlMs = ttlMs;
    this.read = read;
  }

  /** The read in flight, or the last one while it is fresh, or a new one. */
  synchronized Future<T> get() {
    long now = System.currentTimeMillis();
    boolean stale = current == null || current.failed() || current.isComplete() && now - startedAt >= ttlMs;
    if (stale) {
      startedAt = now;
      current = read.get();
    }
    return current;
  }
}
