package paynotify.alert;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import paynotify.alert.AlertsTest.Recording;
import paynotify.alert.watch.AlertWatch;
import paynotify.channel.Platform;
import paynotify.config.AppConfig;
import paynotify.server.Pools;
import paynotify.store.Database;
import paynotify.store.PlatformCertificates.Source;
import paynotify.testsupport.AlipayCertificateFiles;
import paynotify.testsupport.AlipayNotifications;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.PlatformCertificates;
import paynotify.testsupport.PrivateFile;
import paynotify.testsupport.TestService;
import paynotify.testsupport.WechatV3Notifications;

/**
 * The keys that break by themselves, each told once per episode with what to do, read from a configuration as the
 * service reads it: a certificate expiring within 30 days (and again once expired), the newest WeChat Pay platform
 * certificate the service downloaded expiring, Alipay's re-issued certificate while the configured file is the old
 * one, WeChat Pay signing notifications with its public key while none is configured (through the running service's
 * own refusals). A sound configuration is told nothing.
 */
class KeyWatchTest extends DatabaseTestBase {
  private static final Path DIR = Path.of("target", "keywatch-test").toAbsolutePath();
  private static KeyPair rsa;
  private static AlipayCertificateFiles.Files3 alipayFiles;

  Vertx vertx;
  Database pool;
  Recording target;
  Alerts alerts;
  final Instant now = Instant.now();

  @BeforeAll
  static void keys() throws Exception {
    Files.createDirectories(DIR);
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048);
    rsa = generator.generateKeyPair();
    alipayFiles = AlipayCertificateFiles.of(rsa).write(DIR);
  }

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    pool = Pools.connect(vertx, db.settings());
    target = new Recording(0);
    alerts = new Alerts(vertx, List.of(target), new Alerts.Settings(Duration.ofMinutes(10), null, null),
        new AlertTexts("zh"), Clock.systemUTC(), List.of());
  }

  @AfterEach
  void stop() {
    alerts.close();
    pool.close();
    vertx.close().await();
  }

  @Test
  void aCertificateExpiringWithin30DaysIsToldOnceWithWhatToDoAndAgainOnceExpired() throws Exception {
    AlertWatch watch = watch(wechatV3(Map.of("merchant_certificate_file", file("merchant.pem", 0x4F1, 10))),
        alipay(file("alipay_cert.pem", 0xA1, 400)));

    look(watch, now);
    look(watch, now.plusSeconds(10));
    look(watch, now.plus(Duration.ofHours(2))); // checked again: the same episode
    assertThat(target.sent).singleElement().satisfies(a -> {
      assertThat(a.kind()).isEqualTo("certificate_expiring");
      assertThat(a.title()).matches("证书 (9|10) 天后过期：wechat_v3.merchant_certificate_file");
      assertThat(a.text()).startsWith("证书（序列号 4F1）将于 ").contains("商户平台 → 账户中心 → API安全 → 申请API证书",
          "把 merchant_serial_no 改成新证书的序列号");
    });

    look(watch, now.plus(Duration.ofDays(11))); // it has expired: worse, told again
    alerts.flush(Instant.now().plus(Duration.ofMinutes(11))); // past the throttle's interval
    AlertsTest.handled(alerts, target);
    look(watch, now.plus(Duration.ofDays(12)));
    alerts.flush(Instant.now().plus(Duration.ofMinutes(22)));
    AlertsTest.handled(alerts, target);
    assertThat(target.sent).hasSize(2);
    assertThat(target.sent.get(1).title()).isEqualTo("证书已过期：wechat_v3.merchant_certificate_file");
    assertThat(target.sent.get(1).text()).startsWith("证书（序列号 4F1）已于 ");
  }

  @Test
  void aSoundConfigurationIsToldNothing() throws Exception {
    JsonObject v3 = wechatV3(Map.of("merchant_certificate_file", file("merchant.pem", 0x4F1, 365)));
    // a certificate only, no public key: the public-key watch looks too, and must find nothing in these refusals
    v3.put("platform_keys", new JsonArray().add(new JsonObject().put("key_file", file("platform.pem", 0x5157, 200))));
    AlertWatch watch = watch(v3, alipay(file("alipay_cert.pem", 0xA1, 400)));
    keep(Platform.WECHAT, "5158", 0x5158, 300, Source.DOWNLOADED);
    keep(Platform.WECHAT, "5156", 0x5156, 5, Source.DOWNLOADED); // an older one about to go: a newer is held
    for (int i = 0; i < 3; i++) { // notifications refused for other reasons than a public key
      db.update("INSERT INTO notify_log (channel, outcome, detail, body_bytes) VALUES ('wechat_v3', 'rejected',"
          + " 'UNKNOWN_SERIAL: Wechatpay-Serial ''5157F0'' is none of wechat_v3.platform_keys', 100)");
    }

    look(watch, now);
    look(watch, now.plus(Duration.ofHours(2)));

    assertThat(target.sent).isEmpty();
  }

  @Test
  void theNewestDownloadedPlatformCertificateExpiringIsToldAndAConfiguredOneWhileNoneNewerIsHeld() throws Exception {
    JsonObject v3 = wechatV3(Map.of());
    v3.getJsonArray("platform_keys").add(new JsonObject().put("key_file", file("platform.pem", 0x5157, 25)));
    keep(Platform.WECHAT, "5158", 0x5158, 20, Source.DOWNLOADED);
    keep(Platform.WECHAT, "5156", 0x5156, 3, Source.DOWNLOADED);

    look(watch(v3, null), now);
    alerts.flush(Instant.now().plus(Duration.ofMinutes(11)));
    AlertsTest.handled(alerts, target);

    assertThat(target.sent).singleElement().satisfies(a -> { // one message: the kind would fold a second
      assertThat(a.title()).isEqualTo("2 张证书即将过期或已过期");
      assertThat(a.text()).startsWith("wechat_v3.platform_keys[1].key_file：证书（序列号 5157）将于 ")
          .contains("把当前的平台证书加进 wechat_v3.platform_keys，或改用不会过期的微信支付公钥")
          .contains("\n\nplatform_certificates (wechat)：证书（序列号 5158）将于 ")
          .contains("微信支付没有签发新的", "商户平台 → 账户中心 → API安全 → 微信支付公钥")
          .doesNotContain("5156"); // an older one: the newest is what counts
    });
  }

  @Test
  void aReissuedAlipayCertificateIsToldOnceUntilTheFileIsReplaced() throws Exception {
    X509Certificate reissued = certificate(0xA2, 700);
    keep(Platform.ALIPAY, "0c1d2e3f4a5b6c7d8e9fa0b1c2d3e4f5", reissued, Source.REISSUED);
    AlertWatch old = watch(null, alipay(file("alipay_cert.pem", 0xA1, 300)));

    look(old, now);
    look(old, now.plus(Duration.ofHours(2)));

    assertThat(target.sent).singleElement().satisfies(a -> {
      assertThat(a.kind()).isEqualTo("alipay_cert_reissued");
      assertThat(a.title()).isEqualTo("支付宝公钥证书已更换");
      assertThat(a.text()).contains("alipay_cert_sn 0c1d2e3f4a5b6c7d8e9fa0b1c2d3e4f5",
          "支付宝开放平台 → 开发设置 → 接口加签方式 下载新的 alipayCertPublicKey_RSA2.crt，替换 alipay.alipay_cert_file");
    });

    Path replaced = Files.writeString(DIR.resolve("alipay_cert_new.pem"), PlatformCertificates.pem(reissued));
    look(watch(null, alipay(replaced.toString())), now.plus(Duration.ofHours(3)));
    alerts.flush(Instant.now().plus(Duration.ofMinutes(11)));
    AlertsTest.handled(alerts, target);
    assertThat(target.sent).as("the file holds the re-issued one now").hasSize(1);
  }

  /**
   * The service refuses a notification WeChat Pay signed with its public key, as it does while platform_keys lists
   * only a certificate; the watch reads that refusal and tells it once. With the public key listed, no watch of it.
   */
  @Test
  void wechatSigningWithItsPublicKeyWhileNoneIsConfiguredIsToldOnce() throws Exception {
    JsonObject v3 = wechatV3(Map.of());
    v3.put("platform_keys", new JsonArray().add(new JsonObject().put("key_file", file("platform.pem", 0x5157, 300))));
    try (TestService service = TestService.start(db.settings(), new JsonObject().put("wechat_v3", v3))) {
      assertThat(service.send(WechatV3Notifications.payment("PN-PK1", "4200001", 100)).status()).isEqualTo(401);
      service.send(WechatV3Notifications.payment("PN-PK2", "4200002", 100));
      service.awaitLogRecorded();
    }
    AlertWatch watch = watch(v3, null);

    look(watch, now);
    db.update("INSERT INTO notify_log (channel, outcome, detail, body_bytes) VALUES ('wechat_v3', 'rejected',"
        + " 'UNKNOWN_SERIAL: Wechatpay-Serial ''PUB_KEY_ID_0119000123452026112900118800000000'' is none of"
        + " wechat_v3.platform_keys', 100)");
    look(watch, now.plusSeconds(10));
    alerts.flush(Instant.now().plus(Duration.ofMinutes(11)));
    AlertsTest.handled(alerts, target);

    assertThat(target.sent).singleElement().satisfies(a -> {
      assertThat(a.kind()).isEqualTo("wechat_public_key");
      assertThat(a.title()).isEqualTo("微信支付已改用微信支付公钥签名");
      assertThat(a.text()).startsWith("2 条微信支付 v3 通知用微信支付公钥（PUB_KEY_ID_…）签名而被拒绝")
          .contains("在商户平台 → 账户中心 → API安全 → 微信支付公钥 查看公钥ID", "wechat_v3.platform_keys（id + key_file）",
              "被拒绝的请求里带的 ID 未经验证，不要照它配置", "也可能是伪造的通知")
          .doesNotContain(WechatV3Notifications.PUBLIC_KEY_ID, "notify_log"); // a refused request's: not repeated
    });

    target.sent.clear();
    AlertWatch listed = watch(TestService.configuration(new JsonObject()).getJsonObject("wechat_v3"), null);
    look(listed, now.plus(Duration.ofHours(1)));
    alerts.flush(Instant.now().plus(Duration.ofMinutes(22)));
    AlertsTest.handled(alerts, target);
    assertThat(target.sent).as("the public key is listed: nothing to tell").isEmpty();
  }

  /**
   * A merchant that lists no key and lets the service download the platform certificates (the merchant key given):
   * moved to the public key, it is refused the same, and told the same. A serial that merely fits LIKE's {@code _}
   * is not counted.
   */
  @Test
  void aDownloadOnlyMerchantRefusedForThePublicKeyIsToldToo() throws Exception {
    JsonObject v3 = wechatV3(Map.of("merchant_private_key_file", merchantKeyFile(), "merchant_serial_no", "4F1"));
    v3.put("platform_keys", new JsonArray());
    AlertWatch watch = watch(v3, null);
    for (String serial : new String[] {"PUB_KEY_ID_0119000123452026112900118800000000", "PUBXKEYXIDX01190001234520"}) {
      db.update("INSERT INTO notify_log (channel, outcome, detail, body_bytes) VALUES ('wechat_v3', 'rejected', ?,"
          + " 100)", "UNKNOWN_SERIAL: Wechatpay-Serial '" + serial + "' is none of wechat_v3.platform_keys");
    }

    look(watch, now);

    assertThat(target.sent).singleElement().satisfies(a -> {
      assertThat(a.kind()).isEqualTo("wechat_public_key");
      assertThat(a.text()).as("an id that only looks like one (LIKE's _) is not counted")
          .startsWith("1 条微信支付 v3 通知用微信支付公钥（PUB_KEY_ID_…）签名而被拒绝");
    });
  }

  /** A watch of the keys {@code wechatV3} and {@code alipay} (sections, or null) name, read as the service reads them. */
  private AlertWatch watch(JsonObject wechatV3, JsonObject alipay) {
    JsonObject yaml = new JsonObject();
    if (wechatV3 != null) {
      yaml.put("wechat_v3", wechatV3);
    }
    if (alipay != null) {
      yaml.put("alipay", alipay);
    }
    AppConfig config = AppConfig.from(yaml, "test", Map.of());
    AlertWatch.Watched w = config.alerts().watched();
    return new AlertWatch(vertx, pool, alerts, new AlertWatch.Watched(null, Duration.ofMinutes(5), null, false,
        w.keys()), null, Clock.systemUTC());
  }

  private void look(AlertWatch watch, Instant at) {
    watch.lookOnce(at).await();
    AlertsTest.gathered(alerts);
    AlertsTest.handled(alerts, target);
  }

  private static JsonObject wechatV3(Map<String, String> extra) {
    JsonObject v3 = TestService.configuration(new JsonObject()).getJsonObject("wechat_v3").copy();
    extra.forEach(v3::put);
    return v3;
  }

  /**
   * A certificate-mode Alipay section (公钥证书模式) with {@code alipayCertFile} as Alipay's certificate, the
   * application's certificate and the root of {@link AlipayCertificateFiles}: the channel takes it as a merchant's.
   */
  private static JsonObject alipay(String alipayCertFile) {
    return new JsonObject().put("app_id", AlipayNotifications.APP_ID)
        .put("app_cert_file", alipayFiles.appCert().toString()).put("alipay_cert_file", alipayCertFile)
        .put("alipay_root_cert_file", alipayFiles.rootCert().toString());
  }

  private void keep(Platform platform, String serial, long certSerial, int days, Source source) {
    keep(platform, serial, certificate(certSerial, days), source);
  }

  private void keep(Platform platform, String serial, X509Certificate cert, Source source) {
    new paynotify.store.PlatformCertificates(pool).keep(platform, serial, java.util.List.of(cert), source).await();
  }

  /** The merchant key (apiclient_key.pem, PKCS#8) that lets the service download the platform certificates. */
  private static String merchantKeyFile() {
    return PrivateFile.write(DIR.resolve("apiclient_key.pem"), "-----BEGIN PRIVATE KEY-----\n"
        + Base64.getMimeEncoder().encodeToString(rsa.getPrivate().getEncoded()) + "\n-----END PRIVATE KEY-----\n")
        .toString();
  }

  private static String file(String name, long serial, int days) throws Exception {
    return Files.writeString(DIR.resolve(name), PlatformCertificates.pem(certificate(serial, days))).toString();
  }

  /** Valid since a year, for {@code days} more days (and a few minutes: a day is not lost to the test's own time). */
  private static X509Certificate certificate(long serial, int days) {
    Instant now = Instant.now();
    return PlatformCertificates.selfSigned(rsa, BigInteger.valueOf(serial), now.minus(Duration.ofDays(365)),
        now.plus(Duration.ofDays(days)).plusSeconds(600));
  }
}
