package paynotify.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.util.Base64;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.AlipayCertificateFiles;
import paynotify.testsupport.AlipayNotifications;
import paynotify.testsupport.AlipayStandIn;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.Http;
import paynotify.testsupport.PlatformCertificates;
import paynotify.testsupport.TestService;

/**
 * A certificate-mode (公钥证书模式) Alipay merchant: the sweeper's query carries app_cert_sn and alipay_root_cert_sn
 * (else Alipay refuses it, isv.missing-app-cert-sn) and its answer verifies with the certificate it names. When
 * Alipay re-issues its certificate, the new one is downloaded once, checked against the root, kept for every
 * instance and used; one that does not chain to the root, or is not issued to Alipay, is refused and nothing is
 * booked. A certificate read back from platform_certificates is checked again as a download is: a row put there by
 * someone who can write to the database verifies nothing.
 */
class AlipayCertModeRecoveryTest extends DatabaseTestBase {
  static final String AMOUNT = "88.88";
  AlipayStandIn alipay;
  AlipayCertificateFiles certs;
  TestService service;

  @BeforeEach
  void start() {
    alipay = AlipayStandIn.start();
    certs = alipay.certificateMode();
    JsonObject config = alipay.configure(TestService.configuration(new JsonObject()));
    config.put("recovery", new JsonObject().put("enabled", true).put("interval_seconds", 3600)
        .put("min_age_seconds", 60));
    service = TestService.start(db.settings(), config);
  }

  @AfterEach
  void stop() {
    service.close();
    alipay.close();
  }

  void order(String orderNo) {
    db.update("INSERT INTO orders (order_no, amount_cents, channel, created_at) VALUES (?, 8888, 'alipay',"
        + " CONVERT_TZ(NOW(3), @@session.time_zone, '+08:00') - INTERVAL 300 SECOND)", orderNo);
  }

  Sweeper.Sweep sweep() {
    return service.server().recovery().sweepOnce().await();
  }

  @Test
  void aCertificateModeMerchantsPaidOrderIsFound() {
    order("CM1");
    alipay.paid("CM1", "2026120622001400001", AMOUNT);

    assertThat(sweep().paid()).isEqualTo(1);

    assertThat(db.orderStatus("CM1")).isEqualTo("paid");
    assertThat(db.payments("2026120622001400001")).isEqualTo(1);
    assertThat(alipay.refusedRequests()).isZero();
    assertThat(alipay.certDownloads()).isZero();
    // the notification, signed with the key of alipayCertPublicKey_RSA2.crt: a duplicate
    Http.Reply late = service.postAlipay(AlipayNotifications.signedBody(
        AlipayNotifications.payment("CM1", "2026120622001400001", AMOUNT)));
    assertThat(late.body()).isEqualTo("success");
  }

  @Test
  void aReissuedCertificateIsFetchedKeptAndTheQuerySucceeds() {
    String reissued = AlipayCertificateFiles.sn(certs.reissue());
    order("CM2");
    alipay.paid("CM2", "2026120622001400002", AMOUNT);

    assertThat(sweep().paid()).isEqualTo(1);

    assertThat(db.orderStatus("CM2")).isEqualTo("paid");
    assertThat(alipay.certDownloads()).isEqualTo(1);
    assertThat(db.string("SELECT CONCAT(platform, ' ', serial, ' ', source) FROM platform_certificates"))
        .isEqualTo("alipay " + reissued + " reissued");

    // used from then on: not downloaded again
    order("CM3");
    alipay.paid("CM3", "2026120622001400003", AMOUNT);
    assertThat(sweep().paid()).isEqualTo(1);
    assertThat(alipay.certDownloads()).isEqualTo(1);
  }

  @Test
  void aReissuedCertificateThatDoesNotChainToTheRootIsRefusedAndNothingIsBooked() {
    certs.reissueUntrusted();
    order("CM4");
    alipay.paid("CM4", "2026120622001400004", AMOUNT);

    Sweeper.Sweep s = sweep();

    assertThat(s.paid()).isZero();
    assertThat(db.orderStatus("CM4")).isNotEqualTo("paid");
    assertThat(db.payments("2026120622001400004")).isZero();
    assertThat(db.count("SELECT COUNT(*) FROM platform_certificates")).isZero();
    assertThat(alipay.certDownloads()).isEqualTo(1);

    // asked again at once: the refused SN is not downloaded again (at most once every 5 minutes)
    service.server().recovery().check("CM4").await();
    assertThat(alipay.certDownloads()).isEqualTo(1);
    assertThat(db.payments("2026120622001400004")).isZero();
  }

  @Test
  void aReissuedCertificateOfAnotherSubjectIsRefusedThoughItChainsToTheRoot() {
    certs.reissueToAnotherApplication(); // another merchant's appCertPublicKey_*.crt: the same CA issued it
    order("CM5");
    alipay.paid("CM5", "2026120622001400005", AMOUNT);

    assertThat(sweep().paid()).isZero();

    assertThat(db.payments("2026120622001400005")).isZero();
    assertThat(db.count("SELECT COUNT(*) FROM platform_certificates")).isZero();
    assertThat(alipay.certDownloads()).isEqualTo(1);
  }

  @Test
  void aForgedRowInPlatformCertificatesIsNotAdopted() {
    db.insertOrder("CM6", 8888);
    AlipayCertificateFiles.Forged forged = AlipayCertificateFiles.forged();
    row(forged.certificate());

    Http.Reply reply = postSignedWith(forged.key(), "CM6", "2026120622001400006");

    assertThat(reply.status()).isEqualTo(401);
    assertThat(db.payments("2026120622001400006")).isZero();
    service.awaitLogRecorded();
    assertThat(db.string("SELECT CONCAT(outcome, ' ', detail) FROM notify_log")).startsWith("rejected BAD_SIGNATURE");
  }

  @Test
  void aRowOfAReissuedCertificateKeptByAnotherInstanceIsAdopted() {
    db.insertOrder("CM7", 8888);
    row(certs.reissue());

    Http.Reply reply = postSignedWith(certs.alipayKey(), "CM7", "2026120622001400007");

    assertThat(reply.body()).isEqualTo("success");
    assertThat(db.payments("2026120622001400007")).isEqualTo(1);
  }

  /** As another instance keeps it, or as someone who can write to the database puts it there. */
  void row(X509Certificate cert) {
    db.update("INSERT INTO platform_certificates (platform, serial, certificate, not_before, not_after, source,"
        + " fetched_at) VALUES ('alipay', ?, ?, UTC_TIMESTAMP(), UTC_TIMESTAMP() + INTERVAL 1 YEAR, 'reissued',"
        + " UTC_TIMESTAMP(3))", AlipayCertificateFiles.sn(cert), PlatformCertificates.pem(cert));
  }

  Http.Reply postSignedWith(KeyPair key, String orderNo, String tradeNo) {
    return service.postAlipay(AlipayNotifications.signedBody(AlipayNotifications.payment(orderNo, tradeNo, AMOUNT),
        Base64.getEncoder().encodeToString(key.getPrivate().getEncoded()), StandardCharsets.UTF_8));
  }
}
