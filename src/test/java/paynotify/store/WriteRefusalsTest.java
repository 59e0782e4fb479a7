package paynotify.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.mysqlclient.MySQLException;
import java.net.ConnectException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import paynotify.channel.Platform;
import paynotify.store.WriteRefusals.Refusing;
import paynotify.store.WriteRefusals.Timing;
import paynotify.testsupport.SettableClock;

/**
 * The threshold and the life of an episode on a clock the test moves, with the service's timing: one refusal is a
 * suspicion, a second within 10 minutes or a refused probe confirms it; it closes once nothing was refused for 5 s
 * and a write committed (a booking or a probe; on a full disk a booking since the last refused one, or three probes
 * written in a row), and is over (told once, with its counts) after 20 s (on a full disk only once a booking
 * committed after the last refused one); a refusal while it closes reopens the same episode.
 */
class WriteRefusalsTest {
  static final Instant T0 = Instant.parse("2026-12-06T04:00:00Z");
  static final MySQLException FULL = new MySQLException("The table 'idempotent_keys' is full", 1114, "HY000");
  static final MySQLException READ_ONLY = new MySQLException(
      "The MariaDB server is running with the --read-only option so it cannot execute this statement", 1290, "HY000");

  final Vertx vertx = Vertx.vertx();
  final SettableClock clock = new SettableClock(T0, ZoneOffset.UTC);
  final List<Refusing> opened = new ArrayList<>();
  final List<RefusalEpisode> writesAgain = new ArrayList<>();
  final List<RefusalEpisode> ended = new ArrayList<>();
  /** What the next probe answers. */
  Supplier<Future<Void>> probeAnswer = Future::succeededFuture;
  int probes;
  final WriteRefusals refusals = refusals(Timing.DEFAULT);

  /** On {@code timing} but for the timer: the test ticks. */
  private WriteRefusals refusals(Timing timing) {
    return new WriteRefusals(vertx, () -> {
      probes++;
      return probeAnswer.get();
    }, new Timing(timing.confirmWithin(), timing.probeAfter(), timing.probeEvery(), timing.closeAfter(),
        timing.overAfter(), Duration.ofHours(1)), clock, opened::add, writesAgain::add, ended::add);
  }

  @AfterEach
  void close() {
    vertx.close().await();
  }

  @Test
  void oneRefusalIsASuspicionNotAnOutage() {
    refusals.refused("alipay", Platform.ALIPAY, null, FULL);

    assertThat(refusals.refusing()).isNull();
    at(Duration.ofSeconds(1));
    refusals.tick().await(); // the probe writes: no confirmation
    assertThat(probes).isEqualTo(1);
    at(Duration.ofMinutes(10).plusSeconds(1));
    refusals.tick().await();
    refusals.refused("alipay", Platform.ALIPAY, null, FULL); // 10 minutes later: a suspicion of its own

    assertThat(refusals.refusing()).isNull();
    assertThat(opened).isEmpty();
    assertThat(ended).isEmpty();
  }

  @Test
  void aSecondRefusalWithinTenMinutesOpensTheEpisodeAtOnce() {
    refusals.refused("alipay", Platform.ALIPAY, null, FULL);
    at(Duration.ofMinutes(9)); // a quiet shop: Alipay's retry, 4 and 10 minutes after the first try
    refusals.succeeded(); // a small write may still fit: it does not clear the suspicion
    refusals.refused("epusdt", Platform.EPUSDT, null, FULL);

    assertThat(refusals.refusing()).isEqualTo(new Refusing("disk full (1114)", T0, 2,
        Map.of("alipay", 1L, "epusdt", 1L)));
    assertThat(opened).containsExactly(refusals.refusing());
  }

  @Test
  void aRefusedProbeConfirmsTheFirstRefusal() {
    probeAnswer = () -> Future.failedFuture(READ_ONLY);
    refusals.refused("vmq", Platform.VMQ, null, READ_ONLY);
    at(Duration.ofMillis(999));
    refusals.tick().await();
    assertThat(probes).isZero();
    at(Duration.ofSeconds(1));
    refusals.tick().await();

    assertThat(refusals.refusing()).isEqualTo(new Refusing("read-only (1290)", T0, 1, Map.of("vmq", 1L)));
    assertThat(opened).hasSize(1);
  }

  @Test
  void otherErrorsAreNoRefusal() {
    refusals.refused("alipay", Platform.ALIPAY, null, new MySQLException("Deadlock found", 1213, "40001"));
    refusals.refused("alipay", Platform.ALIPAY, null, new MySQLException("Deadlock found", 1213, "40001"));

    assertThat(refusals.refusing()).isNull();
    assertThat(refusals.tick().await()).isNull();
    assertThat(probes).isZero();
  }

  @Test
  void itClosesAfterFiveQuietSecondsWithAWriteAndIsOverAfterTwenty() {
    open();
    at(Duration.ofSeconds(14));
    refusals.succeeded();
    at(Duration.ofSeconds(15).minusMillis(1));
    refusals.tick().await();
    assertThat(refusals.refusing()).as("not yet 5 s quiet").isNotNull();
    at(Duration.ofSeconds(15));
    refusals.tick().await();
    assertThat(refusals.refusing()).as("closing: /health 200").isNull();
    at(Duration.ofSeconds(30).minusMillis(1));
    refusals.tick().await();
    assertThat(ended).isEmpty();
    at(Duration.ofSeconds(30));
    refusals.tick().await();

    assertThat(ended).containsExactly(new RefusalEpisode("disk full (1114)", T0, T0.plusSeconds(10), 3,
        Map.of("alipay", 2L, "epusdt", 1L)));
    assertThat(writesAgain).isEqualTo(ended);
    assertThat(opened).hasSize(1);
    refusals.tick().await();
    assertThat(ended).hasSize(1);
  }

  /**
   * MariaDB aborts on a full disk: what is lost to the dead server while the episode lasts is counted in it (epusdt's
   * notification is one the owner must look for), and keeps it from closing; before any refusal it is no episode.
   */
  @Test
  void notificationsLostToADeadServerDuringAnEpisodeAreCountedInIt() {
    ConnectException down = new ConnectException("Connection refused");
    refusals.refused("epusdt", Platform.EPUSDT, null, down);
    assertThat(refusals.refusing()).as("a server down alone: /health says database unavailable").isNull();
    open();
    at(Duration.ofSeconds(14));
    refusals.succeeded();
    at(Duration.ofSeconds(20));
    refusals.refused("epusdt", Platform.EPUSDT, null, new RuntimeException("wrapped", down));
    refusals.tick().await();
    assertThat(refusals.refusing()).as("a notification lost meanwhile keeps it open").isNotNull();
    at(Duration.ofSeconds(21));
    refusals.succeeded();
    at(Duration.ofSeconds(46));
    refusals.tick().await();
    refusals.tick().await();

    assertThat(ended).containsExactly(new RefusalEpisode("disk full (1114)", T0, T0.plusSeconds(20), 4,
        Map.of("alipay", 2L, "epusdt", 2L)));
  }

  @Test
  void quietWithoutAnyWriteStaysOpen() {
    probeAnswer = () -> Future.failedFuture(new IllegalStateException("Connection refused")); // neither way
    open();
    at(Duration.ofSeconds(60));
    refusals.tick().await();

    assertThat(refusals.refusing()).isNotNull();
  }

  @Test
  void aSucceedingProbeClosesAReadOnlyEpisodeWithoutTraffic() {
    open(READ_ONLY);
    at(Duration.ofSeconds(15));
    refusals.tick().await(); // the probe writes
    refusals.tick().await();

    assertThat(refusals.refusing()).isNull();
  }

  /**
   * A load balancer that drops a 503 backend, or a quiet shop, sends no booking: three probes written in a row close a
   * full disk's episode (/health 200 again), but the probe's row may fit where a booking's pages do not: only a booking
   * committed after the last refused one says the disk writes again, and ends it.
   */
  @Test
  void threeProbesInARowCloseADiskFullEpisodeButOnlyABookingEndsIt() {
    open();
    for (int s = 12; s <= 16; s += 2) {
      at(Duration.ofSeconds(s));
      refusals.tick().await(); // probes 1 to 3 write
    }
    assertThat(refusals.refusing()).as("the third probe's answer is looked at by the next tick").isNotNull();
    at(Duration.ofSeconds(17));
    refusals.tick().await();
    assertThat(probes).isEqualTo(3);
    assertThat(refusals.refusing()).as("closing: /health 200").isNull();
    for (int s = 18; s <= 60; s += 2) {
      at(Duration.ofSeconds(s));
      refusals.tick().await();
    }
    assertThat(ended).as("no booking proved the disk writes").isEmpty();
    assertThat(refusals.refusing()).isNull();

    at(Duration.ofSeconds(61));
    refusals.succeeded();
    refusals.tick().await();
    assertThat(writesAgain).singleElement().satisfies(e -> assertThat(e.until()).isEqualTo(T0.plusSeconds(10)));
    assertThat(ended).isEqualTo(writesAgain);
  }

  @Test
  void aProbeThatFailsBreaksTheRow() {
    List<Future<Void>> answers = new ArrayList<>(List.of(Future.succeededFuture(), Future.succeededFuture(),
        Future.failedFuture(new IllegalStateException("Connection refused")), Future.succeededFuture(),
        Future.succeededFuture()));
    probeAnswer = () -> answers.isEmpty() ? Future.succeededFuture() : answers.remove(0);
    open();
    for (int s = 12; s <= 21; s += 2) {
      at(Duration.ofSeconds(s));
      refusals.tick().await(); // ok, ok, failed, ok, ok
    }
    assertThat(probes).isEqualTo(5);
    assertThat(refusals.refusing()).as("two in a row since the failure").isNotNull();
    at(Duration.ofSeconds(22));
    refusals.tick().await(); // the third in a row
    at(Duration.ofSeconds(23));
    refusals.tick().await();
    assertThat(refusals.refusing()).isNull();
  }

  @Test
  void aRefusalWhileAFullDiskClosesOnProbesReopensIt() {
    open();
    for (int s = 12; s <= 18; s += 2) {
      at(Duration.ofSeconds(s));
      refusals.tick().await();
    }
    assertThat(refusals.refusing()).isNull();
    at(Duration.ofSeconds(19));
    refusals.refused("alipay", Platform.ALIPAY, null, FULL);

    assertThat(refusals.refusing()).isEqualTo(new Refusing("disk full (1114)", T0, 4,
        Map.of("alipay", 3L, "epusdt", 1L)));
    assertThat(opened).as("told once").hasSize(1);
  }

  @Test
  void aRefusedProbeDoesNotKeepItOpenOnceABookingCommittedAfterTheLastRefusedOne() {
    probeAnswer = () -> Future.failedFuture(FULL);
    open();
    at(Duration.ofSeconds(11));
    refusals.succeeded();
    at(Duration.ofSeconds(12));
    refusals.tick().await(); // refused: the bookings say more

    at(Duration.ofSeconds(15));
    refusals.tick().await();
    assertThat(refusals.refusing()).isNull();
    at(Duration.ofSeconds(30));
    refusals.tick().await();
    assertThat(writesAgain).singleElement().satisfies(e -> assertThat(e.until()).isEqualTo(T0.plusSeconds(10)));
  }

  @Test
  void aRefusedProbeKeepsItOpenWhileNoBookingCommitted() {
    probeAnswer = () -> Future.failedFuture(FULL);
    open();
    at(Duration.ofSeconds(12));
    refusals.tick().await();
    at(Duration.ofSeconds(13));
    refusals.succeeded(); // before the probe's refusal: it stays the last word until 17 s
    at(Duration.ofSeconds(16));
    refusals.tick().await();

    assertThat(refusals.refusing()).isNotNull();
  }

  @Test
  void oneProbeAtATimeEvenWhenItNeverCompletes() {
    Promise<Void> hanging = Promise.promise();
    probeAnswer = hanging::future;
    WriteRefusals quick = refusals(new Timing(Duration.ofMinutes(10), Duration.ofMillis(10), Duration.ofMillis(10),
        Duration.ofSeconds(5), Duration.ofSeconds(20), Duration.ofHours(1)));
    quick.refused("alipay", Platform.ALIPAY, null, FULL);
    at(Duration.ofSeconds(1));
    quick.tick(); // never completes
    for (int s = 2; s <= 5; s++) {
      sleep(50); // real time: longer than any timeout put on a probe of 10 ms
      at(Duration.ofSeconds(s));
      quick.tick();
    }
    assertThat(probes).isEqualTo(1);

    hanging.fail(FULL);
    at(Duration.ofSeconds(6));
    quick.tick().await();
    assertThat(probes).isEqualTo(2);
  }

  @Test
  void aRefusalWhileClosingReopensTheSameEpisode() {
    open();
    at(Duration.ofSeconds(15));
    refusals.succeeded();
    refusals.tick().await();
    assertThat(refusals.refusing()).isNull();
    at(Duration.ofSeconds(20));
    refusals.refused("wechat_v3", Platform.WECHAT, null, FULL);

    assertThat(refusals.refusing()).isEqualTo(new Refusing("disk full (1114)", T0, 4,
        Map.of("alipay", 2L, "epusdt", 1L, "wechat_v3", 1L)));
    assertThat(opened).as("told once").hasSize(1);
    at(Duration.ofSeconds(40));
    refusals.succeeded();
    refusals.tick().await();
    refusals.tick().await();
    assertThat(ended).singleElement().satisfies(e -> assertThat(e.until()).isEqualTo(T0.plusSeconds(20)));
  }

  /**
   * epusdt and V免签 never deliver a refused notification again: the episode names their orders (once each, the first
   * 20), those lost to a dead server meanwhile too; Alipay's come again, and a notification that names no order adds
   * none.
   */
  @Test
  void theOrdersOfPlatformsThatNeverDeliverAgainAreKeptOnceEachAtMostTwenty() {
    refusals.refused("alipay", Platform.ALIPAY, "A-1", FULL);
    refusals.refused("epusdt", Platform.EPUSDT, "E-1", FULL);
    refusals.refused("epusdt", Platform.EPUSDT, "E-1", FULL);
    refusals.refused("vmq", Platform.VMQ, "V-1", READ_ONLY);
    refusals.refused("vmq", Platform.VMQ, null, FULL);
    refusals.refused("epusdt", Platform.EPUSDT, "E-2", new ConnectException("Connection refused"));
    for (int i = 3; i <= 30; i++) {
      refusals.refused("epusdt", Platform.EPUSDT, "E-" + i, FULL);
    }
    refusals.stop();

    List<String> expected = new ArrayList<>(List.of("E-1", "V-1", "E-2"));
    for (int i = 3; i <= 19; i++) {
      expected.add("E-" + i);
    }
    assertThat(ended).singleElement().satisfies(e -> {
      assertThat(e.lostOrders()).hasSize(RefusalEpisode.LOST_ORDERS_KEPT).isEqualTo(expected);
      assertThat(e.refused()).isEqualTo(34);
    });
  }

  @Test
  void aSuspicionNotConfirmedLeavesNoOrderToTheNextEpisode() {
    refusals.refused("epusdt", Platform.EPUSDT, "E-OLD", FULL);
    at(Duration.ofMinutes(11));
    refusals.refused("epusdt", Platform.EPUSDT, "E-NEW", FULL); // a suspicion of its own: the old one was no outage
    refusals.refused("epusdt", Platform.EPUSDT, "E-NEXT", FULL);
    refusals.stop();

    assertThat(ended).singleElement().satisfies(e -> assertThat(e.lostOrders()).containsExactly("E-NEW", "E-NEXT"));
  }

  @Test
  void stopKeepsAnOpenEpisodeAsItStandsWithoutSayingItWritesAgain() {
    open();
    at(Duration.ofSeconds(11));
    refusals.stop();

    assertThat(ended).containsExactly(new RefusalEpisode("disk full (1114)", T0, T0.plusSeconds(10), 3,
        Map.of("alipay", 2L, "epusdt", 1L)));
    assertThat(writesAgain).as("not known").isEmpty();
    assertThat(refusals.refusing()).isNull();
  }

  @Test
  void refusalsAfterStopAreNotLookedAt() {
    refusals.stop();
    refusals.refused("alipay", Platform.ALIPAY, null, FULL);
    refusals.refused("alipay", Platform.ALIPAY, null, FULL);
    at(Duration.ofSeconds(1));
    refusals.tick().await();

    assertThat(probes).as("no probe on a closing pool").isZero();
    assertThat(refusals.refusing()).isNull();
    assertThat(opened).isEmpty();
  }

  @Test
  void stopTellsNothingOfASuspicion() {
    refusals.refused("alipay", Platform.ALIPAY, null, FULL);
    refusals.stop();

    assertThat(ended).isEmpty();
  }

  /** Open since T0 (alipay, epusdt), a third refusal at 10 s, for a full disk; the clock at 10 s. */
  private void open() {
    open(FULL);
  }

  private void open(Throwable why) {
    refusals.refused("alipay", Platform.ALIPAY, null, why);
    at(Duration.ofSeconds(3));
    refusals.refused("epusdt", Platform.EPUSDT, null, why);
    at(Duration.ofSeconds(10));
    refusals.refused("alipay", Platform.ALIPAY, null, why);
    assertThat(refusals.refusing()).isNotNull();
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** The clock {@code sinceT0} after T0. */
  private void at(Duration sinceT0) {
    clock.set(T0.plus(sinceT0));
  }
}
