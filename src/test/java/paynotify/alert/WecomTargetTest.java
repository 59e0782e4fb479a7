package paynotify.alert;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import paynotify.alert.ServiceStandIn.Reply;
import paynotify.alert.ServiceStandIn.Request;
import paynotify.net.OutboundFailure;

/** WecomTarget against a stand-in of WeCom's group robot webhook, over real HTTP. */
class WecomTargetTest extends TargetContract {
  private static final String KEY = "693a91f6-7f9c-4bc4-97a0-0ec2bd1f5aaa";

  @Override
  AlertTarget target(URI url) {
    return new WecomTarget(http, url);
  }

  @Override
  String webhook() {
    return "/cgi-bin/webhook/send?key=" + KEY;
  }

  @Override
  List<String> secrets() {
    return List.of(KEY);
  }

  /** WeCom's webhook: the key, then the content's limit, as it answers them. */
  private static Reply wecom(Request request) {
    if (!request.path().equals("/cgi-bin/webhook/send") || !KEY.equals(request.param("key"))) {
      return Reply.json(new JsonObject().put("errcode", 93000).put("errmsg", "invalid webhook url, hint: "
          + "[1733307330214402498975046], from ip: 203.0.113.7, more info at https://open.work.weixin.qq.com/devtool/query?e=93000"));
    }
    String content = request.json().getJsonObject("markdown").getString("content");
    if (content.getBytes(StandardCharsets.UTF_8).length > 4096) {
      return Reply.json(new JsonObject().put("errcode", 40058)
          .put("errmsg", "markdown.content exceed max length 4096. invalid Request Parameter"));
    }
    return Reply.json(new JsonObject().put("errcode", 0).put("errmsg", "ok"));
  }

  @Test
  void alertIsPostedAsMarkdownWithTheTitleOnTheFirstLine() {
    try (ServiceStandIn robot = ServiceStandIn.start(WecomTargetTest::wecom)) {
      target(robot.url(webhook())).send(ALERT).await();

      Request request = robot.request();
      assertThat(request.method()).isEqualTo("POST");
      assertThat(request.path()).isEqualTo("/cgi-bin/webhook/send");
      assertThat(request.query()).isEqualTo(Map.of("key", List.of(KEY)));
      assertThat(request.contentType()).isEqualTo("application/json");
      assertThat(request.json()).isEqualTo(new JsonObject().put("msgtype", "markdown")
          .put("markdown", new JsonObject().put("content", ALERT.title() + "\n" + ALERT.text())));
    }
  }

  @Test
  void wrongKeyIsAFailureNamingWecomsCodeWithoutTheKey() {
    String wrongKey = "0c3e5d7a-1111-4bc4-97a0-0ec2bd1f5bbb";
    try (ServiceStandIn robot = ServiceStandIn.start(WecomTargetTest::wecom)) {
      OutboundFailure failure = failure(target(robot.url("/cgi-bin/webhook/send?key=" + wrongKey)).send(ALERT));

      assertThat(failure.kind()).isEqualTo(OutboundFailure.Kind.REFUSED);
      assertThat(failure.getMessage()).startsWith("wecom refused the alert: errcode 93000, errmsg invalid webhook url")
          .doesNotContain(wrongKey);
    }
  }

  @Test
  void longTextIsCutBetweenCharactersToWecomsLimit() {
    String text = "😀".repeat(2000); // 4 bytes each: a cut anywhere else would split one
    try (ServiceStandIn robot = ServiceStandIn.start(WecomTargetTest::wecom)) {
      target(robot.url(webhook())).send(new Alert("kind", "t", text)).await();

      String content = robot.request().json().getJsonObject("markdown").getString("content");
      assertThat(content).endsWith("…").startsWith("t\n😀");
      assertThat(("t\n" + text)).startsWith(content.substring(0, content.length() - 1));
      assertThat(content.getBytes(StandardCharsets.UTF_8).length).isBetween(4096 - 3, 4096); // 2 + 4 × 1022 + 3
    }
  }

  @Test
  void contentOfExactlyTheLimitIsSentWhole() {
    String text = "a".repeat(4096 - "t\n".length());
    try (ServiceStandIn robot = ServiceStandIn.start(WecomTargetTest::wecom)) {
      target(robot.url(webhook())).send(new Alert("kind", "t", text)).await();

      assertThat(robot.request().json().getJsonObject("markdown").getString("content")).isEqualTo("t\n" + text);
    }
  }

  /** Markdown from elsewhere (an anomaly's detail) is shown as text: no link, no mention, no heading. */
  @Test
  void markdownInTextFromElsewhereIsShownAsText() {
    Alert alert = new AlertMessages(new AlertTexts("zh")).anomaly("unreadable_notification", "stripe", "PN1", "T1",
        2990L, "client_reference_id\n# [点此修复](https://wxpay-fix.cn/k) <@all> ![x](https://wxpay-fix.cn/i.png)");
    try (ServiceStandIn robot = ServiceStandIn.start(WecomTargetTest::wecom)) {
      target(robot.url(webhook())).send(alert).await();

      String content = robot.request().json().getJsonObject("markdown").getString("content");
      assertThat(content).contains("点此修复").doesNotContain("](").doesNotContain("<@").doesNotContain("\n#")
          .doesNotContain("![");
    }
  }
}
