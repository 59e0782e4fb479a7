package paynotify.timer;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The workers' clock: a tick never overlaps itself, a backlog drains at once, a stop waits for the tick in flight. */
class PeriodicTest {
  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() {
    vertx.close().await();
  }

  @Test
  void aTickStillGoingWhenTheNextIsDueIsNotOverlapped() throws InterruptedException {
    AtomicInteger running = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    AtomicInteger ticks = new AtomicInteger();
    Periodic clock = Periodic.every(vertx, Duration.ofMillis(10), () -> {
      ticks.incrementAndGet();
      most.accumulateAndGet(running.incrementAndGet(), Math::max);
      return vertx.timer(60).onComplete(done -> running.decrementAndGet());
    });
    Thread.sleep(500);
    clock.stop().await();

    assertThat(most.get()).as("ticks running at once").isEqualTo(1);
    assertThat(ticks.get()).as("ticks of 60 ms in 500 ms, every 10 ms").isBetween(2, 9);
  }

  @Test
  void whileATickSaysMoreIsWaitingTheNextRunsAtOnce() throws InterruptedException {
    AtomicInteger ticks = new AtomicInteger();
    long start = System.nanoTime();
    Periodic clock = Periodic.draining(vertx, Duration.ofSeconds(1),
        () -> Future.succeededFuture(ticks.incrementAndGet() < 5)); // four full batches, then one that is not
    while (ticks.get() < 5 && System.nanoTime() - start < Duration.ofSeconds(10).toNanos()) {
      Thread.sleep(10);
    }
    long elapsed = Duration.ofNanos(System.nanoTime() - start).toMillis();
    clock.stop().await();

    assertThat(ticks.get()).isGreaterThanOrEqualTo(5);
    assertThat(elapsed).as("five ticks, the first after a period, the rest at once (ms)").isLessThan(1900);
  }

  @Test
  void aStopEndsTheTicksOnceTheOneInFlightIsOver() throws InterruptedException {
    AtomicInteger ticks = new AtomicInteger();
    Promise<Void> inFlight = Promise.promise();
    Periodic clock = Periodic.every(vertx, Duration.ofMillis(10), () -> {
      ticks.incrementAndGet();
      return inFlight.future();
    });
    while (ticks.get() == 0) {
      Thread.sleep(5);
    }
    Future<Void> stopped = clock.stop();
    Thread.sleep(50);
    assertThat(stopped.isComplete()).as("stopped before its tick ended").isFalse();

    inFlight.complete();
    stopped.await();
    Thread.sleep(50);
    assertThat(ticks.get()).isEqualTo(1);
  }

  @Test
  void aTickThatThrowsIsAFailedTickNotTheEndOfTheClock() throws InterruptedException {
    AtomicInteger ticks = new AtomicInteger();
    Periodic clock = Periodic.every(vertx, Duration.ofMillis(10), () -> {
      if (ticks.incrementAndGet() == 1) {
        throw new IllegalStateException("a bug in the first tick");
      }
      return Future.failedFuture("the database is down"); // failed: tried again next tick
    });
    long start = System.nanoTime();
    while (ticks.get() < 3 && System.nanoTime() - start < Duration.ofSeconds(10).toNanos()) {
      Thread.sleep(5);
    }
    clock.stop().await();

    assertThat(ticks.get()).isGreaterThanOrEqualTo(3);
  }
}
