package paynotify.channel.stripe;

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
import paynotify.testsupport.PrivateFile;
import paynotify.testsupport.SyncCheck;

/** The stripe section: which secrets are read from where, and what a half-set or wrong one says. */
class StripeConfigTest {
  private static final String A = "whsec_first_secret_aaaaaaaaaaaaaaaa";
  private static final String B = "whsec_second_secret_bbbbbbbbbbbbbbb";

  @TempDir
  Path dir;

  @Test
  void offUntilSetAndTheHintSaysHow() {
    ChannelsConfig channels = AppConfig.from(new JsonObject(), "test.yaml", Map.of()).channels();
    assertThat(channels.enabled()).noneMatch(c -> c.path().equals("/notify/stripe"));
    assertThat(channels.disabled().get("/notify/stripe"))
        .contains("stripe.webhook_secrets_file (or PAYNOTIFY_STRIPE_WEBHOOK_SECRET) and stripe.currency");
    // the defaults of the section alone switch nothing on
    assertThat(channels(stripe().put("webhook_secrets_file", "").put("currency", "").put("tolerance_seconds", 300),
        Map.of()).disabled()).containsKey("/notify/stripe");
  }

  @Test
  void secretsFileOneALineBothAccepted() throws Exception {
    Path file = PrivateFile.write(dir.resolve("stripe_secrets"), A + "\n" + B + "\n");
    NotifyChannel stripe = stripeChannel(stripe().put("webhook_secrets_file", file.toString()).put("currency", "USD"),
        Map.of());
    assertVerifies(stripe, A);
    assertVerifies(stripe, B);
    assertThatThrownBy(() -> assertVerifies(stripe, "whsec_not_configured")).isInstanceOf(RejectedNotification.class);
  }

  @Test
  void environmentCommaOrNewlineSeparated() throws Exception {
    for (String value : new String[] {A + "," + B, A + "\n" + B, " " + A + " , " + B + " "}) {
      NotifyChannel stripe = stripeChannel(stripe().put("currency", "usd"),
          Map.of("PAYNOTIFY_STRIPE_WEBHOOK_SECRET", value));
      assertVerifies(stripe, A);
      assertVerifies(stripe, B);
    }
  }

  @Test
  void misconfigurationsNameTheKeyAndNeverTheSecret() throws Exception {
    Path file = PrivateFile.write(dir.resolve("s"), A + "\nsk_live_notawebhooksecret\n");
    assertThatThrownBy(() -> channels(stripe().put("webhook_secrets_file", file.toString()).put("currency", "usd"),
        Map.of()))
        .hasMessageContaining("stripe.webhook_secrets_file: entry 2 is not a webhook signing secret (whsec_...)")
        .hasMessageNotContaining("sk_live");
    assertThatThrownBy(() -> channels(stripe().put("currency", "usd"), Map.of()))
        .hasMessageContaining("stripe.webhook_secrets_file: missing");
    assertThatThrownBy(() -> channels(stripe(), Map.of("PAYNOTIFY_STRIPE_WEBHOOK_SECRET", A)))
        .hasMessageContaining("stripe.currency: missing");
    assertThatThrownBy(() -> channels(stripe().put("currency", "dollars"), Map.of("PAYNOTIFY_STRIPE_WEBHOOK_SECRET", A)))
        .hasMessageContaining("stripe.currency: 'dollars' is not a three-letter currency code");
    assertThatThrownBy(() -> channels(stripe().put("webhook_secrets_file", file.toString()).put("currency", "usd"),
        Map.of("PAYNOTIFY_STRIPE_WEBHOOK_SECRET", A)))
        .hasMessageContaining("not both").hasMessageNotContaining(A);
  }

  private static JsonObject stripe() {
    return new JsonObject();
  }

  private static ChannelsConfig channels(JsonObject stripe, Map<String, String> env) {
    return AppConfig.from(new JsonObject().put("stripe", stripe), "test.yaml", env).channels();
  }

  private static NotifyChannel stripeChannel(JsonObject stripe, Map<String, String> env) {
    return channels(stripe, env).enabled().stream().filter(c -> c.path().equals("/notify/stripe")).findFirst()
        .orElseThrow();
  }

  /** An event the channel ignores (so only the signature is at stake), signed now with {@code secret}. */
  private static void assertVerifies(NotifyChannel stripe, String secret) throws RejectedNotification {
    byte[] body = "{\"id\":\"evt_1\",\"type\":\"customer.created\",\"created\":1,\"data\":{\"object\":{}}}"
        .getBytes(StandardCharsets.UTF_8);
    SyncCheck.event(stripe, signed(body, secret));
  }

  // Review S5: test-mode money is refused unless the operator said this instance takes it.
  @Test
  void testModeEventsOnlyWithTestModeTrueAndThenMarkedAsTestMoney() throws Exception {
    byte[] body = ("{\"id\":\"evt_t\",\"type\":\"checkout.session.completed\",\"created\":1,\"livemode\":false,"
        + "\"data\":{\"object\":{\"payment_status\":\"paid\",\"payment_intent\":\"pi_T\","
        + "\"client_reference_id\":\"T1\",\"amount_total\":100,\"currency\":\"usd\"}}}")
        .getBytes(StandardCharsets.UTF_8);
    NotifyChannel live = stripeChannel(stripe().put("currency", "usd"), Map.of("PAYNOTIFY_STRIPE_WEBHOOK_SECRET", A));
    NotifyChannel test = stripeChannel(stripe().put("currency", "usd").put("test_mode", true),
        Map.of("PAYNOTIFY_STRIPE_WEBHOOK_SECRET", A));

    assertThatThrownBy(() -> SyncCheck.event(live, signed(body, A))).isInstanceOf(RejectedNotification.class)
        .hasMessageContaining("stripe.test_mode");
    assertThat(SyncCheck.event(test, signed(body, A)).testMode()).isTrue();
    assertThatThrownBy(() -> channels(stripe().put("currency", "usd").put("test_mode", "yes please"),
        Map.of("PAYNOTIFY_STRIPE_WEBHOOK_SECRET", A))).hasMessageContaining("stripe.test_mode");
  }

  private static NotifyRequest signed(byte[] body, String secret) {
    long t = System.currentTimeMillis() / 1000;
    MultiMap headers = MultiMap.caseInsensitiveMultiMap()
        .add(StripeSignature.HEADER, StripeSignature.header(t, body, secret));
    return new NotifyRequest("POST", headers, null, Buffer.buffer(body));
  }
}
