package paynotify.alert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.vertx.core.json.JsonObject;
import io.vertx.core.net.ProxyOptions;
import io.vertx.core.net.ProxyType;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import paynotify.alert.ServiceStandIn.Reply;
import paynotify.alert.ServiceStandIn.Request;
import paynotify.net.OutboundFailure;
import paynotify.net.OutboundHttp;

/** TelegramTarget against a stand-in of the Bot API's sendMessage, over real HTTP, directly and through a proxy. */
class TelegramTargetTest extends TargetContract {
  private static final String TOKEN = "7012345678:AAHk3vQp9_xYz-0aBcDeFgHiJkLmNoPqRsT";
  private static final String CHAT_ID = "-1001987654321";

  @Override
  AlertTarget target(URI base) {
    return new TelegramTarget(http, base, TOKEN, CHAT_ID);
  }

  @Override
  List<String> secrets() {
    return List.of(TOKEN);
  }

  /** sendMessage as Telegram answers it: the token, then the chat, then the text's length. */
  private static Reply telegram(Request request) {
    if (!request.path().equals("/bot" + TOKEN + "/sendMessage")) {
      return error(401, "Unauthorized");
    }
    JsonObject message = request.json();
    if (!CHAT_ID.equals(message.getString("chat_id"))) {
      return error(400, "Bad Request: chat not found");
    }
    if (message.getString("text").length() > 4096) {
      return error(400, "Bad Request: message is too long");
    }
    return Reply.json(200, new JsonObject().put("ok", true).put("result", new JsonObject().put("message_id", 42)
        .put("chat", new JsonObject().put("id", Long.parseLong(CHAT_ID))).put("text", message.getString("text"))));
  }

  private static Reply error(int code, String description) {
    return Reply.json(code, new JsonObject().put("ok", false).put("error_code", code).put("description", description));
  }

  @Test
  void alertIsSentAsPlainTextWithoutLinkPreview() {
    try (ServiceStandIn telegram = ServiceStandIn.start(TelegramTargetTest::telegram)) {
      target(telegram.url()).send(ALERT).await();

      Request request = telegram.post("/bot" + TOKEN + "/sendMessage", "application/json");
      assertThat(request.json()).isEqualTo(new JsonObject().put("chat_id", CHAT_ID)
          .put("text", ALERT.title() + "\n\n" + ALERT.text())
          .put("link_preview_options", new JsonObject().put("is_disabled", true)));
    }
  }

  @Test
  void wrongTokenIsAFailureNamingTelegramsErrorWithoutTheToken() {
    String wrongToken = "7012345678:AAFwrongwrongwrongwrongwrongwrong00";
    try (ServiceStandIn telegram = ServiceStandIn.start(TelegramTargetTest::telegram)) {
      OutboundFailure failure = failure(new TelegramTarget(http, telegram.url(), wrongToken, CHAT_ID).send(ALERT));

      assertThat(failure.kind()).isEqualTo(OutboundFailure.Kind.REFUSED);
      assertThat(failure.getMessage())
          .isEqualTo("telegram answered HTTP 401: error_code 401, description Unauthorized")
          .doesNotContain(wrongToken);
    }
  }

  @Test
  void floodControlIsAFailureSayingWhenToTryAgain() {
    try (ServiceStandIn telegram = ServiceStandIn.start(r -> Reply.json(429, new JsonObject().put("ok", false)
        .put("error_code", 429).put("description", "Too Many Requests: retry after 17")
        .put("parameters", new JsonObject().put("retry_after", 17))))) {
      OutboundFailure failure = failure(target(telegram.url()).send(ALERT));

      assertThat(failure.kind()).isEqualTo(OutboundFailure.Kind.UNAVAILABLE);
      assertThat(failure.getMessage()).isEqualTo("telegram answered HTTP 429: error_code 429, "
          + "description Too Many Requests: retry after 17, retry_after 17 s");
    }
  }

  @Test
  void longTextIsCutBetweenCharactersToTelegramsLimit() {
    String text = "😀".repeat(3000); // two UTF-16 units each: a cut anywhere else would split one
    try (ServiceStandIn telegram = ServiceStandIn.start(TelegramTargetTest::telegram)) {
      target(telegram.url()).send(new Alert("kind", "t", text)).await();

      String sent = telegram.request().json().getString("text");
      assertThat(sent).startsWith("t\n\n😀").endsWith("😀…").hasSize(4096); // 3 + 2 × 2046 + "…"
    }
  }

  @Test
  void textOfExactlyTheLimitIsSentWhole() {
    String text = "a".repeat(4096 - "t\n\n".length());
    try (ServiceStandIn telegram = ServiceStandIn.start(TelegramTargetTest::telegram)) {
      target(telegram.url()).send(new Alert("kind", "t", text)).await();

      assertThat(telegram.request().json().getString("text")).isEqualTo("t\n\n" + text);
    }
  }

  /**
   * From mainland China Telegram is reached through a proxy only. The API's host here does not resolve (.invalid):
   * the request can only have gone through the proxy, which receives it in absolute form and answers as Telegram.
   */
  @Test
  void requestGoesThroughTheProxy() {
    try (ServiceStandIn proxy = ServiceStandIn.start(TelegramTargetTest::telegram)) {
      OutboundHttp proxied = new OutboundHttp(vertx, new OutboundHttp.Limits(Duration.ofSeconds(5), 64 * 1024)
          .through(new ProxyOptions().setType(ProxyType.HTTP).setHost("127.0.0.1").setPort(proxy.port())));

      new TelegramTarget(proxied, URI.create("http://api.telegram.invalid"), TOKEN, CHAT_ID).send(ALERT).await();

      Request request = proxy.request();
      assertThat(request.method()).isEqualTo("POST");
      assertThat(request.uri()).isEqualTo(URI.create("http://api.telegram.invalid/bot" + TOKEN + "/sendMessage"));
      assertThat(request.json().getString("text")).isEqualTo(ALERT.title() + "\n\n" + ALERT.text());
      proxied.close().await();
    }
  }

  @Test
  void tokenNotShapedAsBotFathersIsRefusedWithoutShowingIt() {
    String pasted = "bot" + TOKEN + " ";
    IllegalArgumentException refused = catchThrowableOfType(IllegalArgumentException.class,
        () -> new TelegramTarget(http, URI.create("https://api.telegram.org"), pasted, CHAT_ID));

    assertThat(refused.getMessage()).doesNotContain(TOKEN);
  }
}
