package paynotify.channel.stripe;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import paynotify.channel.RejectedNotification;
import paynotify.channel.RejectedNotification.Reason;
import paynotify.channel.Signatures;

/**
 * Stripe's webhook signature, as stripe-java's {@code Webhook.Signature.verifyHeader}:
 * {@code Stripe-Signature: t=<unix>,v1=<hex>[,v1=...]}, each v1 the lower-case hex HMAC-SHA256 of
 * {@code t + "." + body}, keyed with the whole {@code whsec_...} string (its characters, not a
 * decoding of them). Any v1 made with any configured secret passes: Stripe signs with the old and the
 * new secret while one is rolled. Older than the tolerance is refused (a replay); a future t is not.
 */
public final class StripeSignature {
  private final List<byte[]> secrets;
  private final long toleranceSeconds;
  private final Clock clock;

  public StripeSignature(List<String> secrets, Duration tolerance, Clock clock) {
    if (secrets.isEmpty()) {
      throw new IllegalArgumentException("no webhook secret");
    }
    this.secrets = secrets.stream().map(s -> s.getBytes(StandardCharsets.UTF_8)).toList();
    this.toleranceSeconds = tolerance.toSeconds();
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
      if (name.equals("t") && t == null) { // the first, as stripe-java reads it
        t = value;
      } else if (name.equals("v1")) {
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

  private boolean matches(long timestamp, byte[] body, List<String> signatures) {
    boolean found = false;
    for (byte[] secret : secrets) {
      String expected = compute(secret, timestamp, body);
      for (String got : signatures) {
        found |= Signatures.sameSign(expected, got); // no early exit: every comparison is made
      }
    }
    return found;
  }

  /** The v1 signature of {@code body} at {@code timestamp}: what Stripe sends, and what tests sign with. */
  public static String compute(String secret, long timestamp, byte[] body) {
    return compute(secret.getBytes(StandardCharsets.UTF_8), timestamp, body);
  }

  private static String compute(byte[] secret, long timestamp, byte[] body) {
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
