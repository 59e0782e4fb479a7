package paynotify.alert;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import paynotify.alert.ServiceStandIn.Reply;
import paynotify.alert.ServiceStandIn.Request;
import paynotify.net.OutboundFailure;

/** DingtalkTarget against a stand-in of DingTalk's custom robot webhook (加签 on, or off), over real HTTP. */
class DingtalkTargetTest extends TargetContract {
  private static final String TOKEN = "bf73c1d1e0a6a4b2c5e6d7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c";
  private static final String SECRET = "SEC5a3ecf88f2b3eb50db30ecfc00f53033ac909c99bf7f88fd612bda89d7f3a9dc";

  @Override
  AlertTarget target(URI url) {
    return new DingtalkTarget(http, url, SECRET, CLOCK);
  }

  @Override
  String webhook() {
    return "/robot/send?access_token=" + TOKEN;
  }

  @Override
  List<String> secrets() {
    return List.of(TOKEN, SECRET);
  }

  /** DingTalk's sign: URL-encoded (in the query) Base64 of HMAC-SHA256 keyed with the secret over timestamp\nsecret. */
  private static String sign(String secret, String timestamp) {
    return Base64.getEncoder().encodeToString(hmacSha256(secret, timestamp + "\n" + secret));
  }

  /** DingTalk's webhook for a robot with {@code secret} (null: 加签 off): the token, then the sign, as it answers them. */
  private static ServiceStandIn dingtalk(String secret) {
    return ServiceStandIn.start(request -> {
      if (!request.path().equals("/robot/send") || !TOKEN.equals(request.param("access_token"))) {
        return answer(300001, "token is not exist");
      }
      if (secret != null && !signedNow(request, secret)) {
        return answer(310000, "sign not match, more: [https://ding-doc.dingtalk.com/doc#/serverapi2/qf2nxq]");
      }
      return answer(0, "ok");
    });
  }

  /** A sign of {@code secret} over a timestamp less than an hour from now, DingTalk's window. */
  private static boolean signedNow(Request request, String secret) {
    String timestamp = request.param("timestamp");
    return timestamp != null && timestamp.matches("[0-9]{1,19}")
        && Math.abs(Long.parseLong(timestamp) - CLOCK.millis()) < Duration.ofHours(1).toMillis()
        && sign(secret, timestamp).equals(request.param("sign"));
  }

  private static Reply answer(int errcode, String errmsg) {
    return Reply.json(new JsonObject().put("errcode", errcode).put("errmsg", errmsg));
  }

  @Test
  void alertIsPostedAsMarkdownSignedWithTheClocksTimestamp() {
    try (ServiceStandIn robot = dingtalk(SECRET)) {
      target(robot.url(webhook())).send(ALERT).await();

      Request request = robot.request();
      String timestamp = Long.toString(CLOCK.millis());
      assertThat(request.method()).isEqualTo("POST");
      assertThat(request.path()).isEqualTo("/robot/send");
      assertThat(request.rawQuery()).isEqualTo("access_token=" + TOKEN + "&timestamp=" + timestamp
          + "&sign=" + URLEncoder.encode(sign(SECRET, timestamp), StandardCharsets.UTF_8));
      assertThat(request.contentType()).isEqualTo("application/json");
      assertThat(request.json()).isEqualTo(new JsonObject().put("msgtype", "markdown").put("markdown", new JsonObject()
          .put("title", ALERT.title()).put("text", "#### " + ALERT.title() + "\n\n" + ALERT.text())));
    }
  }

  @Test
  void robotWithoutSigningGetsNeitherTimestampNorSign() {
    try (ServiceStandIn robot = dingtalk(null)) {
      new DingtalkTarget(http, robot.url(webhook()), null, CLOCK).send(ALERT).await();

      assertThat(robot.request().query()).isEqualTo(Map.of("access_token", List.of(TOKEN)));
    }
  }

  @Test
  void unknownTokenIsAFailureNamingDingtalksCode() {
    String otherToken = "0000c1d1e0a6a4b2c5e6d7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a0000";
    try (ServiceStandIn robot = dingtalk(SECRET)) {
      OutboundFailure failure = failure(target(robot.url("/robot/send?access_token=" + otherToken)).send(ALERT));

      assertThat(failure.kind()).isEqualTo(OutboundFailure.Kind.REFUSED);
      assertThat(failure.getMessage()).isEqualTo("dingtalk refused the alert: errcode 300001, errmsg token is not exist");
    }
  }

  @Test
  void wrongSecretIsRefusedAsSignMismatchWithoutShowingEitherSecret() {
    String wrongSecret = "SEC00000f88f2b3eb50db30ecfc00f53033ac909c99bf7f88fd612bda89d7f30000";
    try (ServiceStandIn robot = dingtalk(SECRET)) {
      OutboundFailure failure = failure(new DingtalkTarget(http, robot.url(webhook()), wrongSecret, CLOCK).send(ALERT));

      assertThat(failure.getMessage()).startsWith("dingtalk refused the alert: errcode 310000, errmsg sign not match")
          .doesNotContain(wrongSecret).doesNotContain(SECRET).doesNotContain(TOKEN);
    }
  }
}
