package paynotify.alert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import paynotify.alert.ServiceStandIn.Reply;
import paynotify.alert.ServiceStandIn.Request;
import paynotify.net.OutboundFailure;

/** ServerChanTarget against a stand-in of Server酱 Turbo's {@code <SendKey>.send}, over real HTTP. */
class ServerChanTargetTest extends TargetContract {
  private static final String SENDKEY = "SCT218764TxQ3mVbA9kLpZr2sNfWd0hE";

  @Override
  AlertTarget target(URI base) {
    return new ServerChanTarget(http, base, SENDKEY);
  }

  @Override
  List<String> secrets() {
    return List.of(SENDKEY);
  }

  /** Server酱 as it answers: a SendKey it knows, a title within 32 characters. */
  private static Reply serverChan(Request request) {
    if (!request.path().equals("/" + SENDKEY + ".send")) {
      return Reply.json(200, new JsonObject().put("code", 40001).put("message", "bad pushtoken").putNull("data"));
    }
    return Reply.json(200, new JsonObject().put("code", 0).put("message", "").put("data", new JsonObject()
        .put("pushid", "187342017").put("readkey", "SCTPq8vKd2MzT3A").put("error", "SUCCESS").put("errno", 0)));
  }

  @Test
  void alertIsPostedAsAFormOfTitleAndDesp() {
    try (ServiceStandIn serverChan = ServiceStandIn.start(ServerChanTargetTest::serverChan)) {
      target(serverChan.url()).send(ALERT).await();

      Request request = serverChan.post("/" + SENDKEY + ".send", "application/x-www-form-urlencoded");
      assertThat(request.form()).isEqualTo(Map.of("title", List.of(ALERT.title()), "desp", List.of(ALERT.text())));
    }
  }

  @Test
  void wrongSendKeyIsAFailureNamingServerChansCodeWithoutTheKey() {
    String wrongKey = "SCT218764TwrongwrongwrongwrongXX";
    try (ServiceStandIn serverChan = ServiceStandIn.start(ServerChanTargetTest::serverChan)) {
      OutboundFailure failure = failure(new ServerChanTarget(http, serverChan.url(), wrongKey).send(ALERT));

      assertThat(failure.kind()).isEqualTo(OutboundFailure.Kind.REFUSED);
      assertThat(failure.getMessage()).isEqualTo("serverchan refused the alert: code 40001, message bad pushtoken")
          .doesNotContain(wrongKey);
    }
  }

  @Test
  void longTitleAndDespAreCutToServerChansLimits() {
    String title = "支付异常：".repeat(10); // 50 characters
    String desp = "单".repeat(12_000); // 36,000 bytes in UTF-8
    try (ServiceStandIn serverChan = ServiceStandIn.start(ServerChanTargetTest::serverChan)) {
      target(serverChan.url()).send(new Alert("kind", title, desp)).await();

      Map<String, List<String>> form = serverChan.request().form();
      assertThat(form.get("title").get(0)).isEqualTo(title.substring(0, 31) + "…");
      String sent = form.get("desp").get(0);
      assertThat(sent.equals("单".repeat(10_921) + "…")).as("desp cut to 10,921 characters and …").isTrue();
      assertThat(sent.getBytes(StandardCharsets.UTF_8).length).isEqualTo(32 * 1024 - 2); // 3 × 10,921 + 3
    }
  }

  /** The official serverchan-sdk's rule: sctp<uid>t... is Server酱³'s, sent to that uid's host. */
  @Test
  void serverChan3SendKeyGoesToItsOwnHost() {
    URI turbo = URI.create("https://sctapi.ftqq.com");

    assertThat(ServerChanTarget.url(turbo, "sctp4711tAbCdEf012345"))
        .isEqualTo(URI.create("https://4711.push.ft07.com/send/sctp4711tAbCdEf012345.send"));
    assertThat(ServerChanTarget.url(turbo, SENDKEY))
        .isEqualTo(URI.create("https://sctapi.ftqq.com/" + SENDKEY + ".send"));
  }

  @Test
  void malformedServerChan3SendKeyIsRefusedWithoutShowingIt() {
    IllegalArgumentException refused = catchThrowableOfType(IllegalArgumentException.class,
        () -> new ServerChanTarget(http, URI.create("https://sctapi.ftqq.com"), "sctpAbCdEf012345"));

    assertThat(refused.getMessage()).doesNotContain("AbCdEf012345");
  }
}
