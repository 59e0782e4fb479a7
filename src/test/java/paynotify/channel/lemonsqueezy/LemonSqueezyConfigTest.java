package paynotify.channel.lemonsqueezy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import paynotify.channel.NotifyChannel;
import paynotify.channel.NotifyRequest;
import paynotify.channel.RejectedNotification;
import paynotify.config.AppConfig;
import paynotify.config.ChannelsConfig;
import paynotify.testsupport.LemonSqueezyNotifications;
import paynotify.testsupport.PrivateFile;
import paynotify.testsupport.SyncCheck;

/** The lemonsqueezy section: where the secret is read from, and what a half-set or wrong section says. */
class LemonSqueezyConfigTest {
  private static final String SECRET = "a_signing_secret_of_ours";

  @TempDir
  Path dir;

  @Test
  void offUntilSetAndTheHintSaysHow() {
    ChannelsConfig channels = AppConfig.from(new JsonObject(), "test.yaml", Map.of()).channels();
    assertThat(channels.disabled().get(LemonSqueezyChannel.PATH)).contains("lemonsqueezy.signing_secret_file (or"
        + " PAYNOTIFY_LEMONSQUEEZY_SIGNING_SECRET), lemonsqueezy.store_id and lemonsqueezy.currency");
    // the shipped section's empty values switch nothing on
    assertThat(channels(section().put("signing_secret_file", "").put("store_id", "").put("currency", "")
        .put("test_mode", false), Map.of()).disabled()).containsKey(LemonSqueezyChannel.PATH);
  }

  @Test
  void theSecretFromItsFileOrTheEnvironmentVerifies() throws Exception {
    Path file = PrivateFile.write(dir.resolve("lemonsqueezy_signing_secret"), SECRET + "\n");
    JsonObject fromFile = section().put("signing_secret_file", file.toString()).put("store_id", "31415")
        .put("currency", "usd");
    assertVerifies(channel(fromFile, Map.of()));
    assertVerifies(channel(section().put("store_id", "31415").put("currency", "USD"),
        Map.of("PAYNOTIFY_LEMONSQUEEZY_SIGNING_SECRET", SECRET)));
  }

  @Test
  void misconfigurationsNameTheKeyAndNeverTheSecret() {
    Map<String, String> env = Map.of("PAYNOTIFY_LEMONSQUEEZY_SIGNING_SECRET", SECRET);
    assertThatThrownBy(() -> channels(section().put("store_id", "31415").put("currency", "USD"), Map.of()))
        .hasMessageContaining("lemonsqueezy.signing_secret_file: missing");
    assertThatThrownBy(() -> channels(section().put("currency", "USD"), env))
        .hasMessageContaining("lemonsqueezy.store_id: missing").hasMessageNotContaining(SECRET);
    assertThatThrownBy(() -> channels(section().put("store_id", "31415"), env))
        .hasMessageContaining("lemonsqueezy.currency: missing");
    assertThatThrownBy(() -> channels(section().put("store_id", "my-store").put("currency", "USD"), env))
        .hasMessageContaining("lemonsqueezy.store_id: 'my-store' is not a store's number");
    assertThatThrownBy(() -> channels(section().put("store_id", "31415").put("currency", "dollars"), env))
        .hasMessageContaining("lemonsqueezy.currency: 'dollars' is not a three-letter currency code");
    assertThatThrownBy(() -> channels(section().put("store_id", "31415").put("currency", "USD")
        .put("test_mode", "sometimes"), env)).hasMessageContaining("lemonsqueezy.test_mode");
  }

  private static JsonObject section() {
    return new JsonObject();
  }

  private static ChannelsConfig channels(JsonObject section, Map<String, String> env) {
    return AppConfig.from(new JsonObject().put("lemonsqueezy", section), "test.yaml", env).channels();
  }

  private static NotifyChannel channel(JsonObject section, Map<String, String> env) {
    return channels(section, env).enabled().stream().filter(c -> c.path().equals(LemonSqueezyChannel.PATH))
        .findFirst().orElseThrow();
  }

  /** A subscription event (so only the signature and the store are at stake), signed with {@link #SECRET}. */
  private static void assertVerifies(NotifyChannel channel) throws RejectedNotification {
    byte[] body = LemonSqueezyNotifications.event("subscription_created", null,
        LemonSqueezyNotifications.order("1", 100, "USD")).encode().getBytes(StandardCharsets.UTF_8);
    MultiMap headers = MultiMap.caseInsensitiveMultiMap()
        .add("X-Signature", LemonSqueezyNotifications.signature(body, SECRET));
    SyncCheck.event(channel, new NotifyRequest("POST", headers, null, Buffer.buffer(body)));
  }
}
