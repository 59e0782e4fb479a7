package paynotify.channel.paddle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import paynotify.channel.NotifyChannel;
import paynotify.channel.NotifyRequest;
import paynotify.channel.RejectedNotification;
import paynotify.config.AppConfig;
import paynotify.config.ChannelsConfig;
import paynotify.testsupport.Notification;
import paynotify.testsupport.PaddleNotifications;
import paynotify.testsupport.PrivateFile;
import paynotify.testsupport.SyncCheck;

/** The paddle section: one secret's file or several, never both or neither, and what a wrong key says. */
class PaddleConfigTest {
  private static final String A = "pdl_ntfset_01hs0t3tw21j988db1pam5xg8m_firstSecretAAAAAAAAAAAAAAA";
  private static final String B = "pdl_ntfset_01hs0t3tw21j988db1pam5xg8m_secondSecretBBBBBBBBBBBBBB";

  @TempDir
  Path dir;

  @Test
  void offUntilSetAndTheHintSaysHow() {
    ChannelsConfig channels = AppConfig.from(new JsonObject(), "test.yaml", Map.of()).channels();
    assertThat(channels.disabled().get(PaddleChannel.PATH)).contains("paddle.webhook_secret_file")
        .contains("paddle.webhook_secrets_file").contains("paddle.currency");
    assertThat(channels(new JsonObject().put("webhook_secret_file", "").put("webhook_secrets_file", "")
        .put("currency", "").put("tolerance_seconds", 300)).disabled()).containsKey(PaddleChannel.PATH);
  }

  @Test
  void oneSecretsFileOrSeveralOneALine() throws Exception {
    Path one = PrivateFile.write(dir.resolve("paddle_secret"), A + "\n");
    assertVerifies(paddle(new JsonObject().put("webhook_secret_file", one.toString()).put("currency", "USD")), A);
    Path several = PrivateFile.write(dir.resolve("paddle_secrets"), A + "\n\n" + B + "\n");
    NotifyChannel rotating = paddle(new JsonObject().put("webhook_secrets_file", several.toString())
        .put("currency", "usd"));
    assertVerifies(rotating, A);
    assertVerifies(rotating, B);
    assertThatThrownBy(() -> assertVerifies(rotating, PaddleNotifications.OTHER_SECRET))
        .isInstanceOf(RejectedNotification.class);
  }

  @Test
  void theSecretFromTheEnvironment() throws Exception {
    NotifyChannel paddle = AppConfig.from(new JsonObject().put("paddle", new JsonObject().put("currency", "USD")),
        "test.yaml", Map.of("PAYNOTIFY_PADDLE_WEBHOOK_SECRET", A)).channels().enabled().stream()
        .filter(c -> c.path().equals(PaddleChannel.PATH)).findFirst().orElseThrow();
    assertVerifies(paddle, A);
  }

  @Test
  void neitherOrBothSecretsNameTheKeysAndNeverTheSecret() {
    Path one = PrivateFile.write(dir.resolve("a"), A);
    Path several = PrivateFile.write(dir.resolve("b"), A + "\n" + B);
    assertThatThrownBy(() -> channels(new JsonObject().put("currency", "USD")))
        .hasMessageContaining("paddle.webhook_secret_file: missing").hasMessageContaining("paddle.webhook_secrets_file");
    assertThatThrownBy(() -> channels(new JsonObject().put("webhook_secret_file", one.toString())
        .put("webhook_secrets_file", several.toString()).put("currency", "USD")))
        .hasMessageContaining("paddle.webhook_secret_file").hasMessageContaining("paddle.webhook_secrets_file")
        .hasMessageContaining("not both").hasMessageNotContaining(A);
    assertThatThrownBy(() -> channels(new JsonObject().put("webhook_secret_file", one.toString())))
        .hasMessageContaining("paddle.currency: missing");
    assertThatThrownBy(() -> channels(new JsonObject().put("webhook_secret_file", one.toString())
        .put("currency", "dollars"))).hasMessageContaining("paddle.currency: 'dollars' is not");
    assertThatThrownBy(() -> channels(new JsonObject().put("webhook_secret_file", one.toString()).put("currency", "USD")
        .put("tolerance_seconds", 0))).hasMessageContaining("paddle.tolerance_seconds");
  }

  // Paddle retries for 3 days, perhaps under the first attempt's ts: a window that long may be chosen, no longer.
  @Test
  void theToleranceMayCoverPaddlesThreeDaysOfRetries() throws Exception {
    Path one = PrivateFile.write(dir.resolve("a"), A);
    JsonObject paddle = new JsonObject().put("webhook_secret_file", one.toString()).put("currency", "USD");
    assertThat(paddle(paddle.copy().put("tolerance_seconds", 259_200)).path()).isEqualTo(PaddleChannel.PATH);
    assertThatThrownBy(() -> channels(paddle.copy().put("tolerance_seconds", 259_201)))
        .hasMessageContaining("paddle.tolerance_seconds");
  }

  private static ChannelsConfig channels(JsonObject paddle) {
    return AppConfig.from(new JsonObject().put("paddle", paddle), "test.yaml", Map.of()).channels();
  }

  private static NotifyChannel paddle(JsonObject paddle) {
    return channels(paddle).enabled().stream().filter(c -> c.path().equals(PaddleChannel.PATH)).findFirst()
        .orElseThrow();
  }

  /** An event the channel ignores (so only the signature is at stake), signed now with {@code secret}. */
  private static void assertVerifies(NotifyChannel paddle, String secret) throws RejectedNotification {
    Notification n = PaddleNotifications.signed(PaddleNotifications.event("evt_1", "customer.created",
        new JsonObject()).encode(), System.currentTimeMillis() / 1000, secret);
    SyncCheck.event(paddle, new NotifyRequest("POST", MultiMap.caseInsensitiveMultiMap().addAll(n.headers()), null,
        Buffer.buffer(n.body())));
  }
}
