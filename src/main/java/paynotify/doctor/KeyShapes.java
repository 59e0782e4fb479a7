package paynotify.doctor;

import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import paynotify.channel.creem.CreemClients;
import paynotify.channel.paddle.PaddleClients;
import paynotify.config.YesNo;

/**
 * What the platforms' string keys say of themselves, against where they are used: Paddle's, Stripe's and Creem's API
 * keys name their environment (a sandbox key asking the live API, a test key on an instance that books live money),
 * Paddle's and Creem's webhook secrets their kind (an API key where the webhook's secret belongs), a Lemon Squeezy
 * API key is a JSON Web Token, and TokenPay's ApiToken may be its sample's. The start refuses none of them: each is a
 * notification that never verifies, or a lost payment recovery never finds. No finding prints more of a key than the
 * prefix its platform gives every key of its kind.
 */
final class KeyShapes {
  // Paddle: developer.paddle.com/api-reference/about/api-keys and changelog/2025/api-key-improvements: keys made since
  // 6 May 2025 say their environment, and work against that environment's host only; older (legacy) ones are 50
  // characters that say nothing, with no permissions: full access to the account.
  private static final String PADDLE_LIVE_KEY = "pdl_live_apikey_";
  private static final String PADDLE_SANDBOX_KEY = "pdl_sdbx_apikey_";
  private static final String PADDLE_LIVE_HOST = PaddleClients.HOSTS.get(0); // the default paddle.api_base
  private static final String PADDLE_SANDBOX_HOST = PaddleClients.HOSTS.get(1);
  // A notification setting's endpoint_secret_key is "prefixed with pdl_ntfset_" (api-reference/notification-settings),
  // then the destination's id without its ntfset_ and the secret: pdl_ntfset_<26 characters>_... is the key of
  // ntfset_<the same 26> in paddle-python-sdk's tests/Functional/Resources/NotificationSettings/_fixtures/response/.
  private static final String PADDLE_SECRET = "pdl_ntfset_";
  private static final Pattern PADDLE_SECRET_ID = Pattern.compile("pdl_ntfset_([0-9a-z]{26})_.+");
  private static final String PADDLE_AUTHENTICATION = "Paddle > Developer tools > Authentication";
  private static final String PADDLE_NOTIFICATIONS = "Paddle > Developer tools > Notifications";
  // Stripe: docs.stripe.com/keys: restricted keys rk_live_ and rk_test_ (a sandbox's), each mode's objects its own;
  // a secret key (sk_) the start refuses.
  private static final String STRIPE_TEST_KEY = "rk_test_";
  private static final String STRIPE_LIVE_KEY = "rk_live_";
  // Creem (armitage-labs/creem packages/docs/code/cli.mdx, "Test vs Live Mode"; api-reference/introduction.mdx): API
  // keys creem_test_ (Test Mode, test-api.creem.io) and creem_ (live, api.creem.io), not interchangeable; the
  // webhook's secret whsec_ (getting-started/quickstart.mdx).
  private static final String CREEM_KEY = "creem_";
  private static final String CREEM_TEST_KEY = "creem_test_";
  private static final String CREEM_SECRET = "whsec_";
  private static final String CREEM_LIVE_HOST = CreemClients.HOSTS.get(0); // the default creem.api_base
  private static final String CREEM_TEST_HOST = CreemClients.HOSTS.get(1);
  private static final String CREEM_WEBHOOKS = "Creem's dashboard > Developers > Webhooks (Test Mode has its own)";
  // Lemon Squeezy: the signing secret is the owner's, 6 to 40 characters (docs.lemonsqueezy.com/help/webhooks); an API
  // key (Settings > API) is a JWT: eyJ0eXAiOiJKV1Qi... ({"typ":"JWT",...}), a payload, a signature, base64url.
  private static final Pattern JWT = Pattern.compile("eyJ[\\w-]*\\.eyJ[\\w-]*\\.[\\w-]+");
  // TokenPay: LightCountry/TokenPay src/TokenPay/appsettings.Example.json and Wiki/appsettings.md ship
  // "ApiToken": "666666" (异步通知密钥，请务必修改此密钥为随机字符串).
  private static final String TOKENPAY_SAMPLE = "666666";
  private static final Pattern SETTINGS_LINE = Pattern.compile("(?s).*(\"|\\bApiToken\\b\\s*[:=]).*");

  private final JsonObject settings;
  private final SecretFiles secrets;
  private final Checkup checkup;

  private KeyShapes(JsonObject settings, SecretFiles secrets, Checkup checkup) {
    this.settings = settings;
    this.secrets = secrets;
    this.checkup = checkup;
  }

  /** Looks over the string keys of {@code settings}, read through {@code secrets}. */
  static void check(JsonObject settings, SecretFiles secrets, Checkup checkup) {
    KeyShapes keys = new KeyShapes(settings, secrets, checkup);
    keys.paddle();
    keys.stripe();
    keys.creem();
    keys.lemonSqueezy();
    keys.tokenPay();
  }

  private void paddle() {
    JsonObject paddle = SecretFiles.section(settings, "paddle");
    Given key = secrets.secret("paddle.api_key");
    if (key != null) {
      paddleApiKey(key, SecretFiles.string(paddle, "api_base"));
    }
    String destination = SecretFiles.string(paddle, "notification_setting_id");
    Given one = secrets.secret("paddle.webhook_secret");
    if (one != null) {
      paddleSecret(one.where(), "", one.text(), destination);
    }
    String several = secrets.content("paddle.webhook_secrets_file");
    String[] lines = several == null ? new String[0] : several.split("\\R");
    for (int i = 0; i < lines.length; i++) {
      if (!lines[i].isBlank()) {
        paddleSecret("paddle.webhook_secrets_file", "line " + (i + 1) + ": ", lines[i].trim(), destination);
      }
    }
  }

  /** The API key of recovery against paddle.api_base: a sandbox key works against the sandbox's host only. */
  private void paddleApiKey(Given key, String apiBase) {
    String text = key.text();
    boolean sandboxKey = text.startsWith(PADDLE_SANDBOX_KEY);
    String change = "create an API key with only Notifications: read at " + PADDLE_AUTHENTICATION + " (of the live or"
        + " the sandbox dashboard, as paddle.api_base says), and name its file here";
    if (text.startsWith(PADDLE_SECRET)) {
      checkup.found(key.where(), "holds a notification destination's secret key (" + PADDLE_SECRET + "...), where an"
          + " API key belongs: Paddle refuses it, so recovery never fetches a failed delivery", change
          + "; that secret key belongs in paddle.webhook_secret_file");
    } else if (text.matches("[A-Za-z0-9]{50}")) {
      checkup.found(key.where(), "holds a legacy API key (50 characters, made before 6 May 2025): it has every"
          + " permission, so it can change the account and refund, and it does not say whether it is the sandbox's"
          + " or the live account's", change + "; then revoke the legacy one");
    } else if (!sandboxKey && !text.startsWith(PADDLE_LIVE_KEY)) {
      checkup.found(key.where(), "holds no Paddle API key (" + PADDLE_LIVE_KEY + "... or " + PADDLE_SANDBOX_KEY
          + "...)", change);
    } else {
      paddleKeyAgainstItsApi(key, sandboxKey, apiBase);
    }
  }

  /** A sandbox or live key ({@code sandboxKey}) against the API paddle.api_base names (null: the live one). */
  private void paddleKeyAgainstItsApi(Given key, boolean sandboxKey, String apiBase) {
    String host = host(apiBase == null ? "https://" + PADDLE_LIVE_HOST : apiBase);
    String environment = sandboxKey ? "a sandbox key (" + PADDLE_SANDBOX_KEY + "...)" : "a live key ("
        + PADDLE_LIVE_KEY + "...)";
    if (host == null) {
      return; // no URL: the start says so
    }
    if (!PADDLE_LIVE_HOST.equals(host) && !PADDLE_SANDBOX_HOST.equals(host)) {
      checkup.checked(key.where() + ": " + environment + ", asked at a host of your own (" + apiBase + ")");
    } else if (sandboxKey == PADDLE_SANDBOX_HOST.equals(host)) {
      checkup.checked(key.where() + ": " + environment + ", for " + host);
    } else {
      checkup.found(key.where(), environment + ", while paddle.api_base is " + (apiBase == null ? "https://"
          + PADDLE_LIVE_HOST + " (the default)" : apiBase) + ": Paddle refuses a key of the other"
          + " environment, so recovery never fetches a failed delivery", sandboxKey ? "for the live account: a live"
          + " key (" + PADDLE_LIVE_KEY + "...) from the live dashboard's Developer tools > Authentication; for the"
          + " sandbox: paddle.api_base: https://" + PADDLE_SANDBOX_HOST : "for the sandbox: a sandbox key ("
          + PADDLE_SANDBOX_KEY + "...) from the sandbox dashboard; for the live account: paddle.api_base: https://"
          + PADDLE_LIVE_HOST + " (or none)");
    }
  }

  /**
   * One of the destination's secret keys: an API key there, or no pdl_ntfset_ key at all, fails every notification's
   * signature; the key of another destination than paddle.notification_setting_id either fails them, or has recovery
   * fetch another destination's failures.
   */
  private void paddleSecret(String where, String line, String secret, String destination) {
    String change = "paste the secret key (" + PADDLE_SECRET + "...) of the destination that points at this service:"
        + " " + PADDLE_NOTIFICATIONS;
    Matcher id = PADDLE_SECRET_ID.matcher(secret);
    if (secret.startsWith(PADDLE_LIVE_KEY) || secret.startsWith(PADDLE_SANDBOX_KEY)) {
      checkup.found(where, line + "holds an API key (" + secret.substring(0, PADDLE_LIVE_KEY.length()) + "...), not"
          + " the notification destination's secret key (" + PADDLE_SECRET + "...): every notification fails its"
          + " signature", change + "; the API key belongs in paddle.api_key_file, if anywhere");
    } else if (!secret.startsWith(PADDLE_SECRET)) {
      checkup.found(where, line + "holds no notification destination's secret key (" + PADDLE_SECRET + "...): every"
          + " notification fails its signature", change);
    } else if (destination != null && id.matches() && !destination.equals("ntfset_" + id.group(1))) {
      checkup.found(where, line + "the secret key of the destination ntfset_" + id.group(1) + ", while"
          + " paddle.notification_setting_id is " + destination + ": either that destination's notifications fail"
          + " their signature, or recovery fetches the failed deliveries of another destination", "take both from the"
          + " one destination that points at this service (" + PADDLE_NOTIFICATIONS + "): its ID (ntfset_...) and its"
          + " secret key");
    } else {
      checkup.checked(where + ": " + line + "a notification destination's secret key (" + PADDLE_SECRET + "...)"
          + (destination != null && id.matches() ? ", of paddle.notification_setting_id" : ""));
    }
  }

  /** Recovery's restricted key against stripe.test_mode: a test key asks the sandbox, a live key the live account. */
  private void stripe() {
    Given key = secrets.secret("stripe.api_key");
    if (key == null || !key.text().startsWith(STRIPE_TEST_KEY) && !key.text().startsWith(STRIPE_LIVE_KEY)) {
      return; // any other the start refuses
    }
    boolean testKey = key.text().startsWith(STRIPE_TEST_KEY);
    boolean testMode = testMode("stripe");
    if (testKey && !testMode) {
      checkup.found(key.where(), "a test-mode key (" + STRIPE_TEST_KEY + "...), while stripe.test_mode is false (this"
          + " instance books live money): recovery asks the sandbox for its undelivered events, never the live"
          + " account, so a lost live payment is never found", "give the live account's restricted key ("
          + STRIPE_LIVE_KEY + "..., Developers > API keys in live mode, only Events: Read); a test instance sets"
          + " stripe.test_mode: true instead");
    } else if (!testKey && testMode) {
      checkup.found(key.where(), "a live key (" + STRIPE_LIVE_KEY + "...), while stripe.test_mode is true (an"
          + " instance for test money): recovery fetches the live account's undelivered events and books them here",
          "give a sandbox's restricted key (" + STRIPE_TEST_KEY + "...) to this test instance; the live instance sets"
          + " stripe.test_mode: false");
    } else {
      checkup.checked(key.where() + ": a " + (testKey ? "test-mode" : "live") + " key, as stripe.test_mode says");
    }
  }

  private void creem() {
    Given key = secrets.secret("creem.api_key");
    if (key != null) {
      creemApiKey(key, SecretFiles.string(SecretFiles.section(settings, "creem"), "api_base"));
    }
    Given secret = secrets.secret("creem.webhook_secret");
    String change = "paste the webhook's secret (" + CREEM_SECRET + "...): " + CREEM_WEBHOOKS;
    if (secret == null) {
      return;
    }
    if (secret.text().startsWith(CREEM_KEY)) {
      checkup.found(secret.where(), "holds an API key (" + (secret.text().startsWith(CREEM_TEST_KEY) ? CREEM_TEST_KEY
          : CREEM_KEY) + "...), not the webhook's secret: every notification fails its signature", change);
    } else if (!secret.text().startsWith(CREEM_SECRET)) {
      checkup.found(secret.where(), "holds no Creem webhook secret (" + CREEM_SECRET + "...; not the webhook's id):"
          + " every notification fails its signature", change);
    } else {
      checkup.checked(secret.where() + ": a webhook secret (" + CREEM_SECRET + "...)");
    }
  }

  /** The API key against creem.api_base and creem.test_mode: Test Mode is another store, with its own host and keys. */
  private void creemApiKey(Given key, String apiBase) {
    String text = key.text();
    String change = "give an API key of Creem's dashboard > Developers: with Test Mode on for a test instance ("
        + CREEM_TEST_KEY + "...), off for the live one (" + CREEM_KEY + "...)";
    if (text.startsWith(CREEM_SECRET)) {
      checkup.found(key.where(), "holds a webhook secret (" + CREEM_SECRET + "...), where the API key belongs: Creem"
          + " refuses it", change + "; the webhook secret belongs in creem.webhook_secret_file");
      return;
    }
    if (!text.startsWith(CREEM_KEY)) {
      checkup.found(key.where(), "holds no Creem API key (" + CREEM_KEY + "... or " + CREEM_TEST_KEY + "...)", change);
      return;
    }
    boolean testKey = text.startsWith(CREEM_TEST_KEY);
    List<String> against = new ArrayList<>();
    String host = apiBase == null ? null : host(apiBase);
    if (CreemClients.HOSTS.contains(host) && testKey != CREEM_TEST_HOST.equals(host)) {
      against.add("creem.api_base is " + apiBase + ", where Creem refuses a key of the other mode");
    }
    if (testKey != testMode("creem")) {
      against.add(testKey ? "creem.test_mode is false (this instance books live money)"
          : "creem.test_mode is true (an instance for test money)");
    }
    String environment = testKey ? "a Test Mode key (" + CREEM_TEST_KEY + "...)" : "a live key (" + CREEM_KEY + "...)";
    if (against.isEmpty()) {
      checkup.checked(key.where() + ": " + environment + ", as creem.test_mode says");
    } else {
      checkup.found(key.where(), environment + ", while " + String.join(", and ", against), change
          + "; and creem.api_base and creem.test_mode to match: https://" + CREEM_TEST_HOST + " and true for Test"
          + " Mode, https://" + CREEM_LIVE_HOST + " and false for live");
    }
  }

  /** The signing secret is typed by the owner; an API key there is a JWT (the keys' mode no key says: not checked). */
  private void lemonSqueezy() {
    Given secret = secrets.secret("lemonsqueezy.signing_secret");
    if (secret != null && JWT.matcher(secret.text()).matches()) {
      checkup.found(secret.where(), "holds a JSON Web Token (eyJ...), a Lemon Squeezy API key, not the webhook's"
          + " signing secret (6 to 40 characters, typed when the webhook was made): every notification fails its"
          + " signature", "paste the signing secret typed at Settings > Webhooks (edit the webhook to type a new one,"
          + " in both places, if it is lost)");
    } else if (secret != null) {
      checkup.checked(secret.where() + ": no API key (a JSON Web Token)");
    }
    if (secrets.secret("lemonsqueezy.api_key") != null) {
      checkup.skipped("whether lemonsqueezy.api_key_file is a test-mode or a live key: Lemon Squeezy's keys do not say"
          + " (one host for both)");
    }
  }

  /**
   * TokenPay's ApiToken: its sample's value (anyone who read the sample can sign a "paid"), a line of appsettings.json
   * where the value alone belongs, or set but empty (PAYNOTIFY_TOKENPAY_KEY=""), which leaves the channel off.
   */
  private void tokenPay() {
    JsonObject tokenpay = SecretFiles.section(settings, "tokenpay");
    Given token = secrets.secret("tokenpay.key");
    if (token == null) {
      if (tokenpay.getValue("key") instanceof String blank && blank.isBlank()
          && SecretFiles.string(tokenpay, "key_file") == null) {
        checkup.found("tokenpay.key", "set but empty (PAYNOTIFY_TOKENPAY_KEY=\"\"?): the TokenPay channel is off, and"
            + " /notify/tokenpay answers every notification 404", "give the ApiToken of TokenPay's appsettings.json"
            + " (or tokenpay.key_file), or unset it when TokenPay is not used");
      }
    } else if (token.text().equals(TOKENPAY_SAMPLE)) {
      checkup.found(token.where(), "is the ApiToken of TokenPay's sample appsettings (" + TOKENPAY_SAMPLE + "): anyone"
          + " who read it can sign a notification that books an order paid", "set ApiToken in TokenPay's"
          + " appsettings.json to a long random string (openssl rand -hex 32), restart TokenPay, and put the same"
          + " string here");
    } else if (SETTINGS_LINE.matcher(token.text()).matches()) {
      checkup.found(token.where(), "holds a quote or the name ApiToken, as a line of appsettings.json does: TokenPay"
          + " signs with the value alone, so every notification fails its signature", "keep only the value between"
          + " the quotes of \"ApiToken\" in TokenPay's appsettings.json");
    } else {
      checkup.checked(token.where() + ": not TokenPay's sample ApiToken");
    }
  }

  /** {@code <section>.test_mode} as the start reads it: true, yes or on. */
  private boolean testMode(String section) {
    String value = SecretFiles.string(SecretFiles.section(settings, section), "test_mode");
    return Boolean.TRUE.equals(YesNo.of(value));
  }

  /** The host of {@code url}; null when it is no URL (the start says so). */
  private static String host(String url) {
    try {
      return URI.create(url).getHost();
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}
