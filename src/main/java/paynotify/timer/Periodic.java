package paynotify.timer;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A background worker's clock: its tick every period, never two at once (a tick still going when the next is due
 * skips that one), until {@link #stop}. The tick logs its own outcome; one that throws is a failed tick, never the
 * end of the clock.
 */
public final class Periodic {
  private static final Logger LOG = LoggerFactory.getLogger(Periodic.class);

  private final Vertx vertx;
  private final Supplier<Future<Boolean>> tick;
  private final AtomicBoolean busy = new AtomicBoolean();
  private final long timer;
  private volatile boolean stopped;
  private volatile Future<Boolean> current = Future.succeededFuture(false);

  private Periodic(Vertx vertx, Duration first, Duration period, Supplier<Future<Boolean>> tick) {
    this.vertx = vertx;
    this.tick = tick;
    this.timer = vertx.setPeriodic(first.toMillis(), period.toMillis(), id -> {
      if (!stopped && busy.compareAndSet(false, true)) {
        run();
      }
    });
  }

  /** {@code tick} every {@code period}, the first one {@code period} from now. */
  public static Periodic every(Vertx vertx, Duration period, Supplier<Future<?>> tick) {
    return every(vertx, period, period, tick);
  }

  /** {@code tick} {@code first} from now, then every {@code period}. */
  public static Periodic every(Vertx vertx, Duration first, Duration period, Supplier<Future<?>> tick) {
    return new Periodic(vertx, first, period, () -> tick.get().map(false));
  }

  /**
   * {@code tick} every {@code period}, and again at once while it says more is waiting (a full batch), so that a
   * backlog drains at full speed.
   */
  public static Periodic draining(Vertx vertx, Duration period, Supplier<Future<Boolean>> tick) {
    return new Periodic(vertx, period, period, tick);
  }

  private Future<Boolean> run() {
    Future<Boolean> run;
    try {
      run = tick.get();
    } catch (RuntimeException e) {
      LOG.error("a background tick threw, its clock goes on", e);
      run = Future.failedFuture(e);
    }
    current = run;
    run.onComplete(done -> {
      if (!stopped && done.succeeded() && Boolean.TRUE.equals(done.result())) {
        // More waiting: the next at once, still busy. current stands for it from now, so that a stop between
        // here and its start waits for it rather than for the tick that just ended.
        Promise<Boolean> next = Promise.promise();
        current = next.future();
        vertx.runOnContext(v -> {
          if (stopped) {
            busy.set(false);
            next.complete(false);
          } else {
            run().onComplete(next);
          }
        });
      } else {
        busy.set(false);
      }
    });
    return run;
  }

  /** No more ticks; completes once the tick in flight, if any, is over (it is not cut: its writes are kept). */
  public Future<Void> stop() {
    stopped = true;
    vertx.cancelTimer(timer);
    return current.<Void>mapEmpty().otherwiseEmpty();
  }
}
