package paynotify.channel.creem;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import paynotify.channel.RejectedNotification.Reason;
import paynotify.channel.RejectedNotification;
import paynotify.crypto.Digests;

/**
 * Creem's webhook signature, as its TypeScript SDK ({@code creem_io}, {@code resources/webhooks.ts}) checks it:
 * {@code creem-signature} is the lower-case hex HMAC-SHA256 of the raw body, keyed with the webhook secret's
 * characters as they are (the whole {@code whsec_...} string). There is no timestamp, so nothing bounds a replay:
 * a replayed event is its booking's duplicate (the order's trade, the refund's id).
 */
public final class CreemSignature {
  /** The header carrying the signature (HTTP header names are case-insensitive). */
  public static final String HEADER = "creem-signature";
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

  /** Throws unless {@code header} is the signature of exactly {@code body} by the configured secret. */
  public void verify(String header, byte[] body) throws RejectedNotification {
    if (header == null || header.isBlank()) {
      throw new RejectedNotification(Reason.MISSING_SIGNATURE, "no " + HEADER + " header");
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
