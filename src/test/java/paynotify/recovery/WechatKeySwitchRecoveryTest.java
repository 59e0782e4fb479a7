package paynotify.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.PlatformCertificates;
import paynotify.testsupport.TestService;
import paynotify.testsupport.WechatV3Notifications;
import paynotify.testsupport.WechatV3StandIn;

/**
 * WeChat Pay v3 merchants during and after WeChat's switch from platform certificates to the WeChat Pay public key
 * (微信支付公钥): WeChat signs an answer with the public key only when the request's {@code Wechatpay-Serial} names
 * it, else with the platform certificate. Whatever the merchant lists in wechat_v3.platform_keys, the sweeper's
 * question must come back signed with a key it has.
 */
class WechatKeySwitchRecoveryTest extends DatabaseTestBase {
  WechatV3StandIn wechat;

  @BeforeEach
  void start() {
    wechat = WechatV3StandIn.start();
    wechat.switching(true);
  }

  @AfterEach
  void stop() {
    wechat.close();
  }

  void order(String orderNo) {
    db.update("INSERT INTO orders (order_no, amount_cents, created_at) VALUES (?, 8888,"
        + " CONVERT_TZ(NOW(3), @@session.time_zone, '+08:00') - INTERVAL 40 MINUTE)", orderNo);
  }

  /** A service asking the stand-in, with these platform keys (null: TestService's, the public key alone). */
  TestService service(JsonArray platformKeys) {
    JsonObject overrides = new JsonObject().put("recovery", new JsonObject().put("enabled", true)
        .put("interval_seconds", 3600));
    if (platformKeys != null) {
      overrides.put("wechat_v3", new JsonObject().put("platform_keys", platformKeys));
    }
    return TestService.start(db.settings(), wechat.configure(TestService.configuration(overrides)));
  }

  JsonObject publicKey() {
    return new JsonObject().put("id", WechatV3Notifications.PUBLIC_KEY_ID).put("key", WechatV3Notifications.PUBLIC_KEY_PEM);
  }

  JsonObject certificate() {
    return new JsonObject().put("key", PlatformCertificates.pem(wechat.platformCertificate()));
  }

  /** A merchant opened since late 2024 has no platform certificate at all: only the public key to verify with. */
  @Test
  void aPublicKeyOnlyMerchantsPaidOrderIsFound() {
    try (TestService service = service(null)) {
      order("PK1");
      wechat.paid("PK1", "4200001234202612060000000001", "8888");

      assertThat(service.server().recovery().sweepOnce().await().paid()).isEqualTo(1);

      assertThat(db.orderStatus("PK1")).isEqualTo("paid");
      assertThat(db.count("SELECT COUNT(*) FROM payments WHERE order_no = 'PK1'")).isEqualTo(1);
      assertThat(wechat.requestSerials()).isNotEmpty().containsOnly(WechatV3Notifications.PUBLIC_KEY_ID);
    }
  }

  /** Both listed while WeChat moves the notifications over: the request names the public key, as wechatpay-java does. */
  @Test
  void aMerchantListingBothKindsNamesThePublicKeyAndFindsThePaidOrder() {
    try (TestService service = service(new JsonArray().add(certificate()).add(publicKey()))) {
      order("PK2");
      wechat.paid("PK2", "4200001234202612060000000002", "8888");

      assertThat(service.server().recovery().sweepOnce().await().paid()).isEqualTo(1);

      assertThat(db.orderStatus("PK2")).isEqualTo("paid");
      assertThat(wechat.requestSerials()).isNotEmpty().containsOnly(WechatV3Notifications.PUBLIC_KEY_ID);
    }
  }

  /** Before the switch (certificates alone): no Wechatpay-Serial is sent, WeChat signs with the certificate, as before. */
  @Test
  void aCertificateOnlyMerchantNamesNoKeyAndVerifiesTheCertificatesAnswer() {
    try (TestService service = service(new JsonArray().add(certificate()))) {
      order("PK3");
      wechat.paid("PK3", "4200001234202612060000000003", "8888");

      assertThat(service.server().recovery().sweepOnce().await().paid()).isEqualTo(1);

      assertThat(db.orderStatus("PK3")).isEqualTo("paid");
      assertThat(wechat.requestSerials()).isNotEmpty().containsOnly("");
    }
  }
}
