package paynotify.channel.wechat;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.Notification;
import paynotify.testsupport.TestService;
import paynotify.testsupport.WechatV3StandIn;

/**
 * The running service of a merchant on platform certificates, none pasted (wechat_v3.platform_keys empty, the merchant
 * key given): WeChat rotates its certificate and the service takes it up without a restart, a notification at a
 * time; two instances share what either downloaded through the database; forged serials make no flood of downloads;
 * the sweeper's query answered with the rotated certificate books after the refresh.
 */
class WechatV3CertificateServiceTest extends DatabaseTestBase {
  WechatV3StandIn wechat;

  @BeforeEach
  void start() {
    wechat = WechatV3StandIn.start();
    wechat.switching(true); // no public key named: WeChat signs its answers with the newest certificate
  }

  @AfterEach
  void stop() {
    wechat.close();
  }

  TestService service() {
    JsonObject config = wechat.configure(TestService.configuration(new JsonObject()
        .put("recovery", new JsonObject().put("enabled", true).put("interval_seconds", 3600))));
    config.getJsonObject("wechat_v3").put("platform_keys", new JsonArray());
    TestService service = TestService.start(db.settings(), config);
    service.server().certificateKeeper().settled().await();
    return service;
  }

  Notification paid(String orderNo, String tradeNo) {
    return wechat.paidSignedWithCertificate(orderNo, tradeNo, 8888, wechat.platformCertificateSerial());
  }

  void order(String orderNo) {
    db.update("INSERT INTO orders (order_no, amount_cents, created_at) VALUES (?, 8888,"
        + " CONVERT_TZ(NOW(3), @@session.time_zone, '+08:00') - INTERVAL 40 MINUTE)", orderNo);
  }

  @Test
  void aRotatedCertificateIsRefusedOnceThenWeChatsRetryBooksWithoutARestart() {
    try (TestService service = service()) {
      order("ROT1");
      order("ROT2");
      assertThat(service.send(paid("ROT1", "4200000000202612060000000101")).status()).isEqualTo(204);
      wechat.rotateCertificate();
      Notification signedWithTheNewOne = paid("ROT2", "4200000000202612060000000102");

      Reply first = service.send(signedWithTheNewOne);
      service.server().certificateKeeper().settled().await();
      Reply retry = service.send(signedWithTheNewOne);

      assertThat(first.status()).as("unknown serial: failure, so WeChat retries").isGreaterThanOrEqualTo(400);
      assertThat(retry.status()).isEqualTo(204);
      assertThat(db.orderStatus("ROT2")).isEqualTo("paid");
      assertThat(wechat.certificateDownloads()).isEqualTo(2);
      assertThat(db.count("SELECT COUNT(*) FROM platform_certificates WHERE platform = 'wechat'"
          + " AND source = 'downloaded'")).isEqualTo(2);
    }
  }

  @Test
  void aSecondInstanceUsesWhatTheFirstDownloadedAndDownloadsNothingItself() {
    try (TestService first = service(); TestService second = service()) {
      order("TWO1");
      order("TWO2");
      assertThat(wechat.certificateDownloads()).as("the second found the list fetched within the hour").isEqualTo(1);
      assertThat(second.send(paid("TWO1", "4200000000202612060000000201")).status()).isEqualTo(204);

      wechat.rotateCertificate();
      Notification signedWithTheNewOne = paid("TWO2", "4200000000202612060000000202");
      assertThat(first.send(signedWithTheNewOne).status()).isGreaterThanOrEqualTo(400);
      first.server().certificateKeeper().settled().await();
      assertThat(wechat.certificateDownloads()).isEqualTo(2);

      Reply atTheSecond = second.send(signedWithTheNewOne); // WeChat's retry lands on the other instance
      second.server().certificateKeeper().settled().await();
      Reply again = second.send(signedWithTheNewOne);

      assertThat(atTheSecond.status()).isGreaterThanOrEqualTo(400);
      assertThat(again.status()).isEqualTo(204);
      assertThat(wechat.certificateDownloads()).as("the second read the database: no download").isEqualTo(2);
      assertThat(db.orderStatus("TWO2")).isEqualTo("paid");
    }
  }

  @Test
  void aFloodOfForgedSerialsMakesOneDownloadNotOneEach() {
    try (TestService service = service()) {
      Random random = new Random(4302);
      for (int i = 0; i < 300; i++) {
        Notification forged = wechat.paidSignedWithCertificate("FORGED" + i, "42000000002026120600000003" + i, 100,
            WechatV3StandIn.forgedSerial(random));
        assertThat(service.send(forged).status()).isGreaterThanOrEqualTo(400);
      }
      service.server().certificateKeeper().settled().await();

      assertThat(wechat.certificateDownloads()).as("the start's, and one for the unknown serials").isLessThanOrEqualTo(2);
    }
  }

  @Test
  void theSweepersQueryAnsweredWithTheRotatedCertificateBooksAfterTheRefresh() {
    try (TestService service = service()) {
      order("SWP1");
      wechat.paid("SWP1", "4200000000202612060000000301", "8888");
      wechat.rotateCertificate();

      assertThat(service.server().recovery().sweepOnce().await().paid()).isZero(); // the answer's serial is unknown
      service.server().certificateKeeper().settled().await();
      db.update("UPDATE order_checks SET next_check_at = NOW(3) - INTERVAL 1 SECOND"); // its next turn, come
      assertThat(service.server().recovery().sweepOnce().await().paid()).isEqualTo(1);

      assertThat(db.orderStatus("SWP1")).isEqualTo("paid");
      assertThat(wechat.certificateDownloads()).isEqualTo(2);
    }
  }
}
