package paynotify.alert;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import paynotify.alert.ServiceStandIn.Reply;
import paynotify.alert.ServiceStandIn.Request;
import paynotify.net.OutboundFailure;

/** FeishuTarget against a stand-in of Feishu's custom robot webhook (签名校验 on, or off), over real HTTP. */
class FeishuTargetTest extends TargetContract {
  private static final String HOOK_ID = "5e3d587e-d78e-4a07-bd07-265f269f86fd";
  private static final String SECRET = "qWnE8mX2cVb7Tz4RkLp9Yd";

  @Override
  AlertTarget target(URI url) {
    return new FeishuTarget(http, url, SECRET, CLOCK);
  }

  @Override
  String webhook() {
    return "/open-apis/bot/v2/hook/" + HOOK_ID;
  }

  @Override
  List<String> secrets() {
    return List.of(HOOK_ID, SECRET);
  }

  /** Feishu's sign: Base64 of HMAC-SHA256 keyed with timestamp\nsecret over nothing (DingTalk's, reversed). */
  private static String sign(String secret, String timestamp) {
    return Base64.getEncoder().encodeToString(hmacSha256(timestamp + "\n" + secret, ""));
  }

  /** Feishu's webhook for a robot with {@code secret} (null: 签名校验 off): the hook, then the sign, as it answers them. */
  private static ServiceStandIn feishu(String secret) {
    return ServiceStandIn.start(request -> {
      if (!request.path().equals("/open-apis/bot/v2/hook/" + HOOK_ID)) {
        return answer(19001, "param invalid: incoming webhook access token invalid");
      }
      if (secret != null && !signedNow(request.json(), secret)) {
        return answer(19021, "sign match fail or timestamp is not within one hour from current time");
      }
      return Reply.json(new JsonObject().put("StatusCode", 0).put("StatusMessage", "success")
          .put("code", 0).put("data", new JsonObject()).put("msg", "success"));
    });
  }

  /** A sign of {@code secret} over a timestamp (seconds, a string) less than an hour from now, Feishu's window. */
  private static boolean signedNow(JsonObject body, String secret) {
    String timestamp = body.getValue("timestamp") instanceof String t ? t : null;
    return timestamp != null && timestamp.matches("[0-9]{1,19}")
        && Math.abs(Long.parseLong(timestamp) - CLOCK.instant().getEpochSecond()) < Duration.ofHours(1).toSeconds()
        && sign(secret, timestamp).equals(body.getValue("sign"));
  }

  private static Reply answer(int code, String msg) {
    return Reply.json(new JsonObject().put("code", code).put("data", new JsonObject()).put("msg", msg));
  }

  @Test
  void alertIsPostedAsTextSignedWithTheClocksTimestamp() {
    try (ServiceStandIn robot = feishu(SECRET)) {
      target(robot.url(webhook())).send(ALERT).await();

      Request request = robot.request();
      String timestamp = Long.toString(CLOCK.instant().getEpochSecond());
      assertThat(request.method()).isEqualTo("POST");
      assertThat(request.path()).isEqualTo("/open-apis/bot/v2/hook/" + HOOK_ID);
      assertThat(request.rawQuery()).isNull();
      assertThat(request.contentType()).isEqualTo("application/json");
      assertThat(request.json()).isEqualTo(new JsonObject().put("timestamp", timestamp)
          .put("sign", sign(SECRET, timestamp)).put("msg_type", "text")
          .put("content", new JsonObject().put("text", ALERT.title() + "\n" + ALERT.text())));
    }
  }

  @Test
  void robotWithoutSignatureCheckGetsNeitherTimestampNorSign() {
    try (ServiceStandIn robot = feishu(null)) {
      new FeishuTarget(http, robot.url(webhook()), null, CLOCK).send(ALERT).await();

      assertThat(robot.request().json().fieldNames()).containsExactlyInAnyOrder("msg_type", "content");
    }
  }

  @Test
  void wrongSecretIsRefusedAsSignMismatchWithoutShowingEitherSecret() {
    String wrongSecret = "aaaE8mX2cVb7Tz4RkLpbbb";
    try (ServiceStandIn robot = feishu(SECRET)) {
      OutboundFailure failure = failure(new FeishuTarget(http, robot.url(webhook()), wrongSecret, CLOCK).send(ALERT));

      assertThat(failure.kind()).isEqualTo(OutboundFailure.Kind.REFUSED);
      assertThat(failure.getMessage()).startsWith("feishu refused the alert: code 19021, msg sign match fail")
          .doesNotContain(wrongSecret).doesNotContain(SECRET).doesNotContain(HOOK_ID);
    }
  }

  @Test
  void frequencyLimitIsAFailureNamingFeishusCode() {
    Function<Request, Reply> limited = request -> answer(11232, "frequency limited psm[lark.oapi.app_platform_runtime]");
    try (ServiceStandIn robot = ServiceStandIn.start(limited)) {
      OutboundFailure failure = failure(target(robot.url(webhook())).send(ALERT));

      assertThat(failure.getMessage()).startsWith("feishu refused the alert: code 11232, msg frequency limited");
    }
  }

  @Test
  void answerInTheOlderFormIsReadByItsStatusCode() {
    try (ServiceStandIn robot = ServiceStandIn.start(request -> Reply.json(new JsonObject().putNull("Extra")
        .put("StatusCode", 0).put("StatusMessage", "success")))) {
      target(robot.url(webhook())).send(ALERT).await();
    }
    try (ServiceStandIn robot = ServiceStandIn.start(request -> Reply.json(new JsonObject().putNull("Extra")
        .put("StatusCode", 19021).put("StatusMessage", "sign match fail")))) {
      assertThat(failure(target(robot.url(webhook())).send(ALERT)).getMessage())
          .isEqualTo("feishu refused the alert: StatusCode 19021, StatusMessage sign match fail");
    }
  }

  /** Feishu's text message makes a mention of {@code <at user_id="all">}: in a detail from elsewhere it is text. */
  @Test
  void aMentionInTextFromElsewherePingsNobody() {
    Alert alert = new AlertMessages(new AlertTexts("zh")).anomaly("unreadable_notification", "paypal", "PN1", "T1",
        2990L, "custom '<at user_id=\"all\">所有人</at>' is not an order");
    try (ServiceStandIn robot = feishu(SECRET)) {
      target(robot.url(webhook())).send(alert).await();

      String text = robot.request().json().getJsonObject("content").getString("text");
      assertThat(text).contains("所有人").doesNotContain("<at").doesNotContain("</at>");
    }
  }
}
