package paynotify.channel.creem;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import paynotify.channel.RejectedNotification.Reason;
import paynotify.channel.RejectedNotification;
import paynotify.crypto.Digests;

/**
 * Creem's webhook signature, as its TypeScript SDKs check it ({@code creem_io} {@code resources/webhooks.ts}; npm
 * {@code creem} 1.13 {@code src/webhooks.ts}, its fallback): {@code creem-signature} is the lower-case hex HMAC-SHA256
 * of the raw body, keyed with the webhook secret's characters as they are (the whole {@code whsec_...} string). There
 * is no timestamp, so nothing bounds a replay: a replayed event is its booking's duplicate (the order's trade, the
 * refund's id).
 *
 * <p>{@code creem} 1.13 tries Standard Webhooks headers first ({@code webhook-signature}); Creem's docs and its own
 * deliveries still carry {@code creem-signature} only. A delivery with the first and not the second is refused saying
 * so, for the owner to see that Creem changed its scheme, not only that a header is missing.
 */
public final class CreemSignature {
  /** The header carrying the signature (HTTP header names are case-insensitive). */
  public static final String HEADER = "creem-signature";
  /** The Standard Webhooks signature header, which Creem's newest SDK also accepts. */
  public static final String STANDARD_WEBHOOKS = "webhook-signature";
  /** 32 bytes in hex: a header of any other length is no signature, and is not hashed against. */
  private static final int HEX_LENGTH = 64;

  private final byte[] secret;

  /** @param secret the endpoint's webhook secret (Developers → Webhooks) */
  public CreemSignature(String secret) {
    if (secret.isEmpty()) {
      throw new IllegalArgumentException("no webhook secret");
    }
    this.secret = secret.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Throws unless {@code header} is the signature of exactly {@code body} by the configured secret.
   * {@code standardWebhooks}: the delivery carries a {@code webhook-signature} header.
   */
  public void verify(String header, boolean standardWebhooks, byte[] body) throws RejectedNotification {
    if (header == null || header.isBlank()) {
      throw new RejectedNotification(Reason.MISSING_SIGNATURE, "no " + HEADER + " header" + (!standardWebhooks ? ""
          : ", but a " + STANDARD_WEBHOOKS + " header: Creem signed this delivery the Standard Webhooks way, which"
              + " paynotify does not read yet (it reads " + HEADER + " only, as Creem's docs say): update paynotify"));
    }
    if (header.length() != HEX_LENGTH) { // the SDK's length check, before any comparison
      throw new RejectedNotification(Reason.BAD_SIGNATURE, HEADER + " is not 64 hex digits (" + header.length()
          + " characters)");
    }
    if (!Digests.sameSign(sign(secret, body), header)) {
      throw new RejectedNotification(Reason.BAD_SIGNATURE,
          HEADER + " does not match the body signed with creem.webhook_secret_file");
    }
  }

  /** The signature Creem sends for {@code body}. */
  public static String sign(String secret, byte[] body) {
    return sign(secret.getBytes(StandardCharsets.UTF_8), body);
  }

  private static String sign(byte[] secret, byte[] body) {
    return HexFormat.of().formatHex(Digests.hmacSha256(secret, body)); // the raw bytes: never decoded and re-encoded
  }
}
