package paynotify.doctor;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import paynotify.testsupport.PrivateFile;

/**
 * The string keys of Paddle, Stripe, Creem, Lemon Squeezy and TokenPay against where they are used, read from the
 * settings as the doctor reads them (the file with PAYNOTIFY_* over it), their files through SecretFiles: a finding
 * says the prefix of a key at most, never the rest of it.
 */
class KeyShapesTest {
  /** What follows each platform's prefix in the keys here: no finding may print it. */
  private static final String BODY = "01hv8x9zq3kx2m7c5n1b4p6r8tXq9Zr4Wm2Kp7Lk3Jh5Gf";
  private static final String DESTINATION = "ntfset_01hv8x9zq3kx2m7c5n1b4p6r8t";
  private static final String SECRET = "pdl_ntfset_01hv8x9zq3kx2m7c5n1b4p6r8t_" + BODY;
  private static final String JWT = "eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.eyJhdWQiOiI5NGQ1OWNlZi1kYmI4IiwianRpIjoiY2Fm"
      + "YzkxMzciLCJzdWIiOiI1NjU2NDYzIiwic2NvcGVzIjpbXX0.byF15AAjdAfamvffPPBKIePTHsUACsciWWwhdFdos-lLI_pDL0UOxsHx";

  @TempDir
  Path dir;

  @Test
  void aPaddleSandboxKeyAskingTheLiveApiIsAFinding() {
    Checkup c = doctor(new JsonObject().put("paddle", new JsonObject()
        .put("api_key_file", file("pdl_sdbx_apikey_" + BODY)).put("notification_setting_id", DESTINATION)));

    assertThat(c.findings()).singleElement().satisfies(f -> {
      assertThat(f.where()).isEqualTo("paddle.api_key_file");
      assertThat(f.what()).startsWith("a sandbox key (pdl_sdbx_apikey_...), while paddle.api_base is"
          + " https://api.paddle.com (the default): Paddle refuses a key of the other environment");
      assertThat(f.change()).contains("paddle.api_base: https://sandbox-api.paddle.com");
    });
    assertThat(c.text()).doesNotContain(BODY);
  }

  @Test
  void aPaddleKeyIsCheckedAgainstTheHostItAsks() {
    String live = file("pdl_live_apikey_" + BODY);
    Checkup liveAtSandbox = doctor(paddle("api_key_file", live, "api_base", "https://sandbox-api.paddle.com"));
    Checkup liveAtLive = doctor(paddle("api_key_file", live, "api_base", "https://api.paddle.com"));
    Checkup sandboxAtSandbox = doctor(paddle("api_key_file", file("pdl_sdbx_apikey_" + BODY), "api_base",
        "https://sandbox-api.paddle.com"));

    assertThat(liveAtSandbox.findings()).singleElement().satisfies(f -> assertThat(f.what()).startsWith("a live key"
        + " (pdl_live_apikey_...), while paddle.api_base is https://sandbox-api.paddle.com: Paddle refuses a key of"
        + " the other environment"));
    assertThat(liveAtLive.findings()).isEmpty();
    assertThat(liveAtLive.text()).contains("checked: paddle.api_key_file: a live key (pdl_live_apikey_...), for"
        + " api.paddle.com\n");
    assertThat(sandboxAtSandbox.findings()).isEmpty();
  }

  /** Keys made before 6 May 2025 have every permission and name no environment; a webhook secret is no API key. */
  @Test
  void aLegacyPaddleKeyOrADestinationsSecretWhereTheApiKeyBelongsIsAFinding() {
    Checkup legacy = doctor(paddle("api_key_file", file("a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8s9T0u1V2w3X4y5")));
    Checkup secret = doctor(paddle("api_key_file", file(SECRET)));

    assertThat(legacy.findings()).singleElement().satisfies(f -> {
      assertThat(f.what()).startsWith("holds a legacy API key (50 characters, made before 6 May 2025): it has every"
          + " permission");
      assertThat(f.change()).contains("only Notifications: read", "revoke the legacy one");
    });
    assertThat(secret.findings()).singleElement().satisfies(f -> assertThat(f.what()).startsWith("holds a notification"
        + " destination's secret key (pdl_ntfset_...), where an API key belongs"));
    assertThat(secret.text()).doesNotContain(BODY);
  }

  @Test
  void aPaddleApiKeyWhereTheDestinationsSecretKeyBelongsIsAFinding() {
    Checkup c = doctor(paddle("webhook_secret_file", file("pdl_live_apikey_" + BODY), "currency", "USD"));

    assertThat(c.findings()).singleElement().satisfies(f -> {
      assertThat(f.where()).isEqualTo("paddle.webhook_secret_file");
      assertThat(f.what()).isEqualTo("holds an API key (pdl_live_apikey_...), not the notification destination's"
          + " secret key (pdl_ntfset_...): every notification fails its signature");
      assertThat(f.change()).startsWith("paste the secret key (pdl_ntfset_...) of the destination that points at this"
          + " service: Paddle > Developer tools > Notifications");
    });
    assertThat(c.text()).doesNotContain(BODY);
  }

  /** Each line of the rotation file; the secret key names its destination: another than the configured one is told. */
  @Test
  void eachRotatedPaddleSecretIsLookedAtAndOneOfAnotherDestinationIsAFinding() {
    String other = "pdl_ntfset_01hzzzzzzzzzzzzzzzzzzzzzzz_" + BODY;
    Checkup c = doctor(paddle("webhook_secrets_file", file(SECRET + "\n\n" + other + "\nwhsec_" + BODY + "\n"),
        "notification_setting_id", DESTINATION));

    assertThat(c.findings()).extracting(Finding::what).containsExactly(
        "line 3: the secret key of the destination ntfset_01hzzzzzzzzzzzzzzzzzzzzzzz, while"
            + " paddle.notification_setting_id is " + DESTINATION + ": either that destination's notifications fail"
            + " their signature, or recovery fetches the failed deliveries of another destination",
        "line 4: holds no notification destination's secret key (pdl_ntfset_...): every notification fails its"
            + " signature");
    assertThat(c.findings()).extracting(Finding::where).containsOnly("paddle.webhook_secrets_file");
    assertThat(c.text()).contains("checked: paddle.webhook_secrets_file: line 1: a notification destination's secret"
        + " key (pdl_ntfset_...), of paddle.notification_setting_id\n").doesNotContain(BODY);
  }

  @Test
  void aStripeKeyOfTheOtherModeThanStripeTestModeIsAFinding() {
    Checkup testKeyLive = doctor(new JsonObject().put("stripe", new JsonObject()
        .put("api_key_file", file("rk_test_" + BODY))));
    Checkup liveKeyTest = doctor(new JsonObject().put("stripe", new JsonObject()
        .put("api_key", "rk_live_" + BODY).put("test_mode", true))); // PAYNOTIFY_STRIPE_API_KEY, as the env gives it
    Checkup liveKeyLive = doctor(new JsonObject().put("stripe", new JsonObject()
        .put("api_key_file", file("rk_live_" + BODY)).put("test_mode", "false")));

    assertThat(testKeyLive.findings()).singleElement().satisfies(f -> {
      assertThat(f.where()).isEqualTo("stripe.api_key_file");
      assertThat(f.what()).startsWith("a test-mode key (rk_test_...), while stripe.test_mode is false (this instance"
          + " books live money): recovery asks the sandbox");
    });
    assertThat(liveKeyTest.findings()).singleElement().satisfies(f -> {
      assertThat(f.where()).isEqualTo("stripe.api_key");
      assertThat(f.what()).startsWith("a live key (rk_live_...), while stripe.test_mode is true");
    });
    assertThat(liveKeyLive.findings()).isEmpty();
    assertThat(liveKeyLive.text()).contains("checked: stripe.api_key_file: a live key, as stripe.test_mode says\n");
    assertThat(List.of(testKeyLive.text(), liveKeyTest.text())).noneMatch(t -> t.contains(BODY));
  }

  /** creem.api_key_file and creem.api_base, read by name: a Test Mode key on the live host and a live instance. */
  @Test
  void aCreemTestKeyOnTheLiveHostAndALiveInstanceIsOneFinding() {
    Checkup c = doctor(new JsonObject().put("creem", new JsonObject().put("api_key_file", file("creem_test_" + BODY))
        .put("api_base", "https://api.creem.io")));
    Checkup sound = doctor(new JsonObject().put("creem", new JsonObject().put("api_key_file", file("creem_test_"
        + BODY)).put("api_base", "https://test-api.creem.io").put("test_mode", "yes")));
    Checkup liveKeyOnTest = doctor(new JsonObject().put("creem", new JsonObject().put("api_key_file", file("creem_"
        + BODY)).put("api_base", "https://test-api.creem.io").put("test_mode", true)));

    assertThat(c.findings()).singleElement().satisfies(f -> {
      assertThat(f.where()).isEqualTo("creem.api_key_file");
      assertThat(f.what()).isEqualTo("a Test Mode key (creem_test_...), while creem.api_base is https://api.creem.io,"
          + " where Creem refuses a key of the other mode, and creem.test_mode is false (this instance books live"
          + " money)");
    });
    assertThat(sound.findings()).isEmpty();
    assertThat(liveKeyOnTest.findings()).singleElement().satisfies(f -> assertThat(f.what()).isEqualTo("a live key"
        + " (creem_...), while creem.api_base is https://test-api.creem.io, where Creem refuses a key of the other"
        + " mode, and creem.test_mode is true (an instance for test money)"));
    assertThat(c.text() + liveKeyOnTest.text()).doesNotContain(BODY);
  }

  @Test
  void aCreemApiKeyOrTheWebhooksIdWhereTheWebhookSecretBelongsIsAFinding() {
    Checkup apiKey = doctor(new JsonObject().put("creem", new JsonObject()
        .put("webhook_secret_file", file("creem_" + BODY)).put("currency", "USD")));
    Checkup webhookId = doctor(new JsonObject().put("creem", new JsonObject()
        .put("webhook_secret", "wh_test_4BGUMCSMw6GoQ96yVqbiR2")));
    Checkup sound = doctor(new JsonObject().put("creem", new JsonObject()
        .put("webhook_secret_file", file("whsec_" + BODY))));

    assertThat(apiKey.findings()).singleElement().satisfies(f -> {
      assertThat(f.where()).isEqualTo("creem.webhook_secret_file");
      assertThat(f.what()).isEqualTo("holds an API key (creem_...), not the webhook's secret: every notification fails"
          + " its signature");
      assertThat(f.change()).startsWith("paste the webhook's secret (whsec_...): Creem's dashboard > Developers >"
          + " Webhooks");
    });
    assertThat(webhookId.findings()).singleElement().satisfies(f -> assertThat(f.what()).startsWith("holds no Creem"
        + " webhook secret (whsec_...; not the webhook's id)"));
    assertThat(sound.findings()).isEmpty();
    assertThat(apiKey.text()).doesNotContain(BODY);
  }

  /** lemonsqueezy.api_key_file read by name: a JWT is that key, never a signing secret; its mode no key says. */
  @Test
  void aLemonSqueezyApiKeyWhereTheSigningSecretBelongsIsAFinding() {
    Checkup c = doctor(new JsonObject().put("lemonsqueezy", new JsonObject()
        .put("signing_secret_file", file(JWT)).put("api_key_file", file(JWT)).put("store_id", "1")));
    Checkup sound = doctor(new JsonObject().put("lemonsqueezy", new JsonObject()
        .put("signing_secret_file", file("rgRffmz14PYKSCTSVtn9ZcFaHOnOCVKV"))));

    assertThat(c.findings()).singleElement().satisfies(f -> {
      assertThat(f.where()).isEqualTo("lemonsqueezy.signing_secret_file");
      assertThat(f.what()).startsWith("holds a JSON Web Token (eyJ...), a Lemon Squeezy API key, not the webhook's"
          + " signing secret");
    });
    assertThat(c.text()).contains("not checked: whether lemonsqueezy.api_key_file is a test-mode or a live key")
        .doesNotContain(JWT.substring(10));
    assertThat(sound.findings()).isEmpty();
  }

  @Test
  void tokenPaysSampleApiTokenOrItsSettingsLineIsAFinding() {
    Checkup sample = doctor(new JsonObject().put("tokenpay", new JsonObject().put("key_file", file("666666"))));
    Checkup line = doctor(new JsonObject().put("tokenpay", new JsonObject()
        .put("key_file", file("\"ApiToken\": \"k3j4h5g6f7d8s9a0\","))));
    Checkup sound = doctor(new JsonObject().put("tokenpay", new JsonObject().put("key", "k3j4h5g6f7d8s9a0")));

    assertThat(sample.findings()).singleElement().satisfies(f -> {
      assertThat(f.where()).isEqualTo("tokenpay.key_file");
      assertThat(f.what()).startsWith("is the ApiToken of TokenPay's sample appsettings (666666): anyone who read it"
          + " can sign");
    });
    assertThat(line.findings()).singleElement().satisfies(f -> assertThat(f.what()).startsWith("holds a quote or the"
        + " name ApiToken"));
    assertThat(line.text()).doesNotContain("k3j4h5g6f7d8s9a0");
    assertThat(sound.findings()).isEmpty();
  }

  /** PAYNOTIFY_TOKENPAY_KEY="" (or spaces) reads as unset: the channel is off without a word from the start. */
  @Test
  void aTokenPayKeySetButEmptyIsAFinding() {
    Checkup c = doctor(new JsonObject().put("tokenpay", new JsonObject().put("key", "  ").put("currency", "CNY")));
    Checkup unset = doctor(new JsonObject().put("tokenpay", new JsonObject().put("currency", "CNY")));

    assertThat(c.findings()).singleElement().satisfies(f -> {
      assertThat(f.where()).isEqualTo("tokenpay.key");
      assertThat(f.what()).startsWith("set but empty (PAYNOTIFY_TOKENPAY_KEY=\"\"?): the TokenPay channel is off");
    });
    assertThat(unset.findings()).isEmpty();
  }

  private Checkup doctor(JsonObject settings) {
    Checkup checkup = new Checkup("test.yaml");
    KeyChecks.run(settings, checkup, Clock.systemUTC());
    return checkup;
  }

  private JsonObject paddle(String... keysAndValues) {
    JsonObject paddle = new JsonObject();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      paddle.put(keysAndValues[i], keysAndValues[i + 1]);
    }
    return new JsonObject().put("paddle", paddle);
  }

  /** {@code text} in a file of its own, mode 600: its path. */
  private String file(String text) {
    return PrivateFile.write(dir.resolve("secret" + System.nanoTime()), text).toString();
  }
}
