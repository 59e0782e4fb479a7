package paynotify.channel.alipay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import paynotify.channel.NotifyEvent;
import paynotify.channel.NotifyRequest;
import paynotify.channel.RejectedNotification;
import paynotify.crypto.PublicKeys;
import paynotify.testsupport.AlipayNotifications;
import paynotify.testsupport.SyncCheck;
import paynotify.testsupport.Vectors;

/** Our verifier agrees with alipay-sdk-java on every shared vector, over HTTP and directly. */
class AlipayVectorsTest {
  private static final JsonObject FILE = AlipayNotifications.VECTORS;
  private static final AlipayChannel CHANNEL = new AlipayChannel(
      new AlipaySignature(PublicKeys.parseRsa(FILE.getJsonObject("keys").getString("alipay_public_key_base64")),
          AlipaySignature.Algorithm.RSA2, AlipayNotifications.APP_ID, AlipayNotifications.SELLER_ID));
  private static final Map<String, String> STATUS_OF_KIND =
      Map.of("payment", "paid", "none", "unpaid", "close", "closed");

  static Stream<JsonObject> cases() {
    return Vectors.cases(FILE).stream();
  }

  @Test
  void vectorFileHasTheCasesWeExpect() {
    assertThat(Vectors.cases(FILE)).hasSize(11);
    assertThat(Vectors.cases(FILE).stream().filter(c -> c.getJsonObject("expect").getBoolean("valid"))).hasSize(7);
  }

  @ParameterizedTest(name = "{index} {0}")
  @MethodSource("cases")
  void verifierMatchesTheVector(JsonObject c) {
    JsonObject expect = c.getJsonObject("expect");
    NotifyRequest request = new NotifyRequest("POST", MultiMap.caseInsensitiveMultiMap(), null,
        Buffer.buffer(c.getJsonObject("request").getString("body").getBytes(StandardCharsets.UTF_8)));
    Vectors.assertVerdict(CHANNEL, request, expect);
    JsonObject n = expect.getJsonObject("normalized");
    if (n != null && STATUS_OF_KIND.containsKey(n.getString("event_kind"))) {
      assertThat(STATUS_OF_KIND.get(n.getString("event_kind"))).isEqualTo(n.getString("status"));
    }
  }


  /** Notifications signed at test time by the official SDK, with content the vectors do not cover. */
  @Test
  void sdkSignedNotificationsVerify() throws Exception {
    for (Map<String, String> params : List.of(
        AlipayNotifications.payment("S1", "TS1", "0.01"),
        withField(AlipayNotifications.payment("S2", "TS2", "9999999.99"), "body", "a=b&c=d+e%20f 中文 ☃"),
        withField(AlipayNotifications.payment("S3", "TS3", "12.30"), "passback_params", "   "),
        withField(AlipayNotifications.payment("S4", "TS4", "12"), "subject", "tab\there, newline\nthere"))) {
      String body = AlipayNotifications.signedBody(params);
      NotifyEvent event = SyncCheck.event(CHANNEL, new NotifyRequest("POST", MultiMap.caseInsensitiveMultiMap(), null,
          Buffer.buffer(body.getBytes(StandardCharsets.UTF_8))));
      assertThat(event.tradeNo()).isEqualTo(params.get("trade_no"));
      // and the SDK agrees with itself on what it signed
      Map<String, String> signed = new java.util.HashMap<>(params);
      signed.put(AlipaySignature.SIGN,
          AlipayNotifications.sign(params, AlipayNotifications.PRIVATE_KEY, StandardCharsets.UTF_8));
      signed.put(AlipaySignature.SIGN_TYPE, AlipaySignature.Algorithm.RSA2.name());
      assertThat(com.alipay.api.internal.util.AlipaySignature.rsaCheckV1(signed,
          FILE.getJsonObject("keys").getString("alipay_public_key_base64"), "utf-8",
          AlipaySignature.Algorithm.RSA2.name())).isTrue();
    }
  }

  @Test
  void ourSignContentIsTheSdksSignContent() {
    for (JsonObject c : Vectors.cases(FILE)) {
      Map<String, String> params = new java.util.HashMap<>();
      c.getJsonObject("request").getJsonObject("params").forEach(e -> params.put(e.getKey(), (String) e.getValue()));
      String sdk = com.alipay.api.internal.util.AlipaySignature.getSignCheckContentV1(new java.util.HashMap<>(params));
      assertThat(AlipaySignature.signContent(params)).as(c.getString("name")).isEqualTo(sdk);
    }
  }

  @Test
  void legacySha1SignatureIsRejectedUnlessConfigured() throws Exception {
    JsonObject legacy = Vectors.cases(FILE).stream().filter(c -> c.getString("name").equals("legacy_sign_type_rsa"))
        .findFirst().orElseThrow();
    NotifyRequest request = new NotifyRequest("POST", MultiMap.caseInsensitiveMultiMap(), null,
        Buffer.buffer(legacy.getJsonObject("request").getString("body")));
    assertThatThrownBy(() -> SyncCheck.event(CHANNEL, request)).isInstanceOf(RejectedNotification.class);

    AlipayChannel legacyChannel = new AlipayChannel(new AlipaySignature(
        PublicKeys.parseRsa(FILE.getJsonObject("keys").getString("alipay_public_key_pem")),
        AlipaySignature.Algorithm.RSA, AlipayNotifications.APP_ID, null));
    assertThat(SyncCheck.event(legacyChannel, request).orderNo()).isEqualTo(
        legacy.getJsonObject("debug").getJsonObject("expect_if_legacy_rsa_enabled").getJsonObject("normalized")
            .getString("order_no"));
  }

  private static Map<String, String> withField(Map<String, String> params, String name, String value) {
    params.put(name, value);
    return params;
  }

}
