package paynotify.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import paynotify.booking.anomaly.AnomalyKind;
import paynotify.channel.Platform;
import paynotify.channel.PlatformTime;
import paynotify.reconcile.daily.DailyCloseSettings;
import paynotify.server.Pools;
import paynotify.store.Database;
import paynotify.testsupport.ChannelFixture;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.Http;
import paynotify.testsupport.PlatformCertificates;
import paynotify.testsupport.ServiceProcess;
import paynotify.testsupport.TestDatabase;
import paynotify.testsupport.TestService;
import paynotify.testsupport.WechatV3Notifications;

/** /status.json of a running service (forwarding on, to a site that is down) on seeded tables. */
class StatusReportTest extends DatabaseTestBase {
  // The helper's sessions run in the server's zone, the service's in +08:00: rows are written in Beijing time.
  static final String NOW = "(UTC_TIMESTAMP(3) + INTERVAL 8 HOUR)";

  private static final HttpClient CLIENT = HttpClient.newHttpClient();
  /** The relay caches its backlog this long (/health and the metrics share it). */
  private static final long BACKLOG_CACHE_MS = 5_000;

  /** reconcile.daily on: the report is read directly (a service would run the closes themselves). */
  private static final DailyCloseSettings DAILY =
      new DailyCloseSettings(true, LocalTime.of(10, 30), List.of(Platform.ALIPAY, Platform.WECHAT), false, null);
  private static final String SUMMARY = "{\"payments\":38,\"payment_cents\":120400,\"refunds\":0,"
      + "\"refund_cents\":0,\"findings\":{\"missing_local\":1},\"repaired\":1}";

  private static TestService service;
  private static long lastRead;
  private static Vertx vertx;
  private static Database pool;

  @BeforeAll
  static void start() throws IOException {
    int nobody = ServiceProcess.freePort(); // the site: nothing listens, pending events stay pending
    service = TestService.start(TestDatabase.get().settings(), new JsonObject()
        .put("admin", new JsonObject().put("port", ServiceProcess.freePort()))
        .put("forward", new JsonObject().put("url", "http://127.0.0.1:" + nobody + "/paynotify")
            .put("secret", "0123456789abcdef0123456789abcdef")));
    vertx = Vertx.vertx();
    pool = Pools.connect(vertx, TestDatabase.get().settings());
  }

  @AfterAll
  static void stop() {
    service.close();
    pool.close().await();
    vertx.close().await();
  }

  @Override
  protected void beforeReset() {
    service.awaitLogRecorded();
  }

  static void payment(String channel, String trade, long cents, String paidAt) {
    db.update("INSERT INTO payments (channel, trade_no, order_no, amount_cents, paid_at) VALUES (?, ?, ?, ?, "
        + paidAt + ")", channel, trade, "O-" + trade, cents);
  }

  static void notification(String channel, String outcome, String remote, String detail, String ago) {
    db.update("INSERT INTO notify_log (channel, received_at, remote_addr, outcome, detail, body_bytes)"
        + " VALUES (?, " + NOW + " - INTERVAL " + ago + ", ?, ?, ?, 10)", channel, remote, outcome, detail);
  }

  static void anomaly(String kind, String orderNo, Long cents, String detail, String ago, boolean resolved) {
    db.update("INSERT INTO anomalies (kind, channel, order_no, trade_no, amount_cents, detail, dedupe_key, created_at,"
        + " resolved_at) VALUES (?, 'alipay', ?, ?, ?, ?, ?, " + NOW + " - INTERVAL " + ago + ", "
        + (resolved ? NOW : "NULL") + ")", kind, orderNo, "T-" + orderNo, cents, detail, kind + ":" + orderNo);
  }

  static void event(String id, String state, String ago) {
    db.update("INSERT INTO forward_events (event_id, endpoint, type, body, state, next_attempt_at, created_at)"
        + " VALUES (?, 'site', 'payment.succeeded', '{}', ?, " + NOW + " + INTERVAL 1 DAY, " + NOW + " - INTERVAL " + ago
        + ")", id, state);
  }

  /** A daily_closes row as DailyClose writes it; {@code triedUtc} in UTC, as it keeps every time of the table. */
  static void dailyClose(String channel, String day, String state, int attempts, String triedUtc, String detail,
      String summary) {
    db.update("INSERT INTO daily_closes (channel, bill_date, state, attempts, next_try_at, last_tried_at, detail,"
        + " summary, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", channel, day, state, attempts, triedUtc,
        triedUtc, detail, summary, triedUtc);
  }

  /** The report with {@link #DAILY} on, the service's clock reading {@code beijing} (Beijing time). */
  static JsonObject reportAt(String beijing) {
    Clock clock = Clock.fixed(LocalDateTime.parse(beijing).atZone(PlatformTime.BEIJING).toInstant(), ZoneOffset.UTC);
    return StatusReport.collect(pool, new StatusReport.Context(List.of(), null, null, null, DAILY, clock, null)).await();
  }

  static JsonObject statusJson(int adminPort) throws Exception {
    long cached = lastRead + BACKLOG_CACHE_MS + 100 - System.currentTimeMillis();
    if (adminPort == service.server().adminPort() && cached > 0) {
      Thread.sleep(cached); // a previous test's forward counts must not be the ones read here
    }
    Http.Reply reply = Http.get(adminPort, "/status.json");
    // After the reply: the relay cached its backlog while answering, later than the request was sent
    // (the more channels, the later), so timing from the request left that read's cache still fresh.
    lastRead = System.currentTimeMillis();
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    return new JsonObject(reply.body());
  }

  @Test
  void saysTodaysPaymentsEachChannelsLastNotificationOpenAnomaliesRefusedAndTheQueue() throws Exception {
    payment("alipay", "A1", 1000, NOW);
    payment("alipay", "A2", 2550, NOW);
    payment("wechat", "W1", 999, NOW);
    payment("epay", "E0", 5000, NOW + " - INTERVAL 1 DAY"); // yesterday: not today's
    payment("alipay", "A0", 7000, NOW + " - INTERVAL 1 DAY");
    // In arrival order: the last of each channel is the newest row.
    notification("alipay", "processed", "110.75.1.1", "order O-A1 paid", "2 HOUR");
    notification("alipay", "error", "110.75.1.2", "database: lock wait timeout", "30 MINUTE");
    notification("wechat_v2", "rejected", "198.51.100.7", "bad signature", "20 MINUTE");
    notification("wechat_v3", "processed", "101.226.1.1", "order O-W1 paid", "10 MINUTE");
    notification("epay", "rejected", "203.0.113.9", "unknown pid", "5 MINUTE");
    notification("alipay", "duplicate", "110.75.1.3", "already booked", "1 MINUTE");
    anomaly("amount_mismatch", "O-1", 999L, "paid 9.99, order is 10.00", "2 HOUR", false);
    anomaly("second_payment", "O-2", 1000L, "order already paid by T-X", "1 HOUR", false);
    anomaly("unknown_order", "O-3", null, "no such order", "3 HOUR", true);
    event("evt_1", "pending", "1 HOUR");
    event("evt_2", "pending", "5 MINUTE");
    event("evt_3", "failed", "2 HOUR");
    event("evt_4", "delivered", "3 HOUR");

    JsonObject r = statusJson(service.server().adminPort());

    assertThat(r.getJsonObject("payments_today")).isEqualTo(new JsonObject().put("count", 3).put("amount_cents", 4549)
        .put("amount", "45.49").put("by_channel", new JsonArray()
            .add(new JsonObject().put("channel", "alipay").put("count", 2).put("amount_cents", 3550).put("amount", "35.50"))
            .add(new JsonObject().put("channel", "wechat").put("count", 1).put("amount_cents", 999).put("amount", "9.99"))));

    JsonArray channels = r.getJsonArray("channels");
    assertThat(channels.stream().map(c -> ((JsonObject) c).getString("channel")))
        .containsExactly("alipay", "wechat_v2", "wechat_v3", "epay", "stripe", "paypal", "xunhupay", "epusdt", "vmq",
            "paddle", "tokenpay", "lemonsqueezy", "creem");
    assertThat(last(channels, "alipay").getString("outcome")).isEqualTo("duplicate");
    assertThat(last(channels, "alipay").getLong("age_seconds")).isBetween(55L, 120L);
    assertThat(last(channels, "wechat_v2").getString("outcome")).isEqualTo("rejected");
    assertThat(last(channels, "wechat_v3").getString("outcome")).isEqualTo("processed");
    assertThat(last(channels, "epay").getString("detail")).isEqualTo("unknown pid");
    assertThat(last(channels, "paypal")).isNull(); // configured, nothing received yet

    JsonObject anomalies = r.getJsonObject("anomalies");
    assertThat(anomalies.getLong("open")).isEqualTo(2);
    List<JsonObject> shown = objects(anomalies.getJsonArray("shown"));
    assertThat(shown).extracting(a -> a.getString("order_no")).containsExactly("O-2", "O-1"); // newest first
    assertThat(shown.get(0).getString("action")).isEqualTo(AnomalyKind.SECOND_PAYMENT.action());
    assertThat(shown.get(1).getString("amount")).isEqualTo("9.99");
    assertThat(shown.get(1).getString("detail")).isEqualTo("paid 9.99, order is 10.00");

    List<JsonObject> refused = objects(r.getJsonArray("refused"));
    assertThat(refused).extracting(x -> x.getString("channel") + " " + x.getString("outcome") + " "
        + x.getString("remote_addr") + " " + x.getString("detail")).containsExactly(
        "epay rejected 203.0.113.9 unknown pid", "wechat_v2 rejected 198.51.100.7 bad signature",
        "alipay error 110.75.1.2 database: lock wait timeout");

    JsonObject forward = r.getJsonObject("forward");
    assertThat(forward.getString("state")).isEqualTo("on");
    assertThat(forward.getLong("pending")).isEqualTo(2);
    assertThat(forward.getLong("failed")).isEqualTo(1);
    assertThat(forward.getLong("oldest_pending_seconds")).isBetween(3595L, 3700L);

    assertThat(r.getJsonArray("attention").getList()).containsExactly("2 open anomalies",
        "1 event the site never accepted (paynotify forward retry)", "the site has not taken events for 60 min (is it up?)");
    assertThat(r.getJsonObject("database").getBoolean("reachable")).isTrue();
    assertThat(r.getJsonObject("database").getString("version")).isNotBlank();
    assertThat(r.getJsonObject("database").getString("time_zone")).isEqualTo("+08:00");
    assertThat(r.getJsonObject("paynotify").getString("version")).isEqualTo("dev"); // classes, no jar manifest
    assertThat(r.getJsonObject("paynotify").getLong("uptime_seconds")).isNotNegative();
    long uptime = r.getJsonObject("paynotify").getLong("uptime_seconds");
    Thread.sleep(1100);
    assertThat(new JsonObject(Http.get(service.server().adminPort(), "/status.json").body()).getJsonObject("paynotify")
        .getLong("uptime_seconds"))
        .as("counted from the start, not from the request").isGreaterThan(uptime);
  }

  @Test
  void aDisabledEndpointAndTheEventsOfOneNoLongerConfiguredNeedAPerson() throws Exception {
    db.update("INSERT INTO forward_endpoints (name, disabled_at, disabled_reason) VALUES ('site', NOW(3),"
        + " '410 Gone for event evt_x (payment.succeeded)')");
    db.update("INSERT INTO forward_events (event_id, endpoint, type, body, created_at) VALUES"
        + " ('evt_old', 'old-crm', 'payment.succeeded', '{}', " + NOW + " - INTERVAL 1 MINUTE)");
    JsonObject forward = statusJson(service.server().adminPort()).getJsonObject("forward");
    assertThat(objects(forward.getJsonArray("endpoints"))).containsExactly(
        new JsonObject().put("name", "site").put("pending", 0L).put("failed", 0L).put("disabled", true)
            .put("disabled_reason", "410 Gone for event evt_x (payment.succeeded)").put("configured", true),
        new JsonObject().put("name", "old-crm").put("pending", 1L).put("failed", 0L).put("disabled", false)
            .putNull("disabled_reason").put("configured", false));
    assertThat(forward.getBoolean("disabled")).isTrue();
    assertThat(statusJson(service.server().adminPort()).getJsonArray("attention").getList()).containsExactly(
        "endpoint site is disabled (410 Gone for event evt_x (payment.succeeded)): nothing is sent to it"
            + " (paynotify forward enable --endpoint site)",
        "1 event waits for endpoint old-crm, which is not in forward's configuration any more: add it back, or"
            + " they are never sent");
    String page = Http.get(service.server().adminPort(), "/status").body();
    assertThat(page).contains("<table id=\"forward-endpoints\">")
        .contains("<td>old-crm</td><td>1</td><td>0</td><td><span class=\"red\">not configured</span></td>")
        .contains("<span class=\"red\">disabled: 410 Gone for event evt_x (payment.succeeded)</span>");
  }

  @Test
  void listsTheNewestTwentyOpenAnomaliesAndCountsThemAll() throws Exception {
    for (int i = 1; i <= 25; i++) {
      anomaly("unknown_order", String.format("N-%02d", i), 100L, "no such order", (100 - i) + " MINUTE", false);
    }
    anomaly("over_refund", "N-99", 100L, "resolved long ago", "1 MINUTE", true);

    JsonObject a = statusJson(service.server().adminPort()).getJsonObject("anomalies");
    assertThat(a.getLong("open")).isEqualTo(25);
    List<JsonObject> shown = objects(a.getJsonArray("shown"));
    assertThat(shown).hasSize(20);
    assertThat(shown.get(0).getString("order_no")).isEqualTo("N-25");
    assertThat(shown.get(19).getString("order_no")).isEqualTo("N-06");
  }

  // Review N2: V免签 shifts reallyPrice to tell buyers apart, and with payQf 递减 the buyer pays less than the price
  // booked: today's payments say how many were paid below their price, and by how much in all.
  @Test
  void todaysPaymentsSayHowManyWerePaidBelowTheirPrice() throws Exception {
    for (String[] p : new String[][] {{"V1", "1000", "9.99"}, {"V2", "1000", "9.97"}, {"V3", "1000", "10.01"},
        {"V4", "500", "5"}}) {
      db.update("INSERT INTO payments (channel, trade_no, order_no, amount_cents, paid_at, detail) VALUES ('vmq', ?, ?,"
          + " ?, " + NOW + ", ?)", p[0], "O-" + p[0], Long.parseLong(p[1]),
          new JsonObject().put("reallyPrice", p[2]).put("type", "1").encode());
    }
    payment("alipay", "A1", 1000, NOW);

    JsonObject r = statusJson(service.server().adminPort());

    assertThat(objects(r.getJsonObject("payments_today").getJsonArray("by_channel"))).containsExactly(
        new JsonObject().put("channel", "alipay").put("count", 1).put("amount_cents", 1000).put("amount", "10.00"),
        new JsonObject().put("channel", "vmq").put("count", 4).put("amount_cents", 3500).put("amount", "35.00")
            .put("below_price", new JsonObject().put("count", 2).put("short_cents", 4).put("short", "0.04")));
    assertThat(StatusPage.html(r)).contains("2 paid below their price, 0.04 less");
  }

  @Test
  void emptyTablesAreAllClear() throws Exception {
    JsonObject r = statusJson(service.server().adminPort());
    assertThat(r.getJsonArray("attention")).isEmpty();
    assertThat(r.getJsonObject("payments_today").getLong("count")).isZero();
    assertThat(r.getJsonArray("refused")).isEmpty();
    assertThat(objects(r.getJsonArray("channels"))).allMatch(c -> c.getValue("last_notification") == null);
    assertThat(r.getJsonObject("daily_close")).isEqualTo(new JsonObject().put("enabled", false));
    assertThat(StatusPage.html(r)).doesNotContain("Daily close");
  }

  @Test
  void theLastCloseOfEachChannelIsShownAndAFailedOneNeedsAPerson() {
    dailyClose("alipay", "2026-11-30", "done", 1, "2026-12-01 02:30:00", "the day before", "{}");
    dailyClose("alipay", "2026-12-01", "done", 2, "2026-12-02 02:45:01.250",
        "38 payments 1204.00, 0 refunds 0.00 · found 1 missing_local (1 repaired: booked)", SUMMARY);
    dailyClose("wechat", "2026-12-01", "failed", 6, "2026-12-02 03:46:00",
        "reconcile exited 4: --fetch: <bill> not ready", null);

    JsonObject r = reportAt("2026-12-02T12:30");

    assertThat(r.getJsonObject("daily_close")).isEqualTo(new JsonObject().put("enabled", true).put("at", "10:30")
        .put("channels", new JsonArray()
            .add(new JsonObject().put("channel", "alipay").put("expected_day", "2026-12-01").put("overdue", false)
                .put("last", new JsonObject().put("bill_date", "2026-12-01").put("state", "done").put("attempts", 2)
                    .put("tried_at", "2026-12-02 10:45:01") // stored in UTC, shown in the session's +08:00
                    .put("detail", "38 payments 1204.00, 0 refunds 0.00 · found 1 missing_local (1 repaired: booked)")
                    .put("summary", new JsonObject(SUMMARY))))
            .add(new JsonObject().put("channel", "wechat").put("expected_day", "2026-12-01").put("overdue", true)
                .put("last", new JsonObject().put("bill_date", "2026-12-01").put("state", "failed").put("attempts", 6)
                    .put("tried_at", "2026-12-02 11:46:00").put("detail", "reconcile exited 4: --fetch: <bill> not ready")
                    .putNull("summary")))));
    assertThat(r.getJsonArray("attention").getList())
        .containsExactly("no bill fetched for 2026-12-01 (wechat): reconcile exited 4: --fetch: <bill> not ready");
    assertThat(StatusPage.html(r)).contains("<table id=\"daily-close\">",
            "<td>2026-12-01</td><td>done</td><td>2026-12-02 10:45:01",
            "<td>2026-12-01</td><td class=\"red\">failed</td>", "--fetch: &lt;bill&gt; not ready")
        .doesNotContain("<bill>");
  }

  @Test
  void aCloseThatDidNotComeOffIsNewsOnlyPastItsGiveUpTime() {
    dailyClose("alipay", "2026-11-30", "done", 1, "2026-12-01 02:30:00", "the day before", "{}");
    dailyClose("wechat", "2026-12-01", "pending", 3, "2026-12-02 03:15:00", "reconcile exited 4: not ready", null);

    // noon: the give-up time of a close at 10:30, whose last try may run a while
    JsonObject before = reportAt("2026-12-02T12:14");
    assertThat(before.getJsonArray("attention")).isEmpty();
    assertThat(objects(before.getJsonObject("daily_close").getJsonArray("channels")))
        .noneMatch(c -> c.getBoolean("overdue"));
    assertThat(StatusPage.html(before)).contains("<td>2026-11-30</td><td>done</td>")
        .contains("<td>2026-12-01</td><td>pending</td>").doesNotContain("not run");

    JsonObject after = reportAt("2026-12-02T12:16");
    assertThat(after.getJsonArray("attention").getList()).containsExactly(
        "no bill fetched for 2026-12-01 (alipay): the daily close did not run", // the day before's says nothing
        "no bill fetched for 2026-12-01 (wechat): reconcile exited 4: not ready");
    assertThat(StatusPage.html(after)).contains("<td>2026-12-01</td><td class=\"red\">not run</td>",
        "last close: 2026-11-30, done", "<td>2026-12-01</td><td class=\"red\">pending</td>");
  }

  /** With admin.token, /status and /status.json answer only to {@code Authorization: Bearer <token>}. */
  @Test
  void theTokenIsRequiredWhenSet() throws Exception {
    int port = ServiceProcess.freePort();
    try (TestService guarded = TestService.start(TestDatabase.get().settings(), new JsonObject()
        .put("admin", new JsonObject().put("port", port).put("token", "s3cret-admin-token")))) {
      for (String path : List.of("/status", "/status.json")) {
        assertThat(get(port, path, null).statusCode()).as(path).isEqualTo(401);
        assertThat(get(port, path, "Bearer wrong").statusCode()).as(path).isEqualTo(401);
        assertThat(get(port, path, "Bearer s3cret-admin-token").statusCode()).as(path).isEqualTo(200);
      }
      assertThat(get(port, "/status", "Bearer s3cret-admin-token").body()).contains("All clear");
    }
  }

  /**
   * 300 scripts polling /status.json (any local user can: no token by default) while genuine payments
   * arrive, with the shipped pool (8 connections, 256 waiting): every payment must be booked. The
   * status reads have a pool of their own, and one computation answers every request for a few seconds.
   */
  @Test
  void pollingTheStatusLeavesEveryNotificationBooked() throws Exception {
    ChannelFixture alipay = ChannelFixture.alipay();
    int pollers = 300;
    int n = 200;
    int port = ServiceProcess.freePort();
    try (TestService shipped = TestService.start(db.settings().withPool(8, 256), new JsonObject()
        .put("admin", new JsonObject().put("port", port)))) {
      for (int i = 0; i < n; i++) {
        db.insertOrder("F" + i, 1000);
      }
      AtomicBoolean polling = new AtomicBoolean(true);
      AtomicInteger statusOk = new AtomicInteger();
      AtomicInteger statusOther = new AtomicInteger();
      ExecutorService scripts = Executors.newFixedThreadPool(pollers);
      for (int p = 0; p < pollers; p++) {
        scripts.submit(() -> {
          while (polling.get()) {
            try {
              (Http.get(port, "/status.json").status() == 200 ? statusOk : statusOther).incrementAndGet();
            } catch (IOException | InterruptedException e) {
              statusOther.incrementAndGet();
            }
          }
        });
      }
      Thread.sleep(1_000); // the polling under way
      List<CompletableFuture<Http.Reply>> replies = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        replies.add(shipped.sendAsync(alipay.payment("F" + i, "T-F" + i, 1000, 0)));
      }
      List<Http.Reply> answered = replies.stream().map(CompletableFuture::join).toList();
      polling.set(false);
      scripts.shutdown();
      assertThat(scripts.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
      long booked = answered.stream().filter(alipay.success()).count();
      System.out.printf("%d of %d notifications answered success under %d pollers (/status.json: %d ok, %d not)%n",
          booked, n, pollers, statusOk.get(), statusOther.get());
      assertThat(answered).as("replies").allMatch(alipay.success());
      assertThat(db.count("SELECT COUNT(*) FROM payments")).isEqualTo(n);
      assertThat(statusOk.get()).isPositive();
    }
  }

  /**
   * Without a token only a loopback Host is served: a browser on a page of another name that resolves
   * to 127.0.0.1 (DNS rebinding, e.g. with the SSH tunnel of docs/operations.md open) sends that name as Host.
   */
  @Test
  void withoutATokenOnlyALoopbackHostIsServed() throws Exception {
    int port = service.server().adminPort();
    for (String host : List.of("127.0.0.1", "127.0.0.1:" + port, "localhost", "LocalHost:" + port, "[::1]",
        "[::1]:" + port)) {
      assertThat(statusWithHost(port, host)).as(host).isEqualTo(200);
    }
    for (String host : List.of("rebound.example", "rebound.example:" + port, "127.0.0.1.rebound.example",
        "localhost.rebound.example:" + port, "10.0.0.1", "127.0.0.2")) {
      assertThat(statusWithHost(port, host)).as(host).isIn(403, 421);
    }
  }

  /**
   * WeChat's switch from platform certificates to the public key, seen from the status: the wechat_v3 line counts the
   * notifications this instance verified with each kind of key and names the last one's (in memory: an instance's).
   */
  @Test
  void theWechatV3LineSaysWhichKindOfKeyTheNotificationsCameWith() throws Exception {
    KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
    rsa.initialize(2048);
    KeyPair certificateKeys = rsa.generateKeyPair();
    X509Certificate certificate = PlatformCertificates.selfSigned(certificateKeys, new BigInteger("5157F0A1B2C3D4E5", 16));
    JsonArray platformKeys = new JsonArray()
        .add(new JsonObject().put("id", WechatV3Notifications.PUBLIC_KEY_ID).put("key", WechatV3Notifications.PUBLIC_KEY_PEM))
        .add(new JsonObject().put("key", PlatformCertificates.pem(certificate)));
    int admin = ServiceProcess.freePort();
    try (TestService both = TestService.start(TestDatabase.get().settings(), new JsonObject()
        .put("admin", new JsonObject().put("port", admin))
        .put("wechat_v3", new JsonObject().put("platform_keys", platformKeys)))) {
      assertThat(wechatV3(admin).getJsonObject("keys_seen").getValue("last")).isNull();
      long now = System.currentTimeMillis() / 1000;
      db.insertOrder("KS1", 100);
      db.insertOrder("KS2", 100);
      assertThat(both.send(WechatV3Notifications.payment("KS1", "4200000000202612060000000021", 100)).status())
          .isEqualTo(204);
      assertThat(both.send(WechatV3Notifications.notification(WechatV3Notifications.transaction("KS2",
          "4200000000202612060000000022", 100), now, certificateKeys.getPrivate(), "5157F0A1B2C3D4E5")).status())
          .isEqualTo(204);

      JsonObject seen = wechatV3(admin).getJsonObject("keys_seen");
      assertThat(seen.getLong("public_key")).isEqualTo(1);
      assertThat(seen.getLong("platform_certificate")).isEqualTo(1);
      assertThat(seen.getJsonObject("last").getString("kind")).isEqualTo("platform_certificate");
      assertThat(seen.getJsonObject("last").getString("key")).isEqualTo("5157F0A1B2C3D4E5");
      assertThat(Http.get(admin, "/status").body()).contains("last signed with the platform certificate 5157F0A1B2C3D4E5;"
          + " since the start: 1 public key, 1 certificate");
      both.awaitLogRecorded();
    }
  }

  private static JsonObject wechatV3(int admin) throws Exception {
    Http.Reply reply = Http.get(admin, "/status.json");
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    JsonArray channels = new JsonObject(reply.body()).getJsonArray("channels");
    for (int i = 0; i < channels.size(); i++) {
      if (channels.getJsonObject(i).getString("channel").equals("wechat_v3")) {
        return channels.getJsonObject(i);
      }
    }
    throw new AssertionError("no wechat_v3 line in " + reply.body());
  }

  /** Business data (orders, amounts, addresses): no browser or proxy keeps a copy. */
  @Test
  void theStatusIsNeverCached() throws Exception {
    for (String path : List.of("/status", "/status.json")) {
      HttpResponse<String> r = get(service.server().adminPort(), path, null);
      assertThat(r.headers().firstValue("Cache-Control")).as("%s %d %s", path, r.statusCode(), r.headers().map())
          .hasValue("no-store");
    }
  }

  /** A connection that sends nothing is closed, as on the notify port: idle ones cannot pile up. */
  @Test
  void anIdleAdminConnectionIsClosed() throws Exception {
    try (Socket idle = new Socket(InetAddress.getLoopbackAddress(), service.server().adminPort())) {
      idle.setSoTimeout(30_000);
      long start = System.nanoTime();
      try {
        assertThat(idle.getInputStream().read()).isEqualTo(-1);
      } catch (SocketTimeoutException e) {
        throw new AssertionError("the admin listener kept an idle connection open for 30 s");
      }
      System.out.printf("idle admin connection closed after %d ms%n", (System.nanoTime() - start) / 1_000_000);
    }
  }

  /** GET /status.json with this Host header, over a plain socket (the JDK client sets Host itself). */
  private static int statusWithHost(int port, String host) throws IOException {
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
      s.setSoTimeout(30_000);
      OutputStream out = s.getOutputStream();
      out.write(("GET /status.json HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
          .getBytes(StandardCharsets.ISO_8859_1));
      InputStream in = s.getInputStream();
      String statusLine = new String(in.readNBytes(12), StandardCharsets.ISO_8859_1); // "HTTP/1.1 200"
      return Integer.parseInt(statusLine.substring(9, 12));
    }
  }

  static HttpResponse<String> get(int port, String path, String authorization) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static JsonObject last(JsonArray channels, String channel) {
    return objects(channels).stream().filter(c -> c.getString("channel").equals(channel)).findFirst().orElseThrow()
        .getJsonObject("last_notification");
  }

  static List<JsonObject> objects(JsonArray array) {
    return array.stream().map(JsonObject.class::cast).toList();
  }
}
