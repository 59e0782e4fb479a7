package paynotify.channel.wechat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.binarywang.wxpay.util.SignUtils;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import paynotify.channel.NotifyEvent;
import paynotify.channel.NotifyRequest;
import paynotify.channel.RejectedNotification;
import paynotify.testsupport.SyncCheck;
import paynotify.testsupport.Vectors;
import paynotify.testsupport.WechatV2Notifications;

/** WeChat Pay v2: our verifier against the shared vectors and against weixin-java-pay's SignUtils. */
class WechatV2VectorsTest {
  static final WechatV2Channel CHANNEL = channel(WechatV2Signature.MD5);
  static final WechatV2Channel HMAC_CHANNEL = channel(WechatV2Signature.HMAC_SHA256);

  static WechatV2Channel channel(String signType) {
    return new WechatV2Channel(WechatV2Notifications.API_KEY, signType, WechatV2Notifications.APP_ID,
        WechatV2Notifications.MCH_ID);
  }

  static Stream<JsonObject> cases() {
    return Vectors.cases(WechatV2Notifications.VECTORS).stream();
  }

  static NotifyRequest request(String body) {
    return new NotifyRequest("POST", MultiMap.caseInsensitiveMultiMap(), null,
        Buffer.buffer(body.getBytes(StandardCharsets.UTF_8)));
  }

  @ParameterizedTest(name = "{index} {0}")
  @MethodSource("cases")
  void verifierMatchesTheVector(JsonObject c) {
    // as the merchant that vector was signed for is configured (wechat_v2.sign_type; MD5 by default)
    String signType = c.getJsonObject("debug", new JsonObject()).getString("sign_type", WechatV2Signature.MD5);
    Vectors.assertVerdict(channel(signType), request(c.getJsonObject("request").getString("body")),
        c.getJsonObject("expect"));
  }

  @Test
  void xxeVectorIsRefusedForItsDoctype() {
    JsonObject xxe = cases().filter(c -> c.getString("name").equals("xxe_doctype")).findFirst().orElseThrow();
    assertThatThrownBy(() -> SyncCheck.event(CHANNEL, request(xxe.getJsonObject("request").getString("body"))))
        .isInstanceOfSatisfying(RejectedNotification.class,
            r -> assertThat(r.reason()).isEqualTo(RejectedNotification.Reason.XML_DOCTYPE));
  }

  /** Random field sets, values with XML and URL specials, both algorithms: the SDK and we agree. */
  @Test
  void ourSignIsTheSdksSign() {
    Random random = new Random(42);
    for (int i = 0; i < 200; i++) {
      Map<String, String> fields = new LinkedHashMap<>();
      for (int f = 0; f < 1 + random.nextInt(12); f++) {
        fields.put("f" + random.nextInt(40), random.nextInt(5) == 0 ? "" : value(random));
      }
      String signType = random.nextBoolean() ? WechatV2Signature.MD5 : WechatV2Signature.HMAC_SHA256;
      if (signType.equals(WechatV2Signature.HMAC_SHA256)) {
        fields.put(WechatV2Signature.SIGN_TYPE, signType);
      }
      String sdk = SignUtils.createSign(fields, signType, WechatV2Notifications.API_KEY, new String[0]);
      assertThat(new WechatV2Signature(WechatV2Notifications.API_KEY, signType, WechatV2Notifications.APP_ID,
          WechatV2Notifications.MCH_ID).sign(fields)).isEqualTo(sdk);
    }
  }

  @Test
  void sdkSignedNotificationWithAnExtensionFieldIsAccepted() throws Exception {
    Map<String, String> params = WechatV2Notifications.payment("W9", "T-W9", 1999, 0);
    params.put("a_field_wechat_adds_later", "x & y < z");
    NotifyEvent e = SyncCheck.event(HMAC_CHANNEL, request(new String(
        WechatV2Notifications.signed(params, WechatV2Notifications.API_KEY, WechatV2Signature.HMAC_SHA256).body(),
        StandardCharsets.UTF_8)));
    assertThat(e.tradeNo()).isEqualTo("T-W9");
    assertThat(e.amountCents()).isEqualTo(1999);
  }

  private static String value(Random random) {
    String alphabet = "abcXYZ019 &=+%<>\"'中文";
    StringBuilder v = new StringBuilder();
    for (int i = 0; i < 1 + random.nextInt(10); i++) {
      v.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return v.toString();
  }
}
