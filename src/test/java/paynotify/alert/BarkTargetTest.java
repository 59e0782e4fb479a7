package paynotify.alert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import paynotify.alert.ServiceStandIn.Reply;
import paynotify.alert.ServiceStandIn.Request;
import paynotify.net.OutboundFailure;

/** BarkTarget against a stand-in of bark-server's {@code POST /push} (API v2), over real HTTP. */
class BarkTargetTest extends TargetContract {
  private static final String DEVICE_KEY = "nXq3bT8vKd2MzRw7yL4pHc";

  @Override
  AlertTarget target(URI base) {
    return new BarkTarget(http, base, DEVICE_KEY, "paynotify", "timeSensitive");
  }

  @Override
  List<String> secrets() {
    return List.of(DEVICE_KEY);
  }

  /** bark-server as it answers: an unknown device key is a 400 that repeats the key. */
  private static Reply bark(Request request) {
    String key = request.json().getString("device_key");
    if (!DEVICE_KEY.equals(key)) {
      return Reply.json(400, new JsonObject().put("code", 400).put("timestamp", 1764843330L)
          .put("message", "failed to get device token: failed to get [" + key + "] device token from database"));
    }
    return Reply.json(200, new JsonObject().put("code", 200).put("message", "success").put("timestamp", 1764843330L));
  }

  @Test
  void alertIsPostedAsJsonWithTheKeyInTheBody() {
    try (ServiceStandIn bark = ServiceStandIn.start(BarkTargetTest::bark)) {
      target(bark.url()).send(ALERT).await();

      Request request = bark.post("/push", "application/json");
      assertThat(request.json()).isEqualTo(new JsonObject().put("device_key", DEVICE_KEY).put("title", ALERT.title())
          .put("body", ALERT.text()).put("group", "paynotify").put("level", "timeSensitive"));
    }
  }

  @Test
  void unknownDeviceKeyIsAFailureNamingBarksCodeWithoutTheKey() {
    String wrongKey = "wR0ngKeyFromAnOldPhone1";
    try (ServiceStandIn bark = ServiceStandIn.start(BarkTargetTest::bark)) {
      OutboundFailure failure = failure(new BarkTarget(http, bark.url(), wrongKey, "shop", "active").send(ALERT));

      assertThat(failure.kind()).isEqualTo(OutboundFailure.Kind.REFUSED);
      assertThat(failure.getMessage()).startsWith("bark answered HTTP 400: code 400, message failed to get device")
          .doesNotContain(wrongKey);
    }
  }

  @Test
  void longBodyIsCutToLeaveRoomInApnsPayload() {
    String text = "单".repeat(2000); // 6,000 bytes in UTF-8
    try (ServiceStandIn bark = ServiceStandIn.start(BarkTargetTest::bark)) {
      target(bark.url()).send(new Alert("kind", "t", text)).await();

      String body = bark.request().json().getString("body");
      assertThat(body.equals("单".repeat(1023) + "…")).as("body cut to 1,023 characters and …").isTrue();
      assertThat(body.getBytes(StandardCharsets.UTF_8).length).isEqualTo(3 * 1024); // 3 × 1,023 + 3
    }
  }

  @Test
  void levelBarkDoesNotKnowIsRefused() {
    IllegalArgumentException refused = catchThrowableOfType(IllegalArgumentException.class,
        () -> new BarkTarget(http, URI.create("https://api.day.app"), DEVICE_KEY, "paynotify", "urgent"));

    assertThat(refused.getMessage()).contains("'urgent'").doesNotContain(DEVICE_KEY);
  }
}
