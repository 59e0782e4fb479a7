package paynotify.channel.wechat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.wechat.pay.java.core.RSAConfig;
import com.wechat.pay.java.core.RSAPublicKeyConfig;
import com.wechat.pay.java.core.certificate.AutoCertificateService;
import com.wechat.pay.java.core.exception.ServiceException;
import com.wechat.pay.java.core.exception.ValidationException;
import com.wechat.pay.java.core.notification.NotificationParser;
import com.wechat.pay.java.core.notification.RSACombinedNotificationConfig;
import com.wechat.pay.java.service.payments.model.Transaction;
import com.wechat.pay.java.service.payments.nativepay.NativePayService;
import com.wechat.pay.java.service.payments.nativepay.model.CloseOrderRequest;
import com.wechat.pay.java.service.payments.nativepay.model.QueryOrderByOutTradeNoRequest;
import java.nio.charset.StandardCharsets;
import java.security.PublicKey;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import paynotify.channel.RejectedNotification;
import paynotify.crypto.PublicKeys;
import paynotify.testsupport.Notification;
import paynotify.testsupport.PlatformCertificates;
import paynotify.testsupport.PlatformStandIn.Mode;
import paynotify.testsupport.SyncCheck;
import paynotify.testsupport.WechatV3Notifications;
import paynotify.testsupport.WechatV3StandIn;

/**
 * The stand-in proved right by wechatpay-java 0.2.17: its NativePayService, whose host is fixed, sent here
 * by an OkHttp interceptor; the SDK's request must verify at the stand-in, its answers with the SDK.
 */
class WechatV3GatewaySdkTest {
  static WechatV3StandIn standIn;
  static NativePayService sdk;

  @BeforeAll
  static void start() {
    standIn = WechatV3StandIn.start();
    RSAPublicKeyConfig config = standIn.sdkConfig();
    sdk = new NativePayService.Builder()
        .httpClient(standIn.sdkHttpClient(config))
        .build();
  }

  @AfterEach
  void normal() {
    standIn.mode(Mode.NORMAL);
  }

  @AfterAll
  static void stop() {
    standIn.close();
  }

  static Transaction query(String outTradeNo) {
    QueryOrderByOutTradeNoRequest request = new QueryOrderByOutTradeNoRequest();
    request.setMchid(WechatV3Notifications.MCH_ID);
    request.setOutTradeNo(outTradeNo);
    return sdk.queryOrderByOutTradeNo(request);
  }

  @Test
  void theSdkAcceptsThePaidAnswerAndTheStandInTheSdksRequest() {
    standIn.paid("SDK-PAID-1", "4200000000202612040000005678", "8888");

    Transaction transaction = query("SDK-PAID-1");

    assertThat(transaction.getTradeState()).isEqualTo(Transaction.TradeStateEnum.SUCCESS);
    assertThat(transaction.getTransactionId()).isEqualTo("4200000000202612040000005678");
    assertThat(transaction.getAmount().getTotal()).isEqualTo(8888);
    assertThat(transaction.getMchid()).isEqualTo(WechatV3Notifications.MCH_ID);
    assertThat(standIn.queries("SDK-PAID-1")).isEqualTo(1);
    assertThat(standIn.refusedRequests()).isZero();
  }

  @Test
  void theSdkClosesAWaitingTrade() {
    standIn.waiting("SDK-CLOSE-1");
    assertThat(query("SDK-CLOSE-1").getTradeState()).isEqualTo(Transaction.TradeStateEnum.NOTPAY);

    CloseOrderRequest close = new CloseOrderRequest();
    close.setMchid(WechatV3Notifications.MCH_ID);
    close.setOutTradeNo("SDK-CLOSE-1");
    sdk.closeOrder(close);

    assertThat(standIn.closes("SDK-CLOSE-1")).isEqualTo(1);
    assertThat(standIn.state("SDK-CLOSE-1")).isEqualTo("CLOSED");
    assertThat(query("SDK-CLOSE-1").getTradeState()).isEqualTo(Transaction.TradeStateEnum.CLOSED);
  }

  /** The SDK does verify: the stand-in's acceptance above is not for want of a check. */
  @Test
  void theSdkRefusesAnAnswerSignedWithAnotherKey() {
    standIn.waiting("SDK-BADSIG-1");
    standIn.mode(Mode.BAD_SIGNATURE);

    assertThatThrownBy(() -> query("SDK-BADSIG-1")).isInstanceOf(ValidationException.class);
  }

  /**
   * WeChat's switch to the public key, as the stand-in plays it: the SDK in public-key mode (0.2.15 on fills
   * Wechatpay-Serial with the public key's id) gets answers it verifies with the public key; an SDK knowing only
   * the platform certificate (it names the certificate) gets them signed with the certificate.
   */
  @Test
  void inWeChatsSwitchTheSdkGetsItsAnswerSignedWithTheKeyItsRequestNames() {
    standIn.switching(true);
    try {
      standIn.paid("SDK-SWITCH-1", "4200000000202612060000005679", "8888");

      assertThat(query("SDK-SWITCH-1").getTradeState()).isEqualTo(Transaction.TradeStateEnum.SUCCESS);
      assertThat(lastRequestSerial()).isEqualTo(WechatV3Notifications.PUBLIC_KEY_ID);

      RSAConfig certificatesOnly = new RSAConfig.Builder()
          .merchantId(WechatV3Notifications.MCH_ID)
          .privateKeyFromPath(standIn.merchantKeyFile().toString())
          .merchantSerialNumber(standIn.merchantSerial())
          .wechatPayCertificates(PlatformCertificates.pem(standIn.platformCertificate()))
          .build();
      NativePayService byCertificate = new NativePayService.Builder()
          .httpClient(standIn.sdkHttpClient(certificatesOnly)).build();
      QueryOrderByOutTradeNoRequest request = new QueryOrderByOutTradeNoRequest();
      request.setMchid(WechatV3Notifications.MCH_ID);
      request.setOutTradeNo("SDK-SWITCH-1");

      assertThat(byCertificate.queryOrderByOutTradeNo(request).getTradeState())
          .isEqualTo(Transaction.TradeStateEnum.SUCCESS);
      assertThat(lastRequestSerial()).isEqualTo(standIn.platformCertificateSerial());
      assertThat(standIn.refusedRequests()).isZero();
    } finally {
      standIn.switching(false);
    }
  }

  /**
   * The switch's notifications, signed with either key, parsed by the SDK's RSACombinedNotificationConfig (it
   * downloads the platform certificate from the stand-in's /v3/certificates) and checked by paynotify's channel
   * with both kinds in wechat_v3.platform_keys: the two agree on each.
   */
  @Test
  void aNotificationSignedWithEitherKeyPassesTheSdksCombinedConfigAndOurs() throws Exception {
    standIn.switching(true);
    try {
      RSACombinedNotificationConfig combined = new RSACombinedNotificationConfig.Builder()
          .merchantId(WechatV3Notifications.MCH_ID)
          .privateKeyFromPath(standIn.merchantKeyFile().toString())
          .merchantSerialNumber(standIn.merchantSerial())
          .publicKey(WechatV3Notifications.PUBLIC_KEY_PEM.replaceAll("-----(BEGIN|END) PUBLIC KEY-----|\\s", ""))
          .publicKeyId(WechatV3Notifications.PUBLIC_KEY_ID)
          .apiV3Key(WechatV3Notifications.APIV3_KEY)
          .httpClient(standIn.sdkHttpClient(standIn.sdkConfig()))
          .build();
      NotificationParser sdkParser = new NotificationParser(combined);
      Map<String, PublicKey> keys = new LinkedHashMap<>();
      keys.put(WechatV3Notifications.PUBLIC_KEY_ID, PublicKeys.parseRsa(WechatV3Notifications.PUBLIC_KEY_PEM));
      keys.put(standIn.platformCertificateSerial(), standIn.platformCertificate().getPublicKey());
      WechatV3Channel ours = new WechatV3Channel(keys, Set.of(WechatV3Notifications.PUBLIC_KEY_ID),
          WechatV3Notifications.APIV3_KEY.getBytes(StandardCharsets.UTF_8), WechatV3Notifications.MCH_ID,
          WechatV3Notifications.APP_ID, Duration.ZERO, Clock.systemUTC());
      long now = System.currentTimeMillis() / 1000;

      Notification byPublicKey = WechatV3Notifications.notification(WechatV3Notifications.transaction("SDK-N-1",
          "4200000000202612060000000011", 100), now, WechatV3Notifications.PRIVATE_KEY, WechatV3Notifications.PUBLIC_KEY_ID);
      Notification byCertificate = WechatV3Notifications.notification(WechatV3Notifications.transaction("SDK-N-2",
          "4200000000202612060000000012", 100), now, standIn.platformCertificateKey(), standIn.platformCertificateSerial());
      Notification byAnotherKey = WechatV3Notifications.notification(WechatV3Notifications.transaction("SDK-N-3",
          "4200000000202612060000000013", 100), now, standIn.platformCertificateKey(), WechatV3Notifications.PUBLIC_KEY_ID);

      assertThat(sdkParser.parse(WechatV3VectorsTest.sdkParam(byPublicKey), Transaction.class).getOutTradeNo()).isEqualTo("SDK-N-1");
      assertThat(SyncCheck.event(ours, WechatV3VectorsTest.request(byPublicKey)).orderNo()).isEqualTo("SDK-N-1");
      assertThat(sdkParser.parse(WechatV3VectorsTest.sdkParam(byCertificate), Transaction.class).getOutTradeNo()).isEqualTo("SDK-N-2");
      assertThat(SyncCheck.event(ours, WechatV3VectorsTest.request(byCertificate)).orderNo()).isEqualTo("SDK-N-2");
      assertThatThrownBy(() -> sdkParser.parse(WechatV3VectorsTest.sdkParam(byAnotherKey), Transaction.class))
          .isInstanceOf(ValidationException.class);
      assertThatThrownBy(() -> SyncCheck.event(ours, WechatV3VectorsTest.request(byAnotherKey))).isInstanceOf(RejectedNotification.class);
      assertThat(ours.keysSeen().getLong("public_key")).isEqualTo(1);
      assertThat(ours.keysSeen().getLong("platform_certificate")).isEqualTo(1);
      assertThat(ours.keysSeen().getJsonObject("last").getString("kind")).isEqualTo("platform_certificate");
    } finally {
      standIn.switching(false);
      AutoCertificateService.unregister(WechatV3Notifications.MCH_ID, "RSA");
    }
  }

  private static String lastRequestSerial() {
    List<String> serials = standIn.requestSerials();
    return serials.get(serials.size() - 1);
  }

  @Test
  void aTradeThatDoesNotExistIsTheSdksOrderNotExist() {
    assertThatThrownBy(() -> query("SDK-NONE-1")).isInstanceOfSatisfying(ServiceException.class, e -> {
      assertThat(e.getHttpStatusCode()).isEqualTo(404);
      assertThat(e.getErrorCode()).isEqualTo("ORDER_NOT_EXIST");
    });
  }
}
