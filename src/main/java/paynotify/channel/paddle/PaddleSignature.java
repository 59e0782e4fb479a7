package paynotify.channel.paddle;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import paynotify.channel.RejectedNotification.Reason;
import paynotify.channel.RejectedNotification;
import paynotify.crypto.Digests;

/**
 * Paddle Billing's webhook signature, as the Python and PHP SDKs' {@code Verifier} check it:
 * {@code Paddle-Signature: ts=<unix>;h1=<hex>[;h1=...]}, each h1 the lower-case hex HMAC-SHA256 of
 * {@code ts + ":" + raw body}, keyed with the whole secret string ({@code pdl_ntfset_...}) as UTF-8. Every h1 is
 * checked against every configured secret (two or more while one is rotated), as Python and PHP do; the node SDK
 * keeps only the last h1. Other keys of the header are ignored (the node SDK's way; Python and PHP throw), so a
 * scheme Paddle adds later does not refuse its events, but one h1 is required.
 *
 * <p>The window departs from the SDKs on purpose: they accept a ts at most 5 s old and any ts in the future. Whether
 * Paddle signs a retry anew is not documented: its SDKs' fixed 5 s (node {@code webhooks-validator.ts}, Python {@code
 * Verifier.py}, PHP {@code Verifier.php}) and its docs' advice that hand-written checks do the same imply that each
 * attempt is signed when it is sent; one third-party report says retries keep their first ts. And a service whose clock
 * runs a little ahead would refuse genuine events (a fresh ts looks old to it); a replay books nothing twice (the
 * idempotency key is the transaction's or the adjustment's). So 300 s, as Stripe's default and the issue ask, either
 * way: a ts that far ahead is no clock's skew. If retries do keep their ts, every retry after an outage of more than
 * the window is refused: the refusal says so (the site owner may allow up to Paddle's 3 days of retries).
 */
public final class PaddleSignature {
  /** The header that carries the timestamp and the signatures. */
  public static final String HEADER = "Paddle-Signature";
  /** The header's key holding the unix seconds the signatures cover. */
  static final String TIMESTAMP = "ts";
  /** The only scheme that counts. */
  static final String SCHEME = "h1";
  /** How far ts may be from now, either way, unless paddle.tolerance_seconds says (the SDKs' is 5 s, past only). */
  public static final Duration DEFAULT_TOLERANCE = Duration.ofSeconds(300);
  /** Paddle's retries last 3 days: a window wider than that would admit nothing Paddle sends. */
  public static final Duration MAX_TOLERANCE = Duration.ofDays(3);
  /** A ts and a few h1 of 64 characters fit many times over: a longer header is no Paddle's, refused unread. */
  static final int MAX_HEADER_LENGTH = 1024;
  /** More h1 than any rotation has (Paddle signs with each active secret of the destination). */
  static final int MAX_SIGNATURES = 8;

  private final List<byte[]> secrets;
  private final long toleranceSeconds;
  private final Clock clock;

  public PaddleSignature(List<String> secrets, Duration tolerance, Clock clock) {
    if (secrets.isEmpty()) {
      throw new IllegalArgumentException("no webhook secret");
    }
    this.secrets = secrets.stream().map(s -> s.getBytes(StandardCharsets.UTF_8)).toList();
    this.toleranceSeconds = tolerance.toSeconds();
    this.clock = clock;
  }

  /** Throws unless {@code header} carries an h1 of {@code body} by a configured secret, at a ts within the window. */
  public void verify(String header, byte[] body) throws RejectedNotification {
    if (header == null || header.isBlank()) {
      throw new RejectedNotification(Reason.MISSING_SIGNATURE, "no Paddle-Signature header");
    }
    if (header.length() > MAX_HEADER_LENGTH) {
      throw RejectedNotification.malformed("Paddle-Signature has " + header.length() + " characters, more than "
          + MAX_HEADER_LENGTH);
    }
    String ts = null;
    List<String> h1 = new ArrayList<>();
    for (String item : header.split(";")) {
      int eq = item.indexOf('=');
      String name = eq < 0 ? item.trim() : item.substring(0, eq).trim();
      String value = eq < 0 ? "" : item.substring(eq + 1).trim();
      if (name.equals(TIMESTAMP)) {
        if (ts != null) { // which one the signatures cover would be a guess
          throw RejectedNotification.malformed("Paddle-Signature has more than one ts");
        }
        ts = value;
      } else if (name.equals(SCHEME) && h1.size() == MAX_SIGNATURES) {
        throw RejectedNotification.malformed("Paddle-Signature has more than " + MAX_SIGNATURES + " h1");
      } else if (name.equals(SCHEME)) {
        h1.add(value);
      }
    }
    if (ts == null || !ts.matches("[0-9]{1,12}")) {
      throw new RejectedNotification(Reason.MISSING_SIGNATURE, "Paddle-Signature has no timestamp ts");
    }
    if (h1.isEmpty()) {
      throw new RejectedNotification(Reason.MISSING_SIGNATURE, "Paddle-Signature has no h1 signature");
    }
    if (!matches(ts, body, h1)) {
      throw new RejectedNotification(Reason.BAD_SIGNATURE, "no h1 signature matches a configured secret"
          + " (paddle.webhook_secret_file or paddle.webhook_secrets_file)");
    }
    // After the signature: only a genuine ts says something of the sender's clock or of a replay.
    long timestamp = Long.parseLong(ts);
    long now = clock.instant().getEpochSecond();
    if (timestamp < now - toleranceSeconds) {
      throw new RejectedNotification(Reason.STALE_TIMESTAMP, "signed, but ts " + (now - timestamp) + " s old"
          + " (paddle.tolerance_seconds " + toleranceSeconds + "): a replay, or this machine's clock is ahead, or"
          + " (not documented) Paddle's retries keep their first ts: check the clock (NTP); if it is right and Paddle's"
          + " dashboard shows this event's deliveries failing, turn on recovery (paddle.api_key_file) or raise"
          + " paddle.tolerance_seconds");
    }
    if (timestamp > now + toleranceSeconds) {
      throw new RejectedNotification(Reason.STALE_TIMESTAMP, "signed, but ts " + (timestamp - now) + " s ahead of"
          + " this clock, beyond paddle.tolerance_seconds " + toleranceSeconds);
    }
  }

  private boolean matches(String ts, byte[] body, List<String> signatures) {
    byte[] prefix = (ts + ":").getBytes(StandardCharsets.US_ASCII);
    byte[] signed = new byte[prefix.length + body.length];
    System.arraycopy(prefix, 0, signed, 0, prefix.length);
    System.arraycopy(body, 0, signed, prefix.length, body.length); // the raw bytes: never decoded and re-encoded
    boolean found = false;
    for (byte[] secret : secrets) {
      String expected = HexFormat.of().formatHex(Digests.hmacSha256(secret, signed));
      for (String got : signatures) {
        found |= Digests.sameSign(expected, got); // no early exit: every comparison is made
      }
    }
    return found;
  }
}
