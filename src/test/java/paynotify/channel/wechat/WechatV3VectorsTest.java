package paynotify.channel.wechat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.wechat.pay.java.core.notification.NotificationParser;
import com.wechat.pay.java.core.notification.RSAPublicKeyNotificationConfig;
import com.wechat.pay.java.core.notification.RequestParam;
import com.wechat.pay.java.service.payments.model.Transaction;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import paynotify.channel.NotifyEvent;
import paynotify.channel.NotifyRequest;
import paynotify.channel.RejectedNotification.Reason;
import paynotify.channel.RejectedNotification;
import paynotify.crypto.PublicKeys;
import paynotify.testsupport.Notification;
import paynotify.testsupport.SyncCheck;
import paynotify.testsupport.Vectors;
import paynotify.testsupport.WechatV3Notifications;

/**
 * WeChat Pay v3 against the shared vectors, with the window on and the clock fixed at the file's
 * {@code clock.now_epoch_seconds}; and against wechatpay-java's own NotificationParser.
 */
class WechatV3VectorsTest {
  static final JsonObject FILE = WechatV3Notifications.VECTORS;
  static final Clock FIXED = Clock.fixed(
      Instant.ofEpochSecond(FILE.getJsonObject("clock").getLong("now_epoch_seconds")), ZoneOffset.UTC);

  static WechatV3Channel channel(Duration window, Clock clock) {
    return new WechatV3Channel(
        Map.of(WechatV3Notifications.PUBLIC_KEY_ID, PublicKeys.parseRsa(WechatV3Notifications.PUBLIC_KEY_PEM)),
        Set.of(WechatV3Notifications.PUBLIC_KEY_ID), WechatV3Notifications.APIV3_KEY.getBytes(StandardCharsets.UTF_8), WechatV3Notifications.MCH_ID,
        WechatV3Notifications.APP_ID, window, clock);
  }

  static Stream<JsonObject> cases() {
    return Vectors.cases(FILE).stream();
  }

  static NotifyRequest request(JsonObject jsonRequest) {
    MultiMap headers = MultiMap.caseInsensitiveMultiMap();
    jsonRequest.getJsonObject("headers").forEach(h -> headers.add(h.getKey(), (String) h.getValue()));
    return new NotifyRequest("POST", headers, null,
        Buffer.buffer(jsonRequest.getString("body").getBytes(StandardCharsets.UTF_8)));
  }

  /** {@code n} as wechatpay-java's NotificationParser takes it. */
  static RequestParam sdkParam(Notification n) {
    return new RequestParam.Builder()
        .serialNumber(n.headers().get(WechatV3Signature.SERIAL_HEADER))
        .nonce(n.headers().get(WechatV3Signature.NONCE_HEADER))
        .signature(n.headers().get(WechatV3Signature.SIGNATURE_HEADER))
        .timestamp(n.headers().get(WechatV3Signature.TIMESTAMP_HEADER))
        .signType(n.headers().get(WechatV3Signature.SIGNATURE_TYPE_HEADER))
        .body(new String(n.body(), StandardCharsets.UTF_8))
        .build();
  }

  static NotifyRequest request(Notification n) {
    MultiMap headers = MultiMap.caseInsensitiveMultiMap();
    n.headers().forEach(headers::add);
    return new NotifyRequest(n.method(), headers, null, Buffer.buffer(n.body()));
  }

  @ParameterizedTest(name = "{index} {0}")
  @MethodSource("cases")
  void verifierMatchesTheVectorWithTheWindowOn(JsonObject c) {
    WechatV3Channel channel = channel(Duration.ofSeconds(FILE.getJsonObject("clock").getLong("window_seconds")), FIXED);
    Vectors.assertVerdict(channel, request(c.getJsonObject("request")), c.getJsonObject("expect"));
  }

  @Test
  void eachRejectionHasTheVectorsReason() {
    WechatV3Channel channel = channel(Duration.ofSeconds(300), FIXED);
    Map<String, Reason> expected = Map.of("tampered_body", Reason.BAD_SIGNATURE, "wrong_serial", Reason.UNKNOWN_SERIAL,
        "bad_signature", Reason.BAD_SIGNATURE, "stale_timestamp", Reason.STALE_TIMESTAMP,
        "tampered_ciphertext", Reason.DECRYPT_FAILED);
    for (JsonObject c : Vectors.cases(FILE)) {
      if (expected.containsKey(c.getString("name"))) {
        assertThatThrownBy(() -> SyncCheck.event(channel, request(c.getJsonObject("request"))))
            .as(c.getString("name"))
            .isInstanceOfSatisfying(RejectedNotification.class,
                r -> assertThat(r.reason()).isEqualTo(expected.get(c.getString("name"))));
      }
    }
  }

  @Test
  void withTheWindowOffTheStaleVectorIsAcceptedLikeTheSdkDoes() throws Exception {
    JsonObject stale = Vectors.cases(FILE).stream().filter(c -> c.getString("name").equals("stale_timestamp"))
        .findFirst().orElseThrow();
    assertThat(SyncCheck.event(channel(Duration.ZERO, FIXED), request(stale.getJsonObject("request"))).orderNo())
        .isEqualTo("V3-20261129-006");
  }

  /** Our test notifications are genuine v3: the official parser reads them, and so do we. */
  @Test
  void sdkParsesWhatTheTestsSendAndSoDoWe() throws Exception {
    Notification n = WechatV3Notifications.payment("V3-SDK-1", "4200000000202611290000000001", 4321);
    NotificationParser sdk = new NotificationParser(new RSAPublicKeyNotificationConfig.Builder()
        .publicKey(WechatV3Notifications.PUBLIC_KEY_PEM.replaceAll("-----(BEGIN|END) PUBLIC KEY-----|\\s", ""))
        .publicKeyId(WechatV3Notifications.PUBLIC_KEY_ID)
        .apiV3Key(WechatV3Notifications.APIV3_KEY)
        .build());
    Transaction parsed = sdk.parse(sdkParam(n), Transaction.class);
    assertThat(parsed.getAmount().getTotal()).isEqualTo(4321);

    NotifyEvent ours = SyncCheck.event(channel(Duration.ofSeconds(300), Clock.systemUTC()), request(n));
    assertThat(ours.tradeNo()).isEqualTo(parsed.getTransactionId());
    assertThat(ours.orderNo()).isEqualTo(parsed.getOutTradeNo());
    assertThat(ours.amountCents()).isEqualTo(parsed.getAmount().getTotal().longValue());
  }

  @Test
  void reSerialisedBodyNoLongerVerifies() {
    Notification n = WechatV3Notifications.payment("V3-R", "4200000000202611290000000002", 100);
    String reSerialised = new JsonObject(new String(n.body(), StandardCharsets.UTF_8)).encodePrettily();
    WechatV3Channel channel = channel(Duration.ZERO, Clock.systemUTC());
    assertThatThrownBy(() -> SyncCheck.event(channel, request(n.withBody(reSerialised))))
        .isInstanceOfSatisfying(RejectedNotification.class,
            r -> assertThat(r.reason()).isEqualTo(Reason.BAD_SIGNATURE));
  }

  @Test
  void jsonOfUnexpectedShapeIsMalformedNotACrash() {
    for (String body : new String[] {"[]", "{\"resource\":\"text\"}", "{\"resource\":{\"nonce\":5}}", "not json"}) {
      Notification n = WechatV3Notifications.signedBody(body, System.currentTimeMillis() / 1000,
          WechatV3Notifications.PRIVATE_KEY, WechatV3Notifications.PUBLIC_KEY_ID);
      assertThatThrownBy(() -> SyncCheck.event(channel(Duration.ZERO, Clock.systemUTC()), request(n)))
          .as(body).isInstanceOf(RejectedNotification.class);
    }
  }
}
