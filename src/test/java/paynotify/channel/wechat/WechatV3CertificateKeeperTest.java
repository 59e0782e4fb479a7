package paynotify.channel.wechat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import paynotify.channel.RejectedNotification;
import paynotify.config.AppConfig;
import paynotify.crypto.CertificateShelf;
import paynotify.crypto.MerchantKeyTest;
import paynotify.net.OutboundHttp;
import paynotify.testsupport.Notification;
import paynotify.testsupport.SettableClock;
import paynotify.testsupport.SyncCheck;
import paynotify.testsupport.TestService;
import paynotify.testsupport.WechatV3Notifications;
import paynotify.testsupport.WechatV3StandIn;

/**
 * The keeper against the stand-in playing WeChat (a merchant on platform certificates: answers signed with the newest
 * certificate), on a shelf in memory and a clock the test moves: the first download trusted by the list itself, a
 * rotation picked up on the unknown serial and on the hourly refresh (at each tick), a certificate WeChat withdrew no
 * longer verifying, forged serials held to one download a minute, the 404 of a public-key merchant said once and not
 * asked again for a day, a proxy's 404 an ordinary failure.
 */
class WechatV3CertificateKeeperTest {
  Vertx vertx;
  OutboundHttp http;
  WechatV3StandIn wechat;
  SettableClock clock;
  MemoryShelf shelf;
  WechatV3Channel channel;
  WechatV3CertificateKeeper keeper;
  final ListAppender<ILoggingEvent> lines = new ListAppender<>();
  final Logger keeperLog = (Logger) LoggerFactory.getLogger(WechatV3CertificateKeeper.class);

  /** The table in memory: one row per serial, fetched_at moved on each keep. */
  final class MemoryShelf implements CertificateShelf {
    final Map<String, CertificateShelf.Shelved> rows = new ConcurrentHashMap<>();

    @Override
    public Future<List<CertificateShelf.Shelved>> kept() {
      return Future.succeededFuture(List.copyOf(rows.values()));
    }

    @Override
    public Future<Void> keep(String serial, List<X509Certificate> chain) {
      rows.put(serial, new CertificateShelf.Shelved(serial, chain, clock.instant()));
      return Future.succeededFuture();
    }
  }

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    http = new OutboundHttp(vertx, Duration.ofSeconds(5), 64 * 1024);
    wechat = WechatV3StandIn.start();
    wechat.switching(true); // no public key named: WeChat signs with its platform certificate
    clock = new SettableClock(Instant.now(), ZoneOffset.UTC);
    shelf = new MemoryShelf();
    lines.start();
    keeperLog.addAppender(lines);
    keeperLog.setLevel(Level.INFO);
  }

  @AfterEach
  void stop() {
    if (keeper != null) {
      keeper.stop().await();
    }
    keeperLog.detachAppender(lines);
    keeperLog.setLevel(null);
    wechat.close();
    vertx.close().await();
  }

  /** A merchant that pasted no platform key at all: the service downloads them (wechat_v3.platform_keys empty). */
  WechatV3CertificateKeeper keeper(Duration period) {
    JsonObject config = wechat.configure(TestService.configuration(new JsonObject()));
    config.getJsonObject("wechat_v3").put("platform_keys", new JsonArray());
    channel = AppConfig.from(config, "test", Map.of()).channels().enabled().stream()
        .filter(WechatV3Channel.class::isInstance).map(WechatV3Channel.class::cast).findFirst().orElseThrow();
    assertThat(channel.certificateDownloads()).as("downloads are on by default with the merchant key").isNotNull();
    WechatV3Client client = new WechatV3Client(http, wechat.url(), WechatV3Notifications.MCH_ID,
        wechat.merchantSerial(), MerchantKeyTest.read(wechat.merchantKeyFile()), channel.signature());
    keeper = new WechatV3CertificateKeeper(vertx, http, new WechatV3Certificates(client, clock),
        channel.signature(), shelf, clock, period);
    keeper.start();
    keeper.settled().await();
    return keeper;
  }

  /** Waits (10 s at most) for a tick of the timer to take up the newest certificate. */
  void awaitTheNewestCertificateKnown() throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!channel.signature().knows(wechat.platformCertificateSerial()) && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(channel.signature().knows(wechat.platformCertificateSerial())).isTrue();
  }

  Notification signedWithTheNewestCertificate(String orderNo) {
    return wechat.paidSignedWithCertificate(orderNo, "4200000000202612060000" + Math.abs(orderNo.hashCode()), 100,
        wechat.platformCertificateSerial());
  }

  RejectedNotification.Reason refusal(Notification n) {
    try {
      SyncCheck.event(channel, WechatV3VectorsTest.request(n));
      return null;
    } catch (RejectedNotification e) {
      return e.reason();
    }
  }

  @Test
  void theFirstDownloadIsTrustedByTheListItselfAndVerifiesTheNotifications() {
    keeper(Duration.ofHours(1));

    assertThat(wechat.certificateDownloads()).isEqualTo(1);
    assertThat(wechat.refusedRequests()).isZero();
    assertThat(shelf.rows).containsOnlyKeys(wechat.platformCertificateSerial());
    assertThat(refusal(signedWithTheNewestCertificate("KC1"))).isNull();
  }

  @Test
  void aRotatedCertificateIsTakenUpOnItsFirstNotificationAndTheRetryVerifies() {
    keeper(Duration.ofHours(1));
    wechat.rotateCertificate();
    Notification first = signedWithTheNewestCertificate("KC2");

    assertThat(refusal(first)).isEqualTo(RejectedNotification.Reason.UNKNOWN_SERIAL); // answered failure: WeChat retries
    keeper.settled().await();

    assertThat(refusal(first)).as("WeChat's retry").isNull();
    assertThat(wechat.certificateDownloads()).isEqualTo(2);
    assertThat(shelf.rows).hasSize(2);
    assertThat(channel.keysSeen().getJsonArray("downloaded_certificates")).as("what the status lists").hasSize(2);
  }

  /** A notification signed with the platform certificate WeChat signs with now, its key kept for later. */
  Notification signedWithTheCurrentCertificate(String orderNo) {
    PrivateKey key = wechat.platformCertificateKey();
    return WechatV3Notifications.notification(WechatV3Notifications.transaction(orderNo,
        "4200000000202612060000" + Math.abs(orderNo.hashCode()), 100), Instant.now().getEpochSecond(), key,
        wechat.platformCertificateSerial());
  }

  @Test
  void aCertificateWeChatNoLongerListsStopsVerifyingThoughStillValidAndKept() {
    keeper(Duration.ofHours(1));
    String earlier = wechat.platformCertificateSerial();
    Notification signedWithTheEarlier = signedWithTheCurrentCertificate("KW1");
    assertThat(refusal(signedWithTheEarlier)).isNull();
    wechat.rotateCertificate();
    wechat.withdrawOlderCertificates();
    clock.set(clock.instant().plus(Duration.ofMinutes(2)));

    Notification signedWithTheNewer = signedWithTheNewestCertificate("KW2");
    assertThat(refusal(signedWithTheNewer)).isEqualTo(RejectedNotification.Reason.UNKNOWN_SERIAL);
    keeper.settled().await(); // a download, which lists the newer one only

    assertThat(wechat.certificateDownloads()).isEqualTo(2);
    assertThat(refusal(signedWithTheNewer)).isNull();
    assertThat(shelf.rows).as("still in the table, still valid").containsKey(earlier);
    assertThat(refusal(signedWithTheEarlier)).isEqualTo(RejectedNotification.Reason.UNKNOWN_SERIAL);
    assertThat(channel.keysSeen().getJsonArray("downloaded_certificates")).hasSize(1);
  }

  @Test
  void aCertificateAnotherInstancesDownloadNoLongerListedStopsVerifyingHereToo() {
    keeper(Duration.ofHours(1));
    Notification signedWithTheEarlier = signedWithTheCurrentCertificate("KW3");
    wechat.rotateCertificate();
    wechat.withdrawOlderCertificates();
    clock.set(clock.instant().plus(Duration.ofMinutes(40)));
    shelf.keep(wechat.platformCertificateSerial(), List.of(wechat.platformCertificate())); // its download: the newer only
    clock.set(clock.instant().plusSeconds(11));

    Notification signedWithTheNewer = signedWithTheNewestCertificate("KW4");
    assertThat(refusal(signedWithTheNewer)).isEqualTo(RejectedNotification.Reason.UNKNOWN_SERIAL);
    keeper.settled().await(); // the shelf read, which has it: no download

    assertThat(wechat.certificateDownloads()).isEqualTo(1);
    assertThat(refusal(signedWithTheNewer)).isNull();
    assertThat(refusal(signedWithTheEarlier)).isEqualTo(RejectedNotification.Reason.UNKNOWN_SERIAL);
  }

  @Test
  void forgedSerialsMakeAtMostOneDownloadAMinuteWhateverTheSerials() {
    keeper(Duration.ofHours(1));
    Random random = new Random(43);
    for (int minute = 0; minute < 3; minute++) {
      for (int i = 0; i < 200; i++) {
        Notification forged = wechat.paidSignedWithCertificate("F" + i, "42000000002026120600000000" + i, 100,
            WechatV3StandIn.forgedSerial(random));
        assertThat(refusal(forged)).isEqualTo(RejectedNotification.Reason.UNKNOWN_SERIAL);
        keeper.settled().await();
        clock.set(clock.instant().plusMillis(100));
      }
      clock.set(clock.instant().plusSeconds(61));
    }

    assertThat(wechat.certificateDownloads()).as("the start's, then one a minute").isEqualTo(1 + 3);
    assertThat(refusal(signedWithTheNewestCertificate("KC3"))).isNull();
  }

  @Test
  void theHourlyRefreshTakesUpARotationBeforeAnyNotificationNamesIt() throws InterruptedException {
    keeper(Duration.ofMillis(200));
    Thread.sleep(600); // three ticks: the list was fetched within the period, the clock says
    assertThat(wechat.certificateDownloads()).isEqualTo(1);
    wechat.rotateCertificate();

    clock.set(clock.instant().plus(Duration.ofMinutes(61)));

    awaitTheNewestCertificateKnown();
    assertThat(wechat.certificateDownloads()).isEqualTo(2);
  }

  /** The timer starts before the first download ends: each tick comes a little less than a period after it. */
  @Test
  void theRefreshRunsAtTheTickAfterTheFirstThoughLessThanAPeriodAfterTheDownload() throws InterruptedException {
    keeper(Duration.ofMillis(300));
    wechat.rotateCertificate();

    clock.set(clock.instant().plus(Duration.ofMillis(200))); // the ticks from now on: 2/3 of a period after it

    awaitTheNewestCertificateKnown();
    Thread.sleep(600); // two more ticks: the list was fetched a moment ago, the clock says
    assertThat(wechat.certificateDownloads()).isEqualTo(2);
  }

  @Test
  void aBare404FromAProxyIsAFailureToFixNotADaysPause() {
    wechat.proxyNotFound(true);
    keeper(Duration.ofHours(1));
    assertThat(lines.list).filteredOn(e -> e.getLevel() == Level.WARN).singleElement()
        .extracting(ILoggingEvent::getFormattedMessage).asString()
        .contains("HTTP 404", "wechat_v3.gateway_url").doesNotContain("PUB_KEY_ID_", "<html>");
    wechat.proxyNotFound(false);
    clock.set(clock.instant().plusSeconds(61));

    Notification n = signedWithTheNewestCertificate("PX1");
    assertThat(refusal(n)).isEqualTo(RejectedNotification.Reason.UNKNOWN_SERIAL);
    keeper.settled().await();

    assertThat(wechat.certificateDownloads()).as("asked again a minute later").isEqualTo(2);
    assertThat(refusal(n)).isNull();
  }

  @Test
  void weChatsNotFoundIsSaidOnceAndNotAskedAgainForADay() {
    wechat.noCertificates(true);
    keeper(Duration.ofHours(1));
    for (int i = 0; i < 50; i++) {
      assertThat(refusal(signedWithTheNewestCertificate("NF" + i))).isEqualTo(RejectedNotification.Reason.UNKNOWN_SERIAL);
      keeper.settled().await();
      clock.set(clock.instant().plus(Duration.ofMinutes(10)));
    }

    assertThat(wechat.certificateDownloads()).as("the start's only, over 8 hours of notifications").isEqualTo(1);
    assertThat(lines.list).filteredOn(e -> e.getLevel() == Level.WARN).singleElement()
        .extracting(ILoggingEvent::getFormattedMessage).asString()
        .contains("404", "PUB_KEY_ID_", "wechat_v3.platform_keys", "商户平台 → 账户中心 → API安全 → 微信支付公钥")
        .doesNotContain(WechatV3Notifications.APIV3_KEY);

    clock.set(clock.instant().plus(Duration.ofDays(1)));
    assertThat(refusal(signedWithTheNewestCertificate("NF-LATER"))).isEqualTo(RejectedNotification.Reason.UNKNOWN_SERIAL);
    keeper.settled().await();
    assertThat(wechat.certificateDownloads()).as("asked again a day later").isEqualTo(2);
  }

  @Test
  void aListSignedWithAKeyNeitherKnownNorListedIsRefusedAndKeptNowhere() {
    wechat.switching(false);
    wechat.answerSerial("5157F09EFDC096DE15EBE81A47057A7232F1B8E1"); // signed with the public key, named otherwise
    keeper(Duration.ofHours(1));

    assertThat(wechat.certificateDownloads()).isEqualTo(1);
    assertThat(shelf.rows).isEmpty();
    assertThat(lines.list).filteredOn(e -> e.getLevel() == Level.WARN).singleElement()
        .extracting(ILoggingEvent::getFormattedMessage).asString().contains("answer refused", "5157F09E")
        .doesNotContain(WechatV3Notifications.APIV3_KEY);
    assertThatThrownBy(() -> SyncCheck.event(channel, WechatV3VectorsTest.request(signedWithTheNewestCertificate("KC4"))))
        .isInstanceOf(RejectedNotification.class);
  }
}
