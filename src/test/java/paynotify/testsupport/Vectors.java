package paynotify.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import paynotify.channel.NotifyChannel;
import paynotify.channel.NotifyEvent;
import paynotify.channel.NotifyRequest;
import paynotify.channel.RejectedNotification;

/** The shared test vectors (src/test/resources/vectors, a copy of shared/vectors). */
public final class Vectors {
  private Vectors() {}

  public static JsonObject load(String channel) {
    try (InputStream in = Vectors.class.getResourceAsStream("/vectors/" + channel + ".json")) {
      return new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException | NullPointerException e) {
      throw new IllegalStateException("vectors for " + channel + " not found", e);
    }
  }

  /**
   * The vector's verdict: a channel refuses an invalid case, and turns a valid one into the
   * listed order_no, trade_no, amount_cents, event_kind, channel status and refund_no.
   */
  public static void assertVerdict(NotifyChannel channel, NotifyRequest request, JsonObject expect) {
    if (!expect.getBoolean("valid")) {
      assertThatThrownBy(() -> SyncCheck.event(channel, request)).isInstanceOf(RejectedNotification.class);
      return;
    }
    NotifyEvent e;
    try {
      e = SyncCheck.event(channel, request);
    } catch (RejectedNotification r) {
      throw new AssertionError("rejected a valid vector: " + r.getMessage(), r);
    }
    JsonObject n = expect.getJsonObject("normalized");
    assertThat(e.orderNo()).isEqualTo(n.getString("order_no"));
    assertThat(e.tradeNo()).isEqualTo(n.getString("trade_no"));
    assertThat(e.amountCents()).isEqualTo(n.getLong("amount_cents"));
    assertThat(e.kind().name().toLowerCase()).isEqualTo(n.getString("event_kind"));
    assertThat(e.platformStatus()).isEqualTo(n.getString("channel_status"));
    if (n.containsKey("refund_no")) {
      assertThat(e.refund().refundNo()).isEqualTo(n.getString("refund_no"));
    }
  }

  public static List<JsonObject> cases(JsonObject file) {
    JsonArray cases = file.getJsonArray("cases");
    return cases.stream().map(JsonObject.class::cast).toList();
  }
}
