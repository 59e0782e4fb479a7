package paynotify.drill;

import static java.util.stream.Collectors.counting;
import static java.util.stream.Collectors.groupingBy;
import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import paynotify.cli.ExitCode;
import paynotify.config.AppConfig.DatabaseSettings;
import paynotify.drill.HealthSamples.Sample;
import paynotify.testsupport.Cli;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.KillableMariaDb;
import paynotify.testsupport.TestDatabase;

/**
 * The incident paynotify was born from (issue 41), played under load: a MariaDB server of the test's own with its
 * data on a 256 MB tmpfs, the service on it as a user without SUPER (as a site's database user is), signed Alipay
 * payments at 200/s each delivered until answered success, as Alipay delivers them. The disk filled for 3 s; filled
 * until MariaDB dies of it (or is killed at 8 s), then started again; read_only=ON for 3 s (and until the status
 * reads asked during it are answered). Each drill: nothing answered success is missing, no order paid twice, /health
 * 503 with the reason while it lasts, the owner told when it starts and when it ends, the episode in the attention
 * list afterwards, the pools at rest. Each prints one line of what it saw (docs/development.md, the drill group).
 */
@Tag("drill")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DatabaseDrillTest {
  private static final int PER_SECOND = 200;
  private static final Duration DELIVERED_WITHIN = Duration.ofSeconds(60);
  /** The episode is over 20 s after the last refusal (WriteRefusals), then told: with the alert's gathering, 45 s. */
  private static final Duration ENDED_WITHIN = Duration.ofSeconds(45);
  private static final String USER = "paynotify_drill";
  /** /status.json asked during an episode: its answer this soon (a loaded 2-core CI machine), or that it gave none. */
  private static final Duration STATUS_WITHIN = Duration.ofSeconds(6);
  /**
   * {@code paynotify status} run during an episode: done this soon, or that it was not. It migrates, reports, then
   * asks /health (with its own 2 s), which says the database refuses writes until 5 s without a refusal
   * (WriteRefusals' closeAfter) after the drill ends it: begun 1 s into the episode, within these 7 s.
   */
  private static final Duration STATUS_RUN_WITHIN = Duration.ofSeconds(7);
  /** The most the read-only drill waits for its reads during the episode before it ends it (each has its limit). */
  private static final Duration READS_DONE_WITHIN = Duration.ofSeconds(30);
  /** The lines of each {@code paynotify status} output printed: the heading and the attention lines first. */
  private static final int STATUS_LINES = 6;

  private static KillableMariaDb server;
  private static TestDatabase db;
  private static DatabaseSettings serviceUser;

  @BeforeAll
  static void startServer() {
    server = KillableMariaDb.onTmpfs(256 * KillableMariaDb.MB);
    db = server.database();
    // The service as a site's database user: every right on its database, none over the server (no SUPER, no
    // READ_ONLY ADMIN), so read_only holds for it.
    server.execute("CREATE USER '" + USER + "'@'127.0.0.1' IDENTIFIED BY 'drill-password'",
        "GRANT ALL PRIVILEGES ON " + TestDatabase.NAME + ".* TO '" + USER + "'@'127.0.0.1'");
    DatabaseSettings root = server.settings();
    serviceUser = new DatabaseSettings(root.host(), root.port(), root.name(), USER, "drill-password", root.poolSize(),
        root.maxWaitQueue(), root.connectTimeout(), root.lockWaitSeconds(), null);
  }

  /** Whatever a drill left (one that failed half-way): the space freed, the server running and writable. */
  @AfterEach
  void serverBack() {
    server.freeDisk();
    if (!server.isRunning()) {
      server.start();
    }
    server.execute("SET GLOBAL read_only = OFF");
  }

  @AfterAll
  static void stopServer() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  @Order(1)
  void aDiskFullForThreeSecondsUnderLoad() throws Exception {
    diskFull("(a) disk full 3 s", "DA", 1600, Duration.ofSeconds(3), false);
  }

  @Test
  @Order(2)
  void aDiskFullLongerThanMariaDbSurvivesThenStartedAgain() throws Exception {
    // MariaDB 10.11 and 11.4 abort by themselves (seconds full: a rollback that needs a page it cannot have); one
    // that does not is killed at 8 s, as an owner's restart would end it.
    diskFull("(b) disk full until MariaDB dies", "DB", 3000, Duration.ofSeconds(8), true);
  }

  /**
   * The disk filled under load, held full for {@code hold} after the first refusal (or until MariaDB aborts of it;
   * killed at the end of {@code hold} when {@code kill}), then freed, and MariaDB started again if it died, as an
   * owner would.
   */
  private static void diskFull(String what, String prefix, int orders, Duration hold, boolean kill) throws Exception {
    try (Drill drill = Drill.start(db, serviceUser)) {
      statusBefore(drill);
      drill.load(prefix, orders, PER_SECOND);
      Thread.sleep(2000);
      long episodesBefore = db.count("SELECT COALESCE(MAX(id), 0) FROM write_refusals");
      long filled = drill.load().markTrouble();
      server.fillDisk();
      long full = firstRefusal(drill);
      Thread.sleep(1000);
      CompletableFuture<List<Reply>> noRetry = drill.sendNoRetryOnce();
      CompletableFuture<List<String>> attentionDuring = drill.attention(STATUS_WITHIN);
      CompletableFuture<Cli.Result> statusDuring = drill.status(STATUS_RUN_WITHIN);
      // the reads go on by themselves: the disk is freed on time whatever they do (held longer, MariaDB dies)
      boolean aborted = server.awaitExit(Duration.ofNanos(full + hold.toNanos() - System.nanoTime()));
      long end = System.nanoTime();
      if (kill && !aborted) {
        server.kill();
      }
      server.freeDisk();
      if (!kill && !aborted) {
        // it may abort just after the hold (a rollback that needed a page it could not have): as if within it
        aborted = server.awaitExit(Duration.ofSeconds(3));
      }
      long restart = 0;
      if (!server.isRunning()) {
        restart = System.nanoTime();
        server.start();
        restart = System.nanoTime() - restart;
      }

      Episode episode = Episode.of(drill, filled, full, end);
      drill.awaitDelivered(DELIVERED_WITHIN);
      String ended = drill.awaitAlert(WRITES_AGAIN, ENDED_WITHIN);
      Cli.Result statusAfter = drill.status(Duration.ofSeconds(30)).join();
      String how = aborted ? "MariaDB aborted after " + (end - full) / 1_000_000 + " ms full"
          : kill ? "MariaDB killed after " + (end - full) / 1_000_000 + " ms full" : "MariaDB survived";
      episode.report(what + " (" + how + (restart > 0 ? ", started again in " + restart / 1_000_000 + " ms" : "")
          + ")", drill, noRetry.join(), attentionDuring.join(), ended);
      reportStatus(what, statusDuring.join(), statusAfter);

      episode.assertRefused("disk full (1114)", aborted || kill ? null : attentionDuring.join());
      episode.assertNothingLostOrDoubled(drill);
      // Whether the service was refused a write: a confirmed episode is written to write_refusals once it is over.
      boolean refusedUs = ended != null
          || db.count("SELECT COUNT(*) FROM write_refusals WHERE id > ?", episodesBefore) > 0;
      if (refusedUs || !(aborted || kill)) {
        episode.assertTold(drill, "Database refuses writes: disk full (1114)", ended);
      } else {
        // MariaDB died (of the full disk, or killed) before any booking of ours got its 1114: the service saw a
        // database that stalled, then did not answer, never one that refused; so nothing of a refusal is told
        System.out.println("drill " + what + ": MariaDB stalled and died before it refused the service a write");
        assertThat(drill.alerts()).as("alerts of a refusal the service never saw")
            .noneMatch(a -> a.startsWith("Database refuses writes"));
      }
      // the epusdt orders a refusal cost are named afterwards; those answered failure by a database that was down
      // are not: the attention lines are of refusal episodes
      List<String> refused = refusedUs ? refused(drill, noRetry.join()) : List.of();
      episode.assertAfterwards(drill, refused, "disk full (1114)");
      assertStatus("disk full (1114)", aborted || kill ? null : statusDuring.join(), statusAfter, refused);
    }
  }

  @Test
  @Order(3)
  void readOnlyForAUserWithoutSuperUnderLoad() throws Exception {
    try (Drill drill = Drill.start(db, serviceUser)) {
      statusBefore(drill);
      drill.load("DC", 1400, PER_SECOND);
      Thread.sleep(2000);
      long set = drill.load().markTrouble();
      server.execute("SET GLOBAL read_only = ON");
      long on = firstRefusal(drill);
      Thread.sleep(1000);
      CompletableFuture<List<Reply>> noRetry = drill.sendNoRetryOnce();
      CompletableFuture<List<String>> attentionDuring = drill.attention(STATUS_WITHIN);
      CompletableFuture<Cli.Result> statusDuring = drill.status(STATUS_RUN_WITHIN);
      sleepUntil(on, Duration.ofSeconds(3));
      // a read-only server loses nothing held longer: the reads during it are done first (each has its own limit),
      // so that they are judged while it lasts however slow the machine
      CompletableFuture.allOf(attentionDuring, statusDuring)
          .completeOnTimeout(null, READS_DONE_WITHIN.toMillis(), TimeUnit.MILLISECONDS).join();
      server.execute("SET GLOBAL read_only = OFF");
      long off = System.nanoTime();

      Episode episode = Episode.of(drill, set, on, off);
      drill.awaitDelivered(DELIVERED_WITHIN);
      String ended = drill.awaitAlert(WRITES_AGAIN, ENDED_WITHIN);
      Cli.Result statusAfter = drill.status(Duration.ofSeconds(30)).join();
      episode.report("(c) read_only=ON 3 s", drill, noRetry.join(), attentionDuring.join(), ended);
      reportStatus("(c) read_only=ON 3 s", statusDuring.join(), statusAfter);

      episode.assertRefused("read-only (1290)", attentionDuring.join());
      episode.assertNothingLostOrDoubled(drill);
      episode.assertTold(drill, "Database refuses writes: read-only (1290)", ended);
      episode.assertAfterwards(drill, refused(drill, noRetry.join()), "read-only (1290)");
      assertStatus("read-only (1290)", statusDuring.join(), statusAfter, refused(drill, noRetry.join()));
    }
  }

  /**
   * When the platform got its first failure answer (System.nanoTime): the drill's episode is timed from there. A full
   * disk refuses once InnoDB needs a page its files have not got spare; a read-only server at once.
   */
  private static long firstRefusal(Drill drill) throws InterruptedException {
    long first = drill.load().awaitFirstFailure(Duration.ofSeconds(10));
    assertThat(first).as("a failure answer within 10 s (the database refusing the load's bookings)").isPositive();
    return first;
  }

  /**
   * {@code paynotify status} on the drill's configuration before the trouble: it runs (the configuration is one it
   * takes), and the command's classes are loaded, so that the run during the episode asks /health while it lasts.
   */
  private static void statusBefore(Drill drill) {
    Cli.Result before = drill.status(Duration.ofSeconds(30)).join();
    assertThat(before.exit()).as("paynotify status before the drill: %s", Drill.shown(before, STATUS_LINES))
        .isIn(0, ExitCode.FOUND);
  }

  private static void reportStatus(String what, Cli.Result during, Cli.Result after) {
    System.out.println("drill " + what + ": paynotify status during, " + Drill.shown(during, STATUS_LINES));
    System.out.println("drill " + what + ": paynotify status after, " + Drill.shown(after, STATUS_LINES));
  }

  /**
   * {@code paynotify status}, as an owner runs it: while it lasts ({@code during}; null where MariaDB may have died
   * meanwhile) exit 3 and first the database refusing writes; afterwards not 3, and the episode named with the
   * orders to look for when an epusdt notification was answered failure ({@code refused}).
   */
  private static void assertStatus(String reason, Cli.Result during, Cli.Result after, List<String> refused) {
    if (during != null) {
      assertThat(during.exit()).as("paynotify status's exit while it lasted: %s", Drill.shown(during, STATUS_LINES))
          .isEqualTo(ExitCode.DATABASE);
      assertThat(attention(during)).as("its attention lines").first().asString()
          .startsWith("the database refuses writes since").contains(reason);
    }
    assertThat(after.exit()).as("paynotify status's exit afterwards: %s", Drill.shown(after, STATUS_LINES))
        .isNotEqualTo(ExitCode.DATABASE);
    if (!refused.isEmpty()) {
      assertThat(attention(after)).as("paynotify status's attention lines afterwards").anySatisfy(a -> assertThat(a)
          .startsWith("the database refused writes from").contains(reason).contains(refused));
    }
  }

  /** The ATTENTION lines of a status output, without their label. */
  private static List<String> attention(Cli.Result status) {
    return status.out().lines().filter(l -> l.startsWith("ATTENTION: ")).map(l -> l.substring("ATTENTION: ".length()))
        .toList();
  }

  /** The drill's epusdt orders whose one notification was answered failure: epusdt never sends them again. */
  private static List<String> refused(Drill drill, List<Reply> noRetry) {
    return IntStream.range(0, noRetry.size()).filter(i -> !Drill.noRetrySuccess(noRetry.get(i)))
        .mapToObj(drill.noRetryOrders()::get).toList();
  }

  /** Sleeps until {@code after} past {@code fromNanos} (System.nanoTime): the drill's times, whatever ran between. */
  private static void sleepUntil(long fromNanos, Duration after) throws InterruptedException {
    long left = fromNanos + after.toNanos() - System.nanoTime();
    if (left > 0) {
      Thread.sleep(left / 1_000_000, (int) (left % 1_000_000));
    }
  }

  /** The end alert's title (AlertMessages, en), then "N notifications were refused between T1 and T2 ...". */
  private static final String WRITES_AGAIN = "Database writes again";

  /**
   * One drill's episode: when the trouble began ({@code startNanos}: the fill or the SET began; {@code fullNanos}:
   * the first failure answer, the database's first refusal as the platform saw it) and ended, and what /health
   * answered meanwhile.
   */
  private record Episode(long startNanos, long fullNanos, long endNanos, List<Sample> during) {
    static Episode of(Drill drill, long startNanos, long fullNanos, long endNanos) {
      return new Episode(startNanos, fullNanos, endNanos, drill.health().between(startNanos, endNanos));
    }

    /** The first answer "database refuses writes" asked since the first failure answer, null when none. */
    Sample firstRefusal() {
      return during.stream().filter(s -> s.atNanos() >= fullNanos && says(s, "database refuses writes"))
          .findFirst().orElse(null);
    }

    private static boolean says(Sample sample, String status) {
      return sample.status() == 503 && sample.body().contains(status);
    }

    void report(String what, Drill drill, List<Reply> noRetry, List<String> attentionDuring, String ended)
        throws Exception {
      AtLeastOnceLoad load = drill.load();
      Sample first = firstRefusal();
      Map<String, Long> bodies = during.stream().collect(groupingBy(Sample::toString, TreeMap::new, counting()));
      System.out.printf("drill %s: /health during %s (%s ms after the first failure answer), %d samples:"
              + " %s; %d notifications, %d tries (%s), %d answered failure and sent again, %d gave up, longest"
              + " answer %d ms; booked %d, lost %d, doubled %d; epusdt sent once during %s; alerts %s; attention during %s; attention after %s;"
              + " pools at rest %s%n",
          what, first, first == null ? "-" : String.valueOf((first.atNanos() - fullNanos) / 1_000_000),
          during.size(), bodies, load.sent(), load.tries(), load.statuses(), load.failureAnswers(), load.gaveUp(),
          load.longestAnswer().toMillis(), drill.booked(), drill.lost(), drill.doubled(),
          noRetry.stream().map(r -> r.status() + " " + r.body()).toList(), drill.alertTitles(),
          attentionDuring, drill.attention(), drill.awaitPoolsAtRest(Duration.ofSeconds(15)));
      if (ended == null) {
        System.out.println("drill " + what + ": no end alert; the messages received: " + drill.alerts());
      }
    }

    /**
     * /health 503 "database refuses writes" with the reason asked within 2 s of the first refusal (the bound,
     * plus one sample's period: the samples are asked every {@link HealthSamples#EVERY_MILLIS} ms), judged by when
     * each sample was asked, whenever it was answered. "database unavailable" before it (the pools overrun) passes
     * only so; where MariaDB died of the full disk ({@code attentionDuring} null: it may have, meanwhile), a first
     * 503 "database unavailable" within the bound is the answer. And the attention list's first line while it lasted.
     */
    void assertRefused(String reason, List<String> attentionDuring) {
      Sample first = attentionDuring == null
          ? during.stream().filter(s -> s.atNanos() >= fullNanos && (says(s, "database refuses writes")
              || says(s, "database unavailable"))).findFirst().orElse(null)
          : firstRefusal();
      assertThat(first).as("/health 503 saying the database refuses writes while it lasted; answered: %s", during)
          .isNotNull();
      assertThat((first.atNanos() - fullNanos) / 1_000_000)
          .as("ms from the first failure answer to the /health sample asked that said so; answered: %s", during)
          .isLessThanOrEqualTo(2000 + HealthSamples.EVERY_MILLIS);
      JsonObject body = new JsonObject(first.body());
      if (!says(first, "database unavailable")) {
        assertThat(body.getString("status")).isEqualTo("database refuses writes");
        assertThat(body.getString("reason")).isEqualTo(reason);
        assertThat(body.getString("since")).isNotBlank();
      }
      if (attentionDuring != null) {
        assertThat(attentionDuring).as("/status.json's attention while it lasted").isNotEmpty();
        assertThat(attentionDuring.get(0)).startsWith("the database refuses writes since").contains(reason);
      }
    }

    void assertNothingLostOrDoubled(Drill drill) {
      AtLeastOnceLoad load = drill.load();
      assertThat(load.failureAnswers()).as("notifications answered failure while it lasted").isPositive();
      assertThat(load.gaveUp()).as("notifications never answered success").isZero();
      assertThat(drill.lost()).as("answered success, no payment row").isZero();
      assertThat(drill.doubled()).as("orders with two payment rows").isZero();
      assertThat(drill.booked()).as("every order paid once").isEqualTo(load.sent());
    }

    /** The owner told: the start (its title, e.g. "Database refuses writes: disk full (1114)") and the end. */
    void assertTold(Drill drill, String title, String ended) {
      assertThat(drill.alerts()).as("the start alert (database_refuses_writes)").anySatisfy(a -> assertThat(a)
          .startsWith(title));
      assertThat(ended).as("the end alert (database_writes_again)").isNotNull();
    }

    /**
     * Afterwards: /health 200; {@code refused}, the epusdt orders a refusal answered failure (epusdt never sends
     * again), named in the attention list (those it held until the disk was freed are booked: nothing to look for);
     * the pools at rest.
     */
    void assertAfterwards(Drill drill, List<String> refused, String reason) throws Exception {
      assertThat(drill.health().first(200, endNanos)).as("/health 200 again afterwards").isNotNull();
      if (!refused.isEmpty()) {
        assertThat(drill.attention()).as("/status.json's attention after the episode").anySatisfy(a -> assertThat(a)
            .startsWith("the database refused writes from").contains(reason).contains(refused));
      }
      assertThat(drill.awaitPoolsAtRest(Duration.ofSeconds(15))).as("the pools at rest").allSatisfy(
          (figure, value) -> assertThat(value).as(figure).isZero());
    }
  }
}
