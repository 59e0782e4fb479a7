package paynotify.http;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClientOptions;
import io.vertx.mysqlclient.MySQLConnectOptions;
import io.vertx.sqlclient.PoolOptions;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import paynotify.config.AppConfig.DatabaseSettings;
import paynotify.store.Database;
import paynotify.store.NotifyLog.Trace;
import paynotify.store.RejectedLog;
import paynotify.testsupport.AlipayNotifications;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.Http;
import paynotify.testsupport.Notification;
import paynotify.testsupport.PaypalNotifications;
import paynotify.testsupport.ServiceProcess;
import paynotify.testsupport.ServiceTestBase;
import paynotify.testsupport.TestService;

/**
 * Anyone can send forged notifications, as fast as they like. They must not take the booking
 * pool from genuine ones, nor keep buyer data, nor flood the log: a rejected request leaves its
 * size, SHA-256 and a short prefix, written in batches off the booking path, and at most one log
 * line per second per endpoint.
 */
class RejectedFloodTest extends ServiceTestBase {
  private static final int FORGED = 2000;
  private static final int GENUINE = 40;

  private final ListAppender<ILoggingEvent> lines = new ListAppender<>();
  private final Logger serviceLog = (Logger) LoggerFactory.getLogger("paynotify");
  private Level levelBefore;

  @BeforeEach
  void captureWarnings() {
    levelBefore = serviceLog.getLevel();
    serviceLog.setLevel(Level.WARN); // logback-test.xml shows errors only
    lines.start();
    serviceLog.addAppender(lines);
  }

  @AfterEach
  void releaseWarnings() {
    serviceLog.detachAppender(lines);
    serviceLog.setLevel(levelBefore);
  }

  @Test
  void forgedFloodDoesNotCrowdOutGenuineNotifications() throws Exception {
    IntStream.range(0, GENUINE).forEach(i -> db.insertOrder("FL" + i, 100));
    DatabaseSettings s = db.settings(); // the production pool: 8 connections, 256 waiting at most
    DatabaseSettings production = new DatabaseSettings(s.host(), s.port(), s.name(), s.user(), s.password(), 8, 256,
        s.connectTimeout(), s.lockWaitSeconds(), s.embeddedDir());
    List<CompletableFuture<Reply>> forged = new ArrayList<>();
    List<CompletableFuture<Reply>> genuine = new ArrayList<>();
    long start = System.nanoTime();
    try (TestService flooded = TestService.start(production, new JsonObject())) {
      for (int i = 0; i < FORGED; i++) {
        forged.add(flooded.postAlipayAsync(forgedBody(i)));
        if (i % (FORGED / GENUINE) == 0) {
          genuine.add(flooded.postAlipayAsync(AlipayNotifications.signedBody(
              AlipayNotifications.payment("FL" + genuine.size(), "T-FL" + genuine.size(), "1.00"))));
        }
      }
      assertThat(genuine).extracting(CompletableFuture::join).containsOnly(new Reply(200, "success"));
      assertThat(forged).extracting(f -> f.join().status()).containsOnly(401);
      // One more, a second after the first line: its line says how many were left out (a flood that
      // was over within the second would otherwise leave that to the 10 s report).
      Thread.sleep(Math.max(0, 1100 - Duration.ofNanos(System.nanoTime() - start).toMillis()));
      forged.add(flooded.postAlipayAsync(forgedBody(FORGED)));
      assertThat(forged.get(FORGED).join().status()).isEqualTo(401);
      long floodSeconds = Duration.ofNanos(System.nanoTime() - start).toSeconds();

      assertThat(db.count("SELECT COUNT(*) FROM payments")).isEqualTo(GENUINE);
      assertThat(db.count("SELECT COUNT(*) FROM notify_log WHERE outcome = 'processed' AND raw_body IS NOT NULL"))
          .isEqualTo(GENUINE);
      List<String> warnings = lines.list.stream().filter(e -> e.getLevel() == Level.WARN)
          .map(ILoggingEvent::getFormattedMessage).filter(m -> m.contains("BAD_SIGNATURE")).toList();
      assertThat(warnings).hasSizeBetween(1, (int) floodSeconds + 2);
      assertThat(String.join("\n", warnings)).contains("more suppressed");
    }
    // Written in batches, after the replies: every rejected request is there once the service stopped.
    assertThat(db.count("SELECT COUNT(*) FROM notify_log WHERE outcome = 'rejected'")).isEqualTo(forged.size());
    assertThat(db.count("SELECT COUNT(*) FROM notify_log WHERE outcome = 'rejected' AND raw_body IS NOT NULL")).isZero();
    byte[] sample = forgedBody(7).getBytes(StandardCharsets.UTF_8);
    assertThat(db.string("SELECT CONCAT_WS(' ', body_bytes, body_sha256, body_prefix) FROM notify_log"
        + " WHERE outcome = 'rejected' AND body_sha256 = ?", sha256(sample)))
        .isEqualTo(sample.length + " " + sha256(sample) + " " + new String(sample, 0, 64, StandardCharsets.US_ASCII));
  }

  /**
   * The review's reproduction (S2): each forged POST wrote a row, so a flood filled the site's
   * database disk. Now at most retention.rejected_rows_per_second (10) rows per endpoint and second
   * are written; the rest are counted, on /metrics and the status report.
   */
  @Test
  void forgedFloodWritesASampleAndCountsTheRest() throws Exception {
    int sent = 20_000;
    JsonObject config = new JsonObject()
        .put("retention", new JsonObject().put("rejected_rows_per_second", 10))
        .put("admin", new JsonObject().put("port", ServiceProcess.freePort()));
    long elapsed;
    try (TestService flooded = TestService.start(db.settings(), config)) {
      long start = System.nanoTime();
      for (int window = 0; window < sent; window += 200) {
        List<CompletableFuture<Reply>> replies = IntStream.range(0, 200)
            .mapToObj(i -> flooded.postAlipayAsync("a=1")).toList();
        assertThat(replies).extracting(f -> f.join().status()).allSatisfy(status -> assertThat(status).isBetween(400, 499));
      }
      elapsed = Duration.ofNanos(System.nanoTime() - start).toSeconds() + 1;
      flooded.awaitLogRecorded();
      long rows = db.count("SELECT COUNT(*) FROM notify_log WHERE outcome = 'rejected'");
      assertThat(rows).isPositive().isLessThanOrEqualTo(10 * elapsed);
      int admin = flooded.server().adminPort();
      assertThat(Http.get(admin, "/metrics").body().lines()
          .filter(l -> l.startsWith("paynotify_rejected_unrecorded_total{channel=\"alipay\""))
          .map(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))).containsExactly(sent - rows);
      assertThat(new JsonObject(Http.get(admin, "/status.json").body()).getLong("refused_unrecorded"))
          .isEqualTo(sent - rows);
      assertThat(Http.get(admin, "/status").body()).contains(sent - rows + " more refused since the start");
    }
  }

  /**
   * S7: an unconfigured channel's 404 (reachable through nginx's /notify/) and a signature that cannot
   * be checked now (PayPal unreachable) each logged a WARN per request, past RejectedLog's limiter;
   * journald's rate limit then dropped real lines. Now at most one per second per endpoint.
   */
  @Test
  void floodsOfUnconfiguredAndUnverifiableRequestsLogBoundedLines() throws Exception {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    JsonObject config = new JsonObject()
        .put("wechat_v2", new JsonObject().put("appid", "").put("mch_id", "").put("api_key", ""))
        .put("paypal", new JsonObject().put("ipn_verify_url", "http://127.0.0.1:" + closedPort + "/cgi-bin/webscr"));
    long start = System.nanoTime();
    try (TestService flooded = TestService.start(db.settings(), config)) {
      List<CompletableFuture<Reply>> off = new ArrayList<>();
      List<CompletableFuture<Reply>> unverifiable = new ArrayList<>();
      for (int i = 0; i < 300; i++) {
        off.add(flooded.sendAsync(Notification.post("/notify/wechat/v2", "text/xml", "<xml></xml>")));
        unverifiable.add(flooded.sendAsync(PaypalNotifications.genuine(
            PaypalNotifications.payment("PV" + i, "9TXPV" + i, 100))));
      }
      assertThat(off).extracting(f -> f.join().status()).containsOnly(404);
      assertThat(unverifiable).extracting(f -> f.join().status()).containsOnly(503);
    }
    long seconds = Duration.ofNanos(System.nanoTime() - start).toSeconds();
    List<String> warnings = lines.list.stream().filter(e -> e.getLevel() == Level.WARN)
        .map(ILoggingEvent::getFormattedMessage).toList();
    assertThat(warnings.stream().filter(m -> m.contains("is not configured")))
        .hasSizeBetween(1, (int) seconds + 2);
    assertThat(warnings.stream().filter(m -> m.contains("not verified")))
        .hasSizeBetween(1, (int) seconds + 2);
  }

  /** Looks like a payment, with a buyer's details, but the sign is made up. */
  private static String forgedBody(int i) {
    return "buyer_logon_id=138%2A%2A%2A%2A" + String.format("%04d", i) + "&out_trade_no=FL" + i
        + "&total_amount=1.00&trade_status=TRADE_SUCCESS&memo=" + "x".repeat(4000) + "&sign=Zm9yZ2Vk";
  }

  private static String sha256(byte[] bytes) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
  }

  /**
   * Nothing waits for the record of a refused request: when the queue is full (here 10, with a
   * database that is not there) records are dropped, and the count is logged every period.
   */
  @Test
  void fullQueueDropsRecordsAndCountsThem() throws Exception {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    Vertx vertx = Vertx.vertx();
    try {
      Database nowhere = Database.connect(vertx, new MySQLConnectOptions().setHost("127.0.0.1").setPort(closedPort),
          new PoolOptions().setMaxSize(1), new NetClientOptions().setConnectTimeout(500), Database.sessionSetup(5, Database.BEIJING));
      RejectedLog log = new RejectedLog(vertx, nowhere, 10, 100, Duration.ofMillis(300));
      for (int i = 0; i < 25; i++) {
        log.record(new Trace("alipay", "192.0.2.1", Buffer.buffer("junk " + i)), "rejected", "BAD_SIGNATURE: x", null);
      }
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (droppedReported() < 25 && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      assertThat(droppedReported()).isEqualTo(25); // 15 over the queue's size, 10 whose write failed
      log.close().await();
    } finally {
      vertx.close().await();
    }
  }

  private int droppedReported() {
    Pattern report = Pattern.compile("notify_log: (\\d+) rejected request\\(s\\) not recorded.*");
    return lines.list.stream().map(ILoggingEvent::getFormattedMessage).map(report::matcher).filter(Matcher::matches)
        .mapToInt(m -> Integer.parseInt(m.group(1))).sum();
  }
}
