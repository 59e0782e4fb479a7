package paynotify.forward;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.StringJoiner;
import paynotify.crypto.Digests;

/**
 * The Standard Webhooks 1.0.0 signature (standard-webhooks/standard-webhooks, {@code spec/standard-webhooks.md}),
 * which the libraries of PHP, Node and the other languages verify: {@code webhook-signature: v1,<base64
 * HMAC-SHA256(key, "<webhook-id>.<webhook-timestamp>.<raw body>")>}, one entry per secret (newest first, space
 * separated) while a secret is rotated. A secret written {@code whsec_<base64>} is keyed with the bytes it encodes;
 * any other (paynotify's before this header, {@code openssl rand -hex 32}) with its own UTF-8 bytes, which is the
 * secret {@code whsec_} + base64 of them to a library.
 */
public final class WebhookSignature {
  /** The event's id: the same at every attempt, what the site dedupes on. */
  public static final String ID = "webhook-id";
  /** This attempt's Unix seconds: a receiver refuses one far from its clock (a replay). */
  public static final String TIMESTAMP = "webhook-timestamp";
  public static final String SIGNATURE = "webhook-signature";
  /** paynotify's own header of the event's id, sent beside {@link #ID} since before Standard Webhooks. */
  public static final String PAYNOTIFY_EVENT_ID = "Paynotify-Event-Id";
  /** paynotify's own signature header, {@link ForwardSignature}'s (Stripe's scheme), sent beside {@link #SIGNATURE}. */
  public static final String PAYNOTIFY_SIGNATURE = "Paynotify-Signature";
  /** How a Standard Webhooks secret is written. */
  public static final String PREFIX = "whsec_";

  private final List<byte[]> keys;

  /** @param secrets newest first */
  public WebhookSignature(List<String> secrets) {
    this.keys = secrets.stream().map(WebhookSignature::key).toList();
  }

  /** The HMAC key of {@code secret}; an invalid whsec_ secret is an IllegalArgumentException (the config's check). */
  public static byte[] key(String secret) {
    return secret.startsWith(PREFIX) ? Base64.getDecoder().decode(secret.substring(PREFIX.length()))
        : secret.getBytes(StandardCharsets.UTF_8);
  }

  /** The {@code webhook-signature} header of an attempt sending {@code body} at {@code unixSeconds}. */
  public String header(String id, long unixSeconds, byte[] body) {
    byte[] prefix = (id + "." + unixSeconds + ".").getBytes(StandardCharsets.UTF_8);
    byte[] content = new byte[prefix.length + body.length];
    System.arraycopy(prefix, 0, content, 0, prefix.length);
    System.arraycopy(body, 0, content, prefix.length, body.length);
    StringJoiner header = new StringJoiner(" ");
    for (byte[] key : keys) {
      header.add("v1," + Base64.getEncoder().encodeToString(Digests.hmacSha256(key, content)));
    }
    return header.toString();
  }
}
