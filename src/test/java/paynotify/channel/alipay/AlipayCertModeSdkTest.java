package paynotify.channel.alipay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.alipay.api.AlipayApiException;
import com.alipay.api.CertAlipayRequest;
import com.alipay.api.DefaultAlipayClient;
import com.alipay.api.internal.util.AntCertificationUtil;
import com.alipay.api.response.AlipayTradeQueryResponse;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import paynotify.channel.NotifyEvent;
import paynotify.channel.NotifyRequest;
import paynotify.channel.RejectedNotification;
import paynotify.crypto.CertificateShelf;
import paynotify.crypto.PublicKeys;
import paynotify.testsupport.AlipayCertificateFiles;
import paynotify.testsupport.AlipayNotifications;
import paynotify.testsupport.AlipayStandIn;
import paynotify.testsupport.PlatformCertificates;
import paynotify.testsupport.SettableClock;
import paynotify.testsupport.SyncCheck;

/**
 * Certificate mode (公钥证书模式) as the official alipay-sdk-java does it: its {@code DefaultAlipayClient} built from a
 * {@code CertAlipayRequest} and pointed at {@link AlipayStandIn} in certificate mode has its SNs accepted there and
 * verifies what it answers, a re-issued certificate included (the SDK downloads it from the stand-in); our SNs and
 * chain check are the SDK's; a notification signed in this mode passes the SDK's {@code rsaCertCheckV1} and our channel.
 */
class AlipayCertModeSdkTest {
  @TempDir
  Path dir;
  AlipayStandIn alipay;
  AlipayCertificateFiles certs;
  AlipayCertificateFiles.Files3 files;

  @BeforeEach
  void start() {
    alipay = AlipayStandIn.start();
    certs = alipay.certificateMode();
    files = certs.write(dir);
  }

  @AfterEach
  void stop() {
    alipay.close();
  }

  DefaultAlipayClient sdk() throws Exception {
    CertAlipayRequest request = new CertAlipayRequest();
    request.setServerUrl(alipay.url().toString());
    request.setAppId(AlipayNotifications.APP_ID);
    request.setPrivateKey(Files.readString(alipay.appKeyFile()).replaceAll("-----(BEGIN|END) PRIVATE KEY-----", "")
        .replaceAll("\\s", ""));
    request.setFormat("json");
    request.setCharset("utf-8");
    request.setSignType("RSA2");
    request.setCertPath(files.appCert().toString());
    request.setAlipayPublicCertPath(files.alipayCert().toString());
    request.setRootCertPath(files.rootCert().toString());
    return new DefaultAlipayClient(request);
  }

  AlipayChannel channel() {
    return channel(Clock.systemUTC());
  }

  AlipayChannel channel(Clock clock) {
    return new AlipayChannel(new AlipaySignature(new AlipayCertificates(certs.appCert(), certs.alipayCert(),
        PublicKeys.parseCertificates(certs.rootPem()), AlipaySignature.Algorithm.RSA2, clock),
        AlipayNotifications.APP_ID, AlipayNotifications.SELLER_ID));
  }

  @Test
  void ourSnsAreTheSdks() throws Exception {
    assertThat(AlipayCertRules.sn(certs.appCert())).isEqualTo(AntCertificationUtil.getCertSN(certs.appCert()))
        .hasSize(32);
    assertThat(AlipayCertRules.sn(certs.alipayCert())).isEqualTo(AntCertificationUtil.getCertSN(certs.alipayCert()));
    // the root file's ECDSA root counts for nothing: one SN, not two
    assertThat(AlipayCertRules.rootSn(PublicKeys.parseCertificates(certs.rootPem())))
        .isEqualTo(AntCertificationUtil.getRootCertSN(certs.rootPem())).hasSize(32);
  }

  @Test
  void ourChainCheckIsTheSdksIsTrusted() {
    List<java.security.cert.X509Certificate> roots = PublicKeys.parseCertificates(certs.rootPem());
    String issued = PlatformCertificates.pem(certs.reissue());
    assertThat(AntCertificationUtil.isTrusted(issued, certs.rootPem())).isTrue();
    assertThat(AlipayCertRules.chains(PublicKeys.parseCertificates(issued), roots, Clock.systemUTC().instant())).isTrue();

    String forged = PlatformCertificates.pem(certs.reissueUntrusted());
    assertThat(AntCertificationUtil.isTrusted(forged, certs.rootPem())).isFalse();
    assertThat(AlipayCertRules.chains(PublicKeys.parseCertificates(forged), roots, Clock.systemUTC().instant())).isFalse();
  }

  @Test
  void theSdksCertificateClientQueriesTheStandInAndVerifiesItsAnswer() throws Exception {
    alipay.paid("C1", "2026120422001400101", "88.88");
    AlipayTradeQueryResponse paid = sdk().certificateExecute(AlipayGatewaySdkTest.query("C1"));
    assertThat(paid.isSuccess()).as(paid.getBody()).isTrue();
    assertThat(paid.getTradeStatus()).isEqualTo("TRADE_SUCCESS");
    assertThat(alipay.refusedRequests()).isZero();
    assertThat(alipay.certDownloads()).isZero();
  }

  @Test
  void theSdkFetchesAReissuedCertificateFromTheStandInAndVerifiesWithIt() throws Exception {
    DefaultAlipayClient sdk = sdk();
    certs.reissue();
    alipay.paid("C2", "2026120422001400102", "88.88");
    AlipayTradeQueryResponse paid = sdk.certificateExecute(AlipayGatewaySdkTest.query("C2"));
    assertThat(paid.isSuccess()).as(paid.getBody()).isTrue();
    assertThat(alipay.certDownloads()).isEqualTo(1);
  }

  @Test
  void theSdkRefusesAReissuedCertificateThatDoesNotChainToTheRoot() throws Exception {
    DefaultAlipayClient sdk = sdk();
    certs.reissueUntrusted();
    alipay.paid("C3", "2026120422001400103", "88.88");
    assertThatThrownBy(() -> sdk.certificateExecute(AlipayGatewaySdkTest.query("C3")))
        .isInstanceOf(AlipayApiException.class).hasMessageContaining("支付宝公钥证书校验失败"); // the chain, not another failure
    assertThat(alipay.certDownloads()).isEqualTo(1);
  }

  @Test
  void aNotificationSignedInCertificateModePassesTheSdksRsaCertCheckV1AndOurChannel() throws Exception {
    Map<String, String> params = AlipayNotifications.payment("C4", "2026120422001400104", "88.88");
    String body = AlipayNotifications.signedBody(params); // the vectors' key: the one in alipayCertPublicKey_RSA2.crt
    assertThat(com.alipay.api.internal.util.AlipaySignature.rsaCertCheckV1(decoded(body),
        files.alipayCert().toString(), "utf-8", "RSA2")).isTrue();
    NotifyEvent event = SyncCheck.event(channel(), request(body));
    assertThat(event.orderNo()).isEqualTo("C4");
    assertThat(event.amountCents()).isEqualTo(8888);
  }

  @Test
  void aNotificationSignedWithAReissuedCertificatesKeyPassesOnceThatCertificateIsKnown() throws Exception {
    AlipayChannel channel = channel();
    certs.reissue();
    Path reissued = Files.writeString(dir.resolve("reissued.crt"), PlatformCertificates.pem(certs.alipayCert()));
    String body = AlipayNotifications.signedBody(AlipayNotifications.payment("C5", "2026120422001400105", "88.88"),
        Base64.getEncoder().encodeToString(certs.alipayKey().getPrivate().getEncoded()), StandardCharsets.UTF_8);
    assertThat(com.alipay.api.internal.util.AlipaySignature.rsaCertCheckV1(decoded(body), reissued.toString(),
        "utf-8", "RSA2")).isTrue();
    assertThatThrownBy(() -> SyncCheck.event(channel, request(body))).isInstanceOf(RejectedNotification.class)
        .hasMessageContaining("alipay.alipay_cert_file");

    channel.signature().certificates().adopt(certs.alipayCert()); // as an answer naming it makes it known
    assertThat(SyncCheck.event(channel, request(body)).orderNo()).isEqualTo("C5");
    // and the configured one still verifies (Alipay signs with either while it moves over)
    assertThat(SyncCheck.event(channel, request(AlipayNotifications.signedBody(
        AlipayNotifications.payment("C6", "2026120422001400106", "88.88")))).orderNo()).isEqualTo("C6");
  }

  @Test
  void aCertificateNoLongerValidVerifiesNothing() throws Exception {
    SettableClock clock = new SettableClock(Instant.now(), ZoneOffset.UTC);
    AlipayChannel channel = channel(clock);
    X509Certificate reissued = certs.reissue();
    channel.signature().certificates().adopt(reissued);
    String body = AlipayNotifications.signedBody(AlipayNotifications.payment("C7", "2026120422001400107", "88.88"),
        Base64.getEncoder().encodeToString(certs.alipayKey().getPrivate().getEncoded()), StandardCharsets.UTF_8);
    assertThat(SyncCheck.event(channel, request(body)).orderNo()).isEqualTo("C7");

    clock.set(reissued.getNotAfter().toInstant().plus(Duration.ofSeconds(1)));

    assertThatThrownBy(() -> SyncCheck.event(channel, request(body))).isInstanceOf(RejectedNotification.class)
        .hasMessageContaining("valid now");
    assertThat(channel.signature().certificates().key(AlipayCertRules.sn(reissued))).isNull();
  }

  @Test
  void aForgedNotificationIsABadSignatureWhenTheShelfCannotBeRead() {
    AlipayChannel channel = channel();
    channel.signature().certificates().keepIn(new CertificateShelf() {
      @Override
      public Future<List<Shelved>> kept() {
        return Future.failedFuture(new IllegalStateException("database down"));
      }

      @Override
      public Future<Void> keep(String serial, List<X509Certificate> chain) {
        return Future.failedFuture(new IllegalStateException("database down"));
      }
    });
    String forged = AlipayNotifications.signedBody(AlipayNotifications.payment("C8", "2026120422001400108", "88.88"),
        AlipayNotifications.OTHER_PRIVATE_KEY, StandardCharsets.UTF_8);

    assertThatThrownBy(() -> SyncCheck.event(channel, request(forged))).isInstanceOfSatisfying(
        RejectedNotification.class, r -> assertThat(r.reason()).isEqualTo(RejectedNotification.Reason.BAD_SIGNATURE));
  }

  static NotifyRequest request(String body) {
    return new NotifyRequest("POST", MultiMap.caseInsensitiveMultiMap(), null, Buffer.buffer(body));
  }

  static Map<String, String> decoded(String body) throws RejectedNotification {
    return paynotify.channel.FormBody.decode(body.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
  }
}
