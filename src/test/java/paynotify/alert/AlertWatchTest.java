package paynotify.alert;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import paynotify.alert.AlertsTest.Recording;
import paynotify.alert.watch.AlertWatch;
import paynotify.channel.PlatformTime;
import paynotify.net.OutboundHttp;
import paynotify.server.Pools;
import paynotify.store.Database;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.ServiceProcess;
import paynotify.testsupport.SettableClock;

/**
 * What the watch finds in the database, told once: a new anomaly (in the owner's language, with what to do), not
 * one over a day old; a daily close; every notification of a channel refused for its signature, with the likely
 * cause; the site not taking events; the database not answering. One of two instances looks.
 */
class AlertWatchTest extends DatabaseTestBase {
  Vertx vertx;
  Database pool;
  Recording target;
  Alerts alerts;
  AlertWatch watch;
  final Instant now = Instant.parse("2026-12-04T02:00:00Z");
  /** Now in the zone the service's sessions write and read (Beijing), whatever this test's session says. */
  static final String BEIJING_NOW = "CONVERT_TZ(NOW(3), @@session.time_zone, '+08:00')";

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    pool = Pools.connect(vertx, db.settings());
    target = new Recording(0);
    alerts = alerts("zh");
    watch = watch(pool, alerts, Duration.ofMinutes(30), false);
  }

  AlertWatch watch(Database on, Alerts to, Duration forwardPending, boolean payments) {
    return new AlertWatch(vertx, on, to, new AlertWatch.Watched(forwardPending, Duration.ofMinutes(5), null, payments),
        null, Clock.systemUTC());
  }

  Alerts alerts(String language) {
    return new Alerts(vertx, List.of(target), new Alerts.Settings(Duration.ofMinutes(10), null, null),
        new AlertTexts(language), Clock.systemUTC(), List.of());
  }

  @AfterEach
  void stop() {
    alerts.close();
    pool.close();
    vertx.close().await();
  }

  void look() throws InterruptedException {
    watch.lookOnce(now).await();
    AlertsTest.gathered(alerts);
    AlertsTest.handled(alerts, target); // the raised alerts reached the target, on the alerts' context
  }

  void anomaly(String kind, String orderNo, String createdAt) {
    db.update("INSERT INTO anomalies (kind, channel, order_no, trade_no, amount_cents, detail, dedupe_key, created_at)"
        + " VALUES (?, 'alipay', ?, 'T1', 2990, 'alipay trade T1 paid 29.90 for unknown order " + orderNo + "', ?, "
        + createdAt + ")", kind, orderNo, kind + ":" + orderNo);
  }

  @Test
  void aNewAnomalyIsToldOnceInChineseWithWhatToDoAndHistoryIsNot() throws Exception {
    look(); // the first look of this instance: the notifications so far are history
    anomaly("unknown_order", "PN1", BEIJING_NOW);
    anomaly("second_payment", "PN0", BEIJING_NOW + " - INTERVAL 2 DAY"); // there before alerts were on

    look();
    look();

    assertThat(target.sent).singleElement().satisfies(a -> {
      assertThat(a.kind()).isEqualTo("unknown_order");
      assertThat(a.title()).isEqualTo("支付异常：未知订单的付款 订单 PN1 ¥29.90");
      assertThat(a.text()).contains("交易号：T1").contains("处理：找到买家要买的订单并发货，或退款");
    });
    assertThat(db.count("SELECT COUNT(*) FROM anomalies WHERE alerted = FALSE")).isZero();
  }

  @Test
  void twentyAnomaliesInASecondAreOneMessageThatSaysHowMany() throws Exception {
    look();
    for (int i = 0; i < 20; i++) {
      anomaly("unknown_order", "PN-F" + i, BEIJING_NOW);
    }
    look();
    assertThat(target.sent).singleElement().satisfies(a -> {
      assertThat(a.title()).endsWith("PN-F19 ¥29.90 (+19)");
      assertThat(a.text()).contains("另有 19 条未知订单的付款");
    });
    alerts.flush(Instant.now().plus(Duration.ofMinutes(11)));
    AlertsTest.handled(alerts, target);
    assertThat(target.sent).as("nothing more was raised").hasSize(1);
  }

  @Test
  void ofTwoInstancesOneLooks() throws Exception {
    Recording other = new Recording(0);
    Alerts otherAlerts = new Alerts(vertx, List.of(other), new Alerts.Settings(Duration.ofMinutes(10), null, null),
        new AlertTexts("en"), Clock.systemUTC(), List.of());
    AlertWatch second = watch(pool, otherAlerts, null, false);
    look();
    anomaly("dispute", "PN2", BEIJING_NOW);
    second.lookOnce(now).await();
    look();
    AlertsTest.gathered(otherAlerts);
    AlertsTest.handled(otherAlerts, other);
    assertThat(other.sent).isEmpty();
    assertThat(target.sent).extracting(Alert::kind).containsExactly("dispute");
    otherAlerts.close();
  }

  @Test
  void everyAlipayNotificationRefusedForItsSignatureSaysTheApplicationsKeyWasPastedForAlipays() throws Exception {
    look();
    for (int i = 0; i < SignatureBurst.THRESHOLD; i++) {
      db.update("INSERT INTO notify_log (channel, received_at, remote_addr, outcome, detail, body_bytes) VALUES"
          + " ('alipay', " + BEIJING_NOW + " - INTERVAL 6 SECOND, '110.75.1.1', 'rejected', 'BAD_SIGNATURE: signature does not"
          + " verify with the configured Alipay public key (alipay.public_key_file)', 900)"); // settled: 5 s
    }
    look();
    look();
    assertThat(target.sent).singleElement().satisfies(a -> {
      assertThat(a.kind()).isEqualTo("signature_burst");
      assertThat(a.title()).isEqualTo("签名验证连续失败：alipay");
      assertThat(a.text()).contains("5 条通知在 10 分钟内验签失败").contains("「应用公钥」填在了支付宝公钥的位置");
    });
  }

  void refused(String channel, String receivedAt, int rows) {
    for (int i = 0; i < rows; i++) {
      db.update("INSERT INTO notify_log (channel, received_at, remote_addr, outcome, detail, body_bytes) VALUES"
          + " (?, " + receivedAt + ", '203.0.113.7', 'rejected', 'BAD_SIGNATURE: sign does not verify', 100)", channel);
    }
  }

  @Test
  void aBurstRightAfterTheStartIsCountedFromTheStartNotBefore() throws Exception {
    SettableClock running = new SettableClock(Instant.now(), PlatformTime.BEIJING);
    watch = new AlertWatch(vertx, pool, alerts, new AlertWatch.Watched(null, Duration.ofMinutes(5), null, false),
        null, running);
    running.set(Instant.now().plusSeconds(60)); // the service started a minute ago
    refused("epay", BEIJING_NOW + " - INTERVAL 2 MINUTE", 5); // before it: the process before told them
    refused("epay", BEIJING_NOW + " - INTERVAL 6 SECOND", 7); // since: its first look counts them

    look();

    assertThat(target.sent).singleElement().satisfies(a -> {
      assertThat(a.title()).isEqualTo("签名验证连续失败：epay");
      assertThat(a.text()).startsWith("7 条通知在 10 分钟内验签失败").contains("203.0.113.7");
    });
  }

  @Test
  void twentyRefusedAtOnceAreToldAsTwenty() throws Exception {
    look();
    refused("epay", BEIJING_NOW + " - INTERVAL 6 SECOND", 20);
    look();
    assertThat(target.sent).singleElement().satisfies(a -> assertThat(a.text())
        .startsWith("20 条通知在 10 分钟内验签失败"));
  }

  @Test
  void aBurstToldIsToldAgainAfterItsWindowWhileRefusalsGoOn() throws Exception {
    look();
    refused("epay", BEIJING_NOW + " - INTERVAL 6 SECOND", SignatureBurst.THRESHOLD);
    look();
    refused("epay", BEIJING_NOW + " - INTERVAL 6 SECOND", SignatureBurst.THRESHOLD - 1);
    watch.lookOnce(now.plus(Duration.ofMinutes(5))).await(); // within the window: told already
    refused("epay", BEIJING_NOW + " - INTERVAL 6 SECOND", 1);
    watch.lookOnce(now.plus(SignatureBurst.WINDOW).plusSeconds(10)).await(); // its window over, refusals go on
    alerts.flush(Instant.now().plus(Duration.ofMinutes(11))); // past the throttle's interval
    AlertsTest.handled(alerts, target);

    assertThat(target.sent).hasSize(2).allSatisfy(a -> assertThat(a.kind()).isEqualTo("signature_burst"));
    assertThat(target.sent.get(1).text()).startsWith("5 条通知在 10 分钟内验签失败");
  }

  @Test
  void aNotificationThatVerifiesMeansTheKeysAreRight() throws Exception {
    look();
    for (int i = 0; i < SignatureBurst.THRESHOLD + 2; i++) {
      db.update("INSERT INTO notify_log (channel, received_at, outcome, detail, body_bytes) VALUES ('epay',"
          + " " + BEIJING_NOW + " - INTERVAL 6 SECOND, ?, ?, 100)",
          i == 3 ? "processed" : "rejected", "BAD_SIGNATURE: sign does not verify");
    }
    look();
    assertThat(target.sent).isEmpty(); // 3 refused, one verified, 3 refused: no burst
  }

  @Test
  void aDailyCloseIsToldOnceWithItsSummaryOrWhyNot() throws Exception {
    db.update("INSERT INTO daily_closes (channel, bill_date, state, next_try_at, created_at, detail) VALUES"
        + " ('alipay', '2026-12-03', 'done', NOW(), NOW(), '38 payments 1204.00, 0 refunds 0.00 · nothing found'),"
        + " ('wechat', '2026-12-03', 'failed', NOW(), NOW(), 'reconcile exited 4: not made yet'),"
        + " ('alipay', '2026-12-04', 'pending', NOW(), NOW(), 'reconcile exited 4: not made yet')");
    look();
    look();
    assertThat(target.sent).extracting(Alert::title).containsExactlyInAnyOrder("对账 alipay 2026-12-03",
        "没有拿到账单：wechat 2026-12-03");
  }

  @Test
  void withPaymentsOnEveryPaymentSettledSinceTheFirstLookIsTold() throws Exception {
    db.update("INSERT INTO payments (channel, trade_no, order_no, amount_cents, paid_at, created_at) VALUES"
        + " ('alipay', 'T0', 'PN0', 100, NOW(), " + BEIJING_NOW + " - INTERVAL 5 MINUTE)"); // before: not news
    watch = watch(pool, alerts, null, true);
    look();
    db.update("INSERT INTO payments (channel, trade_no, order_no, amount_cents, paid_at, created_at) VALUES"
        + " ('wechat', 'T1', 'PN1', 12900, NOW(), " + BEIJING_NOW + " - INTERVAL 61 SECOND),"
        + " ('alipay', 'T2', 'PN2', 2990, NOW(), " + BEIJING_NOW + ")"); // a minute from settled
    look();
    assertThat(target.sent).extracting(Alert::title).containsExactly("收款 ¥129.00 订单 PN1");
    alerts.flush(Instant.now().plus(Duration.ofMinutes(11)));
    AlertsTest.handled(alerts, target);
    assertThat(target.sent).as("nothing was folded: PN2 is not read yet").hasSize(1);
  }

  @Test
  void theNotifyAddressProbedHourlyIsToldWhenItFailsAndNotAgainUntilItWorks() throws Exception {
    OutboundHttp http = new OutboundHttp(vertx, Duration.ofSeconds(2), 4096);
    URI nowhere = URI.create("http://127.0.0.1:" + ServiceProcess.freePort() + SelfProbe.PATH);
    watch = new AlertWatch(vertx, pool, alerts, new AlertWatch.Watched(null, Duration.ofMinutes(5), nowhere, false),
        new SelfProbe(http), Clock.systemUTC());
    watch.lookOnce(now).await();
    AlertsTest.eventually(() -> { // the probe runs beside the look
      AlertsTest.gathered(alerts);
      AlertsTest.handled(alerts, target);
      assertThat(target.sent).hasSize(1);
    });
    watch.lookOnce(now.plusSeconds(600)).await(); // within the hour: not probed again
    watch.lookOnce(now.plusSeconds(3600)).await(); // probed again, failing still: not told again
    Thread.sleep(500); // (what would be a second message would have come by now)
    assertThat(target.sent).singleElement().satisfies(a -> {
      assertThat(a.title()).isEqualTo("通知地址探测失败");
      assertThat(a.text()).startsWith(nowhere + " not reached: ").contains("检查 DNS、证书、CDN/WAF 和 nginx 的 location");
    });
    http.close().await();
  }

  @Test
  void theSiteNotTakingEventsIsToldWhenItStarts() throws Exception {
    db.update("INSERT INTO forward_events (event_id, endpoint, type, body, created_at) VALUES ('evt_1', 'site', 'payment.succeeded',"
        + " '{}', " + BEIJING_NOW + " - INTERVAL 31 MINUTE)"); // created_at as the column default writes it
    look();
    look();
    assertThat(target.sent).singleElement().satisfies(a -> assertThat(a.title()).isEqualTo("网站 31 分钟没有接收事件"));
  }

  @Test
  void aDatabaseThatDoesNotAnswerForMinutesIsToldByTheInstanceThatSeesIt() throws Exception {
    Database nowhere = Pools.connect(vertx, db.settings().at("127.0.0.1", ServiceProcess.freePort())
        .withConnectTimeout(Duration.ofMillis(200)));
    AlertWatch blind = watch(nowhere, alerts, null, false);
    blind.lookOnce(now).await();
    blind.lookOnce(now.plusSeconds(240)).await();
    AlertsTest.gathered(alerts);
    AlertsTest.handled(alerts, target);
    assertThat(target.sent).isEmpty();
    blind.lookOnce(now.plusSeconds(300)).await();
    blind.lookOnce(now.plusSeconds(310)).await();
    AlertsTest.gathered(alerts);
    AlertsTest.handled(alerts, target);
    assertThat(target.sent).singleElement().satisfies(a -> assertThat(a.title()).isEqualTo("数据库 5 分钟无法连接"));
    nowhere.close();
  }
}
