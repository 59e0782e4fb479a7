package paynotify.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import paynotify.admin.StatusReport;
import paynotify.channel.Platform;
import paynotify.channel.PlatformTime;
import paynotify.reconcile.daily.DailyCloseSettings;
import paynotify.server.Pools;
import paynotify.store.Database;
import paynotify.store.OrdersTable;
import paynotify.store.RefusalEpisode;
import paynotify.store.RefusalEpisodes;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.SettableClock;

/**
 * Issue 41: after the database refused writes, the status page's attention list names, for a day, the unpaid orders
 * of that window of the channels that never deliver a refused notification again (epusdt, V免签), as the site's
 * orders table maps them; the platforms that retry deliver theirs themselves.
 */
class AfterRefusalsTest extends DatabaseTestBase {
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");
  /** alipay, epusdt and vmq configured. */
  private static final Map<String, Platform> ENDPOINTS =
      Map.of("alipay", Platform.ALIPAY, "epusdt", Platform.EPUSDT, "vmq", Platform.VMQ);

  private static Vertx vertx;
  private static Database pool;
  private static RefusalEpisodes episodes;
  private final Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);

  @BeforeAll
  static void connect() {
    vertx = Vertx.vertx();
    pool = Pools.connect(vertx, db.settings());
    episodes = new RefusalEpisodes(vertx, pool);
  }

  @AfterAll
  static void close() {
    pool.close().await();
    vertx.close().await();
  }

  /** recovery.channel_values 9:epusdt (a site that stores ids), as the configuration reads them. */
  static RecoverySettings settings(Platform onlyPlatform) {
    Map<String, Platform> platformOf = new HashMap<>();
    for (Platform p : Platform.values()) {
      platformOf.put(p.code(), p);
    }
    platformOf.put("9", Platform.EPUSDT);
    return new RecoverySettings(false, Duration.ofMinutes(2), Duration.ofHours(26), Duration.ofSeconds(60), 30, null,
        "created_at", platformOf, onlyPlatform, Duration.ofSeconds(10), Set.of());
  }

  static AfterRefusals after(OrdersTable orders, Map<String, Platform> endpoints) {
    return new AfterRefusals(episodes, pool, orders, endpoints, settings(null), null, Clock.systemUTC());
  }

  /**
   * An order made {@code secondsAgo} before the test's {@link #now}, its created_at in the sessions' zone (Beijing):
   * from {@code now}, not the database's clock, so that the episode's window holds it however long the setup took.
   */
  void order(String orderNo, String channel, String status, long secondsAgo) {
    db.update("INSERT INTO orders (order_no, amount_cents, status, channel, created_at) VALUES (?, 100, ?, ?, ?)",
        orderNo, status, channel, beijing(now.minusSeconds(secondsAgo)));
  }

  /** A DATETIME value of {@code t} in Beijing time, as the site's orders table holds it. */
  static String beijing(Instant t) {
    return LocalDateTime.ofInstant(t, PlatformTime.BEIJING).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss"));
  }

  /** The database refused writes from 300 to 200 s ago: 2 of its 5 refusals epusdt's. */
  RefusalEpisode episode() {
    return new RefusalEpisode("disk full (1114)", now.minusSeconds(300), now.minusSeconds(200), 5,
        Map.of("alipay", 3L, "epusdt", 2L));
  }

  static String time(Instant t) {
    return LocalDateTime.ofInstant(t, PlatformTime.BEIJING).format(TIME);
  }

  @Test
  void theUnpaidOrdersOfTheWindowOfTheChannelsThatDoNotRetryAreListedNewestFirst() {
    order("E1", "epusdt", "unpaid", 1150); // 14 minutes before the first refusal (epusdt's order lives ~10): in
    order("E2", "epusdt", "unpaid", 250);
    order("V1", "9", "unpaid", 220); // epusdt by recovery.channel_values
    order("N1", null, "unpaid", 240); // no channel said: may be epusdt's
    order("U1", "usdt-trc20", "unpaid", 230); // a value the configuration does not know: listed, not hidden
    order("A1", "alipay", "unpaid", 250); // Alipay delivers again
    order("E3", "epusdt", "unpaid", 1300); // before the window
    order("E4", "epusdt", "unpaid", 100); // after it
    order("E5", "epusdt", "paid", 300);
    episodes.record(episode()).await();

    List<String> lines = after(OrdersTable.byDefault(), ENDPOINTS).attention().await();

    assertThat(lines).containsExactly("the database refused writes from "
        + beijing(now.minusSeconds(300)) + " to " + time(now.minusSeconds(200)) + " (Beijing time; disk full (1114)): 5"
        + " notifications answered failure, 2 of them from epusdt and V免签 (vmq), which never deliver again: check"
        + " these unpaid orders of that window (created " + time(now.minusSeconds(1200)) + " to "
        + time(now.minusSeconds(200)) + "): V1, U1, N1, E2, E1");
  }

  @Test
  void beyondTenOrdersTheRestAreCounted() {
    for (int i = 1; i <= 12; i++) {
      order(String.format("E%02d", i), "epusdt", "unpaid", 205 + i); // a few seconds from the edges
    }
    episodes.record(episode()).await();

    assertThat(after(OrdersTable.byDefault(), ENDPOINTS).attention().await()).singleElement().asString()
        .endsWith(": E01, E02, E03, E04, E05, E06, E07, E08, E09, E10 (and 2 more)");
  }

  @Test
  void nothingIsSaidOfAnEpisodeWhenOnlyPlatformsThatRetryWereRefusedOrItEndedMoreThanADayAgo() {
    order("E1", "epusdt", "unpaid", 250);
    episodes.record(new RefusalEpisode("read-only (1290)", now.minusSeconds(300), now.minusSeconds(200), 3,
        Map.of("alipay", 3L))).await();
    episodes.record(new RefusalEpisode("disk full (1114)", now.minus(Duration.ofHours(25)),
        now.minus(Duration.ofHours(25)).plusSeconds(30), 2, Map.of("epusdt", 2L))).await();

    assertThat(after(OrdersTable.byDefault(), ENDPOINTS).attention().await()).isEmpty();
    // and no channel that loses anything configured: nothing read at all
    episodes.record(episode()).await();
    assertThat(after(OrdersTable.byDefault(), Map.of("alipay", Platform.ALIPAY)).attention().await()).isEmpty();
  }

  @Test
  void aTableWithoutACreationColumnSaysTheWindowsOrdersCannotBeListed() {
    OrdersTable d = OrdersTable.byDefault();
    OrdersTable noCreatedAt = new OrdersTable(d.table(), new OrdersTable.Columns("order_no", "amount_cents", "status",
        "paid_at", "channel", "trade_no", null, null), d.unit(), d.values());
    episodes.record(episode()).await();

    assertThat(after(noCreatedAt, ENDPOINTS).attention().await()).singleElement().asString()
        .endsWith("which never deliver again: the orders of that window cannot be listed"
            + " (orders.columns.created_at is not mapped); look for epusdt and V免签 (vmq) payments of that time at"
            + " the platform");
  }

  @Test
  void noUnpaidOrderInTheWindowSaysToLookAtThePlatform() {
    order("A1", "alipay", "unpaid", 250);
    episodes.record(episode()).await();

    assertThat(after(OrdersTable.byDefault(), ENDPOINTS).attention().await()).singleElement().asString()
        .contains(": no unpaid order of theirs was created from " + time(now.minusSeconds(1200)) + " to "
            + time(now.minusSeconds(200)) + "; look for epusdt and V免签 (vmq) payments");
  }

  /**
   * The orders the refused notifications named come first, with their state now: one paid since is not the owner's
   * to check; the window's other unpaid orders follow, the named ones not twice.
   */
  @Test
  void theOrdersTheRefusedNotificationsNamedComeFirstWithThoseNotPaidSinceToCheck() {
    order("EP1", "epusdt", "unpaid", 1000); // made before the episode, paid during it
    order("EP2", "epusdt", "paid", 600);
    order("E9", "epusdt", "unpaid", 250);
    episodes.record(new RefusalEpisode("disk full (1114)", now.minusSeconds(300), now.minusSeconds(200), 5,
        Map.of("alipay", 2L, "epusdt", 3L), List.of("EP1", "EP2", "EP3"))).await();

    assertThat(after(OrdersTable.byDefault(), ENDPOINTS).attention().await()).singleElement().asString()
        .endsWith("3 of them from epusdt and V免签 (vmq), which never deliver again: refused: EP1, EP2, EP3 (EP2 paid"
            + " since); check EP1, EP3; other unpaid orders of that window (created " + time(now.minusSeconds(1200))
            + " to " + time(now.minusSeconds(200)) + "): E9");
  }

  /** Orders known lost: "no unpaid order was created" would read as all clear, and is not said. */
  @Test
  void knownLostOrdersAndNoOtherUnpaidOrderInTheWindowSayNoAllClear() {
    order("EP1", "epusdt", "unpaid", 1000);
    episodes.record(new RefusalEpisode("disk full (1114)", now.minusSeconds(300), now.minusSeconds(200), 2,
        Map.of("epusdt", 2L), List.of("EP1"))).await();

    assertThat(after(OrdersTable.byDefault(), ENDPOINTS).attention().await()).singleElement().asString()
        .doesNotContain("no unpaid order").endsWith(": refused: EP1; check EP1; for the others look for epusdt and"
            + " V免签 (vmq) payments of that time at the platform");
  }

  /** The count the status page runs on every load for a day stops at 1000. */
  @Test
  void theWindowsUnpaidOrdersAreCountedUpTo1000() {
    db.update("INSERT INTO orders (order_no, amount_cents, status, channel, created_at) SELECT CONCAT('F', seq), 100,"
        + " 'unpaid', 'epusdt', ? FROM seq_1_to_1001", beijing(now.minusSeconds(250)));
    episodes.record(episode()).await();

    assertThat(after(OrdersTable.byDefault(), ENDPOINTS).attention().await()).singleElement().asString()
        .endsWith(" (and more: 1000 or more in all)");
  }

  /**
   * The status page is loaded again and again: the lines are read once a minute, not on every load, but at once
   * after this instance kept an episode.
   */
  @Test
  void theLinesAreReadAgainOnlyAMinuteLater() {
    SettableClock clock = new SettableClock(Instant.now(), ZoneOffset.UTC);
    AfterRefusals after = new AfterRefusals(episodes, pool, OrdersTable.byDefault(), ENDPOINTS, settings(null), null,
        clock);
    assertThat(after.attention().await()).isEmpty();
    episodes.record(episode()).await();

    clock.set(clock.instant().plusSeconds(59));
    assertThat(after.attention().await()).isEmpty();
    clock.set(clock.instant().plusSeconds(1));
    assertThat(after.attention().await()).hasSize(1);
    // one this instance saw end shows at once (the status read during the outage cached none)
    after.ended(new RefusalEpisode("read-only (1290)", now.minusSeconds(100), now.minusSeconds(50), 1,
        Map.of("vmq", 1L))).await();
    assertThat(after.attention().await()).hasSize(2);
  }

  /** /status.json, /status and paynotify status: the lines end the attention list (the report fails without). */
  @Test
  void theStatusReportsAttentionListHasThem() {
    order("E1", "epusdt", "unpaid", 250);
    episodes.record(episode()).await();

    JsonObject report = StatusReport.collect(pool, new StatusReport.Context(List.of(), null, null, null,
        DailyCloseSettings.off(), Clock.systemUTC(), null, after(OrdersTable.byDefault(), ENDPOINTS))).await();

    assertThat(report.getJsonArray("attention").getList()).singleElement().asString()
        .startsWith("the database refused writes from ").endsWith("): E1");
  }

  /** WriteRefusals' consumer: the ended episode is written (then read back as the lines above). */
  @Test
  void anEndedEpisodeIsKept() throws Exception {
    after(OrdersTable.byDefault(), ENDPOINTS).ended(episode());

    assertThat(db.countWithin(Duration.ofSeconds(10), 1, "SELECT COUNT(*) FROM write_refusals WHERE refused = 5"
        + " AND reason = 'disk full (1114)'")).isEqualTo(1);
  }
}
