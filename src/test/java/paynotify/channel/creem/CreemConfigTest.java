package paynotify.channel.creem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import paynotify.channel.NotifyChannel;
import paynotify.channel.NotifyEvent;
import paynotify.channel.NotifyRequest;
import paynotify.channel.RejectedNotification;
import paynotify.config.AppConfig;
import paynotify.config.ChannelsConfig;
import paynotify.config.ConfigException;
import paynotify.testsupport.CreemNotifications;
import paynotify.testsupport.Notification;
import paynotify.testsupport.PrivateFile;
import paynotify.testsupport.SyncCheck;

/** The creem section: off until set, the secret from its file or the environment, what a wrong one says. */
class CreemConfigTest {
  @TempDir
  Path dir;

  private static ChannelsConfig channels(JsonObject creem, Map<String, String> env) {
    return AppConfig.from(new JsonObject().put("creem", creem), "test.yaml", env).channels();
  }

  private static NotifyChannel creem(JsonObject creem, Map<String, String> env) {
    return channels(creem, env).enabled().stream().filter(c -> c.path().equals(CreemChannel.PATH)).findFirst()
        .orElseThrow();
  }

  private static NotifyEvent check(NotifyChannel channel, Notification n) throws RejectedNotification {
    MultiMap headers = MultiMap.caseInsensitiveMultiMap();
    n.headers().forEach(headers::add);
    return SyncCheck.event(channel, new NotifyRequest("POST", headers, null, Buffer.buffer(n.body())));
  }

  private static Notification paid(String mode) {
    JsonObject checkout = CreemNotifications.checkout("CC1", "ord_CC1", 100, "usd").put("mode", mode);
    return CreemNotifications.signed(CreemNotifications.event("evt_cc1", "checkout.completed", checkout));
  }

  @Test
  void offUntilSetAndTheHintSaysHow() {
    assertThat(channels(new JsonObject(), Map.of()).disabled().get(CreemChannel.PATH))
        .contains("creem.webhook_secret_file (or PAYNOTIFY_CREEM_WEBHOOK_SECRET) and creem.currency");
    // the shipped section as it is switches nothing on
    assertThat(channels(new JsonObject().put("webhook_secret_file", "").put("currency", "").put("test_mode", false),
        Map.of()).disabled()).containsKey(CreemChannel.PATH);
  }

  @Test
  void theSecretFromItsFileOrTheEnvironmentAndTheCurrencyInAnyCase() throws Exception {
    Path file = PrivateFile.write(dir.resolve("creem_secret"), CreemNotifications.SECRET + "\n");
    NotifyEvent fromFile = check(creem(new JsonObject().put("webhook_secret_file", file.toString())
        .put("currency", "USD"), Map.of()), paid("prod"));
    assertThat(fromFile.foreignCurrency()).isNull(); // "usd" in the event, USD configured
    NotifyEvent fromEnv = check(creem(new JsonObject().put("currency", "usd"),
        Map.of("PAYNOTIFY_CREEM_WEBHOOK_SECRET", CreemNotifications.SECRET)), paid("prod"));
    assertThat(fromEnv.orderNo()).isEqualTo("CC1");
    assertThat(fromEnv.testMode()).isFalse();
  }

  @Test
  void testModeEventsAreTestMoneyOnlyWhereAllowed() throws Exception {
    JsonObject section = new JsonObject().put("webhook_secret", CreemNotifications.SECRET).put("currency", "USD");
    assertThatThrownBy(() -> check(creem(section, Map.of()), paid("test"))).isInstanceOf(RejectedNotification.class)
        .hasMessageContaining("creem.test_mode");
    assertThat(check(creem(section.copy().put("test_mode", true), Map.of()), paid("test")).testMode()).isTrue();
    assertThat(check(creem(section.copy().put("test_mode", true), Map.of()), paid("prod")).testMode()).isFalse();
  }

  @Test
  void halfSetOrAWrongCurrencyStopsTheStart() {
    assertThatThrownBy(() -> channels(new JsonObject().put("currency", "USD"), Map.of()))
        .isInstanceOf(ConfigException.class).hasMessageContaining("creem.webhook_secret_file: missing");
    assertThatThrownBy(() -> channels(new JsonObject(), Map.of("PAYNOTIFY_CREEM_WEBHOOK_SECRET", "whsec_x")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("creem.currency: missing");
    assertThatThrownBy(() -> channels(new JsonObject().put("currency", "dollars"),
        Map.of("PAYNOTIFY_CREEM_WEBHOOK_SECRET", "whsec_x"))).isInstanceOf(ConfigException.class)
        .hasMessageContaining("creem.currency: 'dollars' is not a three-letter currency code");
  }

  /** The names of the platform queries recovery asks, with {@code keys} over a live section. */
  private static List<String> asked(JsonObject keys, Map<String, String> env) {
    JsonObject creem = new JsonObject().put("webhook_secret", CreemNotifications.SECRET).put("currency", "USD");
    return AppConfig.from(new JsonObject().put("creem", creem.mergeIn(keys)), "test.yaml", env).recovery().clients()
        .stream().map(client -> client.apply(null).name()).toList();
  }

  /** Opt-in by the account's key, from its file or the environment, sent to Creem's own hosts only. */
  @Test
  void checkoutsAreAskedWithTheApiKeyOfCreemsLiveOrTestHost() throws Exception {
    assertThat(asked(new JsonObject(), Map.of())).isEmpty();
    Path file = PrivateFile.write(dir.resolve("creem_api_key"), "creem_1Jq3fLcKz0123456789\n");
    assertThat(asked(new JsonObject().put("api_key_file", file.toString()), Map.of()))
        .containsExactly("creem checkout");
    assertThat(asked(new JsonObject().put("api_base", "https://test-api.creem.io"),
        Map.of("PAYNOTIFY_CREEM_API_KEY", "creem_test_1Jq3fLcKz0123456789"))).containsExactly("creem checkout");

    assertThatThrownBy(() -> asked(new JsonObject().put("api_key", "creem_1Jq3").put("api_base",
        "https://api.creem.io.example.net"), Map.of()))
        .hasMessageContaining("creem.api_base: 'https://api.creem.io.example.net' is not Creem's API");
    assertThatThrownBy(() -> asked(new JsonObject().put("api_key", "creem_1Jq3").put("api_base",
        "http://api.creem.io"), Map.of())).hasMessageContaining("creem.api_base: 'http://api.creem.io' must be https");
  }
}
