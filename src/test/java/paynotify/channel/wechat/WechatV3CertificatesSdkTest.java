package paynotify.channel.wechat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.wechat.pay.java.core.RSAAutoCertificateConfig;
import com.wechat.pay.java.core.certificate.AutoCertificateService;
import com.wechat.pay.java.core.exception.ServiceException;
import com.wechat.pay.java.core.notification.NotificationParser;
import com.wechat.pay.java.service.payments.model.Transaction;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import paynotify.config.AppConfig;
import paynotify.crypto.MerchantKeyTest;
import paynotify.net.OutboundHttp;
import paynotify.testsupport.Notification;
import paynotify.testsupport.TestService;
import paynotify.testsupport.WechatV3Notifications;
import paynotify.testsupport.WechatV3StandIn;

/**
 * The stand-in's /v3/certificates proved by wechatpay-java 0.2.17's own auto-certificate config
 * (RSAAutoCertificateConfig, its downloader on the SDK's own HTTP client builder, sent here by an OkHttp interceptor):
 * the SDK's signed request verifies at the stand-in, the SDK decrypts the list with the APIv3 key and verifies a
 * notification signed with the certificate; after a rotation it lists both; and a merchant without certificates makes
 * the SDK fail as it does against WeChat (wechatpay-java#354). Our download lists what the SDK lists.
 */
class WechatV3CertificatesSdkTest {
  WechatV3StandIn wechat;
  Vertx vertx;

  @BeforeEach
  void start() {
    wechat = WechatV3StandIn.start();
    vertx = Vertx.vertx();
  }

  @AfterEach
  void stop() {
    AutoCertificateService.unregister(WechatV3Notifications.MCH_ID, "RSA");
    wechat.close();
    vertx.close().await();
  }

  RSAAutoCertificateConfig sdk() {
    return new RSAAutoCertificateConfig.Builder()
        .merchantId(WechatV3Notifications.MCH_ID)
        .privateKeyFromPath(wechat.merchantKeyFile().toString())
        .merchantSerialNumber(wechat.merchantSerial())
        .apiV3Key(WechatV3Notifications.APIV3_KEY)
        .httpClientBuilder(wechat.sdkHttpClientBuilder())
        .build();
  }

  /** What our download lists, through the channel the configuration builds (no platform key pasted). */
  Map<String, ?> ours() {
    JsonObject config = wechat.configure(TestService.configuration(new JsonObject()));
    config.getJsonObject("wechat_v3").put("platform_keys", new JsonArray());
    WechatV3Channel channel = AppConfig.from(config, "test", Map.of()).channels().enabled().stream()
        .filter(WechatV3Channel.class::isInstance).map(WechatV3Channel.class::cast).findFirst().orElseThrow();
    OutboundHttp http = new OutboundHttp(vertx, Duration.ofSeconds(5), 64 * 1024);
    WechatV3Client client = new WechatV3Client(http, wechat.url(), WechatV3Notifications.MCH_ID,
        wechat.merchantSerial(), MerchantKeyTest.read(wechat.merchantKeyFile()), channel.signature());
    return new WechatV3Certificates(client, Clock.systemUTC()).download().await();
  }

  Notification signedWithTheNewestCertificate(String orderNo) {
    return wechat.paidSignedWithCertificate(orderNo, "4200000000202612060000000021", 100,
        wechat.platformCertificateSerial());
  }

  @Test
  void theSdkDownloadsTheListAndVerifiesANotificationWithTheCertificate() {
    wechat.switching(true); // the list signed with the certificate, as for a merchant on certificates

    NotificationParser parser = new NotificationParser(sdk());

    assertThat(wechat.certificateDownloads()).isEqualTo(1);
    assertThat(wechat.refusedRequests()).as("the SDK's Authorization verifies at the stand-in").isZero();
    assertThat(parser.parse(WechatV3VectorsTest.sdkParam(signedWithTheNewestCertificate("SDKC-1")), Transaction.class)
        .getOutTradeNo()).isEqualTo("SDKC-1");
    assertThat(ours()).containsOnlyKeys(wechat.platformCertificateSerial());
  }

  @Test
  void afterARotationTheSdkAndWeListBothCertificates() {
    wechat.switching(true);
    String before = wechat.platformCertificateSerial();
    wechat.rotateCertificate();

    NotificationParser parser = new NotificationParser(sdk());

    assertThat(parser.parse(WechatV3VectorsTest.sdkParam(signedWithTheNewestCertificate("SDKC-2")), Transaction.class)
        .getOutTradeNo()).isEqualTo("SDKC-2");
    assertThat(AutoCertificateService.getCertificate(WechatV3Notifications.MCH_ID, "RSA", before)).isNotNull();
    assertThat(ours()).containsOnlyKeys(before, wechat.platformCertificateSerial());
  }

  /** As against WeChat for a merchant opened since late 2024: the SDK's config cannot be built (wechatpay-java#354). */
  @Test
  void aMerchantWithoutCertificatesMakesTheSdkFailAsWeChatDoes() {
    wechat.noCertificates(true);

    assertThatThrownBy(this::sdk).isInstanceOfSatisfying(ServiceException.class, e -> {
      assertThat(e.getHttpStatusCode()).isEqualTo(404);
      assertThat(e.getErrorCode()).isEqualTo("RESOURCE_NOT_EXISTS");
      assertThat(e.getErrorMessage()).startsWith("无可用的平台证书");
    });
    assertThat(wechat.refusedRequests()).isZero();
  }
}
