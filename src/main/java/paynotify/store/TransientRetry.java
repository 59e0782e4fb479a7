package paynotify.store;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * Runs a transaction again after a deadlock, a lock-wait timeout or a snapshot conflict (1020), a
 * bounded number of times: bookings, and the purge's batches (idempotent deletes).
 */
public final class TransientRetry {
  private final Vertx vertx;
  private final int maxAttempts;

  public TransientRetry(Vertx vertx, int maxAttempts) {
    this.vertx = vertx;
    this.maxAttempts = maxAttempts;
  }

  /** Thrown by booking code when a race it lost is settled by simply running again. */
  public static final class RaceLost extends RuntimeException {
    public RaceLost(String message) {
      super(message, null, false, false);
    }
  }

  public <T> Future<T> run(Supplier<Future<T>> transaction) {
    return attempt(transaction, 1);
  }

  private <T> Future<T> attempt(Supplier<Future<T>> transaction, int attempt) {
    return transaction.get().recover(err -> {
      boolean again = DbErrors.isTransient(err) || err instanceof RaceLost;
      if (!again || attempt >= maxAttempts) {
        return Future.failedFuture(err);
      }
      // Jitter, so that the two sides of a deadlock do not collide again in step.
      long delayMs = 2L * attempt + ThreadLocalRandom.current().nextInt(10 * attempt);
      return vertx.timer(delayMs).compose(v -> attempt(transaction, attempt + 1));
    });
  }
}
