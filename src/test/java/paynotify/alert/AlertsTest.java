package paynotify.alert;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import paynotify.channel.PlatformTime;
import paynotify.testsupport.SettableClock;

/**
 * The throttle: one message per kind per interval, the rest folded into one that counts them; the quiet hours
 * hold everything until they end; a target that fails is tried three times then given up, one that hangs holds
 * a bounded queue, and neither holds up the others or whoever raised the alert.
 */
class AlertsTest {
  static final Duration INTERVAL = Duration.ofMinutes(10);
  /** How long the first of a kind waits for the rest of its burst. */
  static final Duration GATHER = Duration.ofSeconds(5);
  static final LocalDateTime TEN = LocalDateTime.of(2026, 12, 4, 10, 0);

  Vertx vertx;
  final SettableClock clock = new SettableClock(at(TEN), PlatformTime.BEIJING);

  /** Keeps what it is sent; fails the first {@code failures} tries. */
  static final class Recording implements AlertTarget {
    final List<Alert> sent = new CopyOnWriteArrayList<>();
    final AtomicInteger tries = new AtomicInteger();
    final int failures;

    Recording(int failures) {
      this.failures = failures;
    }

    @Override
    public String name() {
      return "recording";
    }

    @Override
    public Future<Void> send(Alert alert) {
      if (tries.incrementAndGet() <= failures) {
        return Future.failedFuture("down");
      }
      sent.add(alert);
      return Future.succeededFuture();
    }
  }

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
  }

  @AfterEach
  void stop() {
    vertx.close().await();
  }

  static Instant at(LocalDateTime beijing) {
    return beijing.atZone(PlatformTime.BEIJING).toInstant();
  }

  Alerts alerts(AlertTarget target, LocalTime quietFrom, LocalTime quietTo, String language) {
    return new Alerts(vertx, List.of(target), new Alerts.Settings(INTERVAL, quietFrom, quietTo),
        new AlertTexts(language), clock, List.of(Duration.ofMillis(10), Duration.ofMillis(10)));
  }

  /** Once everything raised or flushed before it has been handled on the alerts' context (a recording target
   * records on it). */
  static void handled(Alerts alerts, AlertTarget target) {
    alerts.queued(target).await();
  }

  /** As the alerts' timer does once the few seconds a burst is gathered in are over (whatever their clock says). */
  static void gathered(Alerts alerts) {
    alerts.flush(Instant.now().plus(GATHER).plusSeconds(1));
  }

  /** {@code assertion}, passing within five seconds (what waits on a timer). */
  static void eventually(Runnable assertion) throws InterruptedException {
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (true) {
      try {
        assertion.run();
        return;
      } catch (AssertionError e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        Thread.sleep(20);
      }
    }
  }

  static List<Alert> of(Recording r, String kind) {
    return r.sent.stream().filter(a -> a.kind().equals(kind)).toList();
  }

  @Test
  void twentyOfAKindAtOnceAreOneMessageAFewSecondsLaterThatCountsThem() throws Exception {
    Recording target = new Recording(0);
    Alerts alerts = alerts(target, null, null, "en");
    for (int i = 0; i < 20; i++) {
      alerts.raise(new Alert("unknown_order", "unknown order PN" + i, "detail " + i));
    }
    alerts.raise(new Alert("second_payment", "paid twice", "detail"));
    handled(alerts, target);
    assertThat(target.sent).as("gathering").isEmpty();

    alerts.flush(at(TEN).plus(GATHER));
    handled(alerts, target);
    assertThat(of(target, "unknown_order")).singleElement().satisfies(a -> {
      assertThat(a.title()).isEqualTo("unknown order PN19 (+19)");
      assertThat(a.text()).isEqualTo("detail 19\n\nand 19 more unknown_order since 10:00");
    });
    assertThat(of(target, "second_payment")).singleElement() // another kind has its own
        .satisfies(a -> assertThat(a.title()).isEqualTo("paid twice"));

    clock.set(at(TEN.plusMinutes(3)));
    alerts.raise(new Alert("unknown_order", "unknown order PN20", "detail 20"));
    alerts.raise(new Alert("unknown_order", "unknown order PN21", "detail 21"));
    alerts.flush(at(TEN.plusMinutes(9)));
    handled(alerts, target);
    assertThat(of(target, "unknown_order")).as("within the interval: folded").hasSize(1);
    alerts.flush(at(TEN.plus(INTERVAL).plusSeconds(6)));
    handled(alerts, target);
    assertThat(of(target, "unknown_order")).hasSize(2).last().satisfies(a -> {
      assertThat(a.title()).isEqualTo("unknown order PN21 (+1)");
      assertThat(a.text()).isEqualTo("detail 21\n\nand 1 more unknown_order since 10:03");
    });
    alerts.flush(at(TEN.plus(INTERVAL.multipliedBy(2)).plusSeconds(7)));
    handled(alerts, target);
    assertThat(of(target, "unknown_order")).as("nothing more was raised").hasSize(2);
    alerts.close();
  }

  @Test
  void inTheQuietHoursEverythingWaitsForTheirEndThenComesOncePerKindInChinese() throws Exception {
    Recording target = new Recording(0);
    clock.set(at(TEN.withHour(23).withMinute(30)));
    Alerts alerts = alerts(target, LocalTime.of(23, 0), LocalTime.of(8, 0), "zh");
    for (int i = 0; i < 3; i++) {
      alerts.raise(new Alert("unknown_order", "未知订单 PN" + i, "详情 " + i));
    }
    alerts.flush(at(TEN.plusDays(1).withHour(7).withMinute(59)));
    handled(alerts, target);
    assertThat(target.sent).isEmpty();

    alerts.flush(at(TEN.plusDays(1).withHour(8).withMinute(0)));
    handled(alerts, target);
    assertThat(target.sent).singleElement().satisfies(a -> {
      assertThat(a.title()).isEqualTo("未知订单 PN2 (+2)");
      assertThat(a.text()).endsWith("另有 2 条未知订单的付款（自 23:30 起）");
    });
    alerts.close();
  }

  @Test
  void aFailingTargetIsTriedThreeTimesThenGivenUpWithoutHoldingUpTheOthers() throws Exception {
    Recording down = new Recording(Integer.MAX_VALUE);
    Recording up = new Recording(0);
    Alerts alerts = new Alerts(vertx, List.of(down, up), new Alerts.Settings(INTERVAL, null, null),
        new AlertTexts("en"), clock, List.of(Duration.ofMillis(10), Duration.ofMillis(10)));
    alerts.raise(new Alert("dispute", "a dispute", "detail"));
    alerts.raise(new Alert("refund_failed", "a refund failed", "detail"));
    alerts.flush(at(TEN).plus(GATHER));
    eventually(() -> assertThat(up.sent).hasSize(2));
    eventually(() -> assertThat(down.tries.get()).isEqualTo(6)); // 3 tries for each of the two
    assertThat(down.sent).isEmpty();
    alerts.close();
  }

  @Test
  void aTargetThatNeverAnswersHoldsABoundedQueue() throws Exception {
    AtomicInteger asked = new AtomicInteger();
    AlertTarget hanging = new AlertTarget() {
      @Override
      public String name() {
        return "hanging";
      }

      @Override
      public Future<Void> send(Alert alert) {
        asked.incrementAndGet();
        return Promise.<Void>promise().future(); // never completes
      }
    };
    Alerts alerts = alerts(hanging, null, null, "en");
    long start = System.nanoTime();
    for (int i = 0; i < 200; i++) {
      alerts.raise(new Alert("kind" + i, "t", "x"));
    }
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(1)); // raise never waits
    alerts.flush(at(TEN).plus(GATHER));
    handled(alerts, hanging);
    assertThat(asked.get()).isEqualTo(1); // one at a time: the first never ended
    assertThat(alerts.queued(hanging).await()).isEqualTo(Alerts.MAX_QUEUED); // the rest dropped, logged
    alerts.close();
  }
}
