package paynotify.channel.stripe;

import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import paynotify.channel.Ids;
import paynotify.channel.RejectedNotification.Reason;
import paynotify.channel.RejectedNotification;
import paynotify.crypto.Digests;

/**
 * Stripe's webhook signature, as stripe-java's {@code Webhook.Signature.verifyHeader}:
 * {@code Stripe-Signature: t=<unix>,v1=<hex>[,v1=...]}, each v1 the lower-case hex HMAC-SHA256 of
 * {@code t + "." + body}, keyed with the whole {@code whsec_...} string (its characters, not a
 * decoding of them). Any v1 made with any configured secret passes: Stripe signs with the old and the
 * new secret while one is rolled. Older than the tolerance is refused (a replay); a future t is not.
 * A signed event is still not ours when it is a connected account's or test money on a live instance
 * ({@link #requireOurs}).
 */
public final class StripeSignature {
  /** The header that carries the timestamp and the signatures. */
  public static final String HEADER = "Stripe-Signature";
  /** The header's item holding the unix seconds the signature covers. */
  public static final String TIMESTAMP = "t";
  /** The only scheme that counts (stripe-java's {@code EXPECTED_SCHEME}). */
  public static final String EXPECTED_SCHEME = "v1";
  /** How old a signature may be (stripe-java's {@code DEFAULT_TOLERANCE}), unless stripe.tolerance_seconds says. */
  public static final Duration DEFAULT_TOLERANCE = Duration.ofSeconds(300);

  private final List<byte[]> secrets;
  private final long toleranceSeconds;
  private final boolean testMode;
  private final Clock clock;

  /** @param testMode test-mode events (livemode false) are ours too */
  public StripeSignature(List<String> secrets, Duration tolerance, boolean testMode, Clock clock) {
    if (secrets.isEmpty()) {
      throw new IllegalArgumentException("no webhook secret");
    }
    this.secrets = secrets.stream().map(s -> s.getBytes(StandardCharsets.UTF_8)).toList();
    this.toleranceSeconds = tolerance.toSeconds();
    this.testMode = testMode;
    this.clock = clock;
  }

  /** Throws unless {@code header} carries a fresh v1 signature of {@code body} by a configured secret. */
  public void verify(String header, byte[] body) throws RejectedNotification {
    if (header == null || header.isBlank()) {
      throw new RejectedNotification(Reason.MISSING_SIGNATURE, "no Stripe-Signature header");
    }
    String t = null;
    List<String> v1 = new ArrayList<>();
    for (String item : header.split(",")) {
      int eq = item.indexOf('=');
      if (eq < 0) {
        continue;
      }
      String name = item.substring(0, eq).trim();
      String value = item.substring(eq + 1).trim();
      if (name.equals(TIMESTAMP) && t == null) { // the first, as stripe-java reads it
        t = value;
      } else if (name.equals(EXPECTED_SCHEME)) {
        v1.add(value);
      } // v0 (test-only, legacy) and other schemes are never enough, as in stripe-java
    }
    long timestamp;
    try {
      timestamp = Long.parseLong(t == null ? "" : t);
    } catch (NumberFormatException e) {
      throw new RejectedNotification(Reason.MISSING_SIGNATURE, "Stripe-Signature has no timestamp t");
    }
    if (v1.isEmpty()) {
      throw new RejectedNotification(Reason.MISSING_SIGNATURE, "Stripe-Signature has no v1 signature");
    }
    if (!matches(timestamp, body, v1)) {
      throw new RejectedNotification(Reason.BAD_SIGNATURE,
          "no v1 signature matches a configured secret (stripe.webhook_secrets_file)");
    }
    // Checked after the signature, as Stripe does: only a genuine t says anything.
    long now = clock.instant().getEpochSecond();
    if (timestamp < now - toleranceSeconds) {
      throw new RejectedNotification(Reason.STALE_TIMESTAMP, "Stripe-Signature t " + timestamp + " is "
          + (now - timestamp) + " s old, beyond stripe.tolerance_seconds " + toleranceSeconds);
    }
  }

  /**
   * Refuses a signed event that is not this site's money: a connected account's (a Connect endpoint's
   * events), or a test-mode one on a live instance. A test endpoint's secret left in a live configuration
   * would let anyone's test-mode payment (a test Payment Link pays with 4242...) mark a live order paid.
   */
  void requireOurs(JsonObject event) throws RejectedNotification {
    String account = event.getString("account");
    if (account != null) {
      throw new RejectedNotification(Reason.WRONG_MERCHANT, "event of connected account '" + Ids.printable(account)
          + "': point an account webhook endpoint (not a Connect one) at paynotify");
    }
    if (Boolean.FALSE.equals(event.getBoolean("livemode")) && !testMode) {
      throw new RejectedNotification(Reason.WRONG_MERCHANT, "a test-mode event (livemode false), and this instance"
          + " books live money (stripe.test_mode: false): stripe.webhook_secrets_file holds a test endpoint's secret");
    }
  }

  private boolean matches(long timestamp, byte[] body, List<String> signatures) {
    boolean found = false;
    for (byte[] secret : secrets) {
      String expected = sign(secret, timestamp, body);
      for (String got : signatures) {
        found |= Digests.sameSign(expected, got); // no early exit: every comparison is made
      }
    }
    return found;
  }

  /**
   * The v1 signature of {@code body} at {@code timestamp}, what Stripe sends. It exists for tests and for
   * the events paynotify forwards ({@code forward.ForwardSignature} signs them in Stripe's scheme, through
   * {@link #header}).
   */
  public static String sign(String secret, long timestamp, byte[] body) {
    return sign(secret.getBytes(StandardCharsets.UTF_8), timestamp, body);
  }

  /**
   * The whole {@link #HEADER} value for {@code body} at {@code timestamp}, one v1 {@link #sign signature}
   * per secret (two while one is rolled), as stripe-java's {@code generateSignatureHeader}; for the same
   * callers as {@link #sign}.
   */
  public static String header(long timestamp, byte[] body, String... secrets) {
    StringBuilder header = new StringBuilder(TIMESTAMP).append('=').append(timestamp);
    for (String secret : secrets) {
      header.append(',').append(EXPECTED_SCHEME).append('=').append(sign(secret, timestamp, body));
    }
    return header.toString();
  }

  private static String sign(byte[] secret, long timestamp, byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret, "HmacSHA256"));
      mac.update((timestamp + ".").getBytes(StandardCharsets.US_ASCII));
      return HexFormat.of().formatHex(mac.doFinal(body)); // the raw bytes: never decoded and re-encoded
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }
}
