package paynotify.channel.lemonsqueezy;

import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import paynotify.channel.Ids;
import paynotify.channel.RejectedNotification.Reason;
import paynotify.channel.RejectedNotification;
import paynotify.crypto.Digests;

/**
 * Lemon Squeezy's webhook signature (docs.lemonsqueezy.com/help/webhooks/signing-requests): {@code X-Signature} is
 * the lower-case hex HMAC-SHA256 of the raw body, keyed with the signing secret the merchant typed when creating
 * the webhook. lmsqueezy/laravel's VerifyWebhookSignature does exactly this ({@code hash_hmac('sha256', $payload,
 * $secret)} against the header with {@code hash_equals}); the JS SDK has no verification helper. Nothing else is
 * signed apart: no timestamp, no event id, and the {@code X-Event-Name} header is not covered, so the event is the
 * body's {@code meta.event_name}. A signed event is still not ours when it is another store's, or test money on a
 * live instance ({@link #requireOurs}).
 */
public final class LemonSqueezySignature {
  /** The header that carries the signature. */
  public static final String HEADER = "X-Signature";
  /** The header that names the event: unsigned, never trusted. */
  public static final String EVENT_HEADER = "X-Event-Name";
  /** Hex of a SHA-256: anything longer is refused unread. */
  private static final int HEX_LENGTH = 64;

  private final byte[] secret;
  private final String storeId;
  private final boolean testMode;

  /**
   * @param storeId  the store whose events are booked (lemonsqueezy.store_id)
   * @param testMode test-mode events are ours too (lemonsqueezy.test_mode)
   */
  public LemonSqueezySignature(String secret, String storeId, boolean testMode) {
    if (secret.isEmpty()) {
      throw new IllegalArgumentException("no signing secret");
    }
    this.secret = secret.getBytes(StandardCharsets.UTF_8);
    this.storeId = storeId;
    this.testMode = testMode;
  }

  /** Throws unless {@code header} is the signature of {@code body} with the configured secret. */
  public void verify(String header, byte[] body) throws RejectedNotification {
    if (header == null || header.isEmpty()) {
      throw new RejectedNotification(Reason.MISSING_SIGNATURE, "no " + HEADER + " header");
    }
    if (header.length() != HEX_LENGTH) { // bounded before any comparison: a hex SHA-256 has 64 characters
      throw new RejectedNotification(Reason.BAD_SIGNATURE, HEADER + " is not 64 hex characters (it has "
          + header.length() + ")");
    }
    if (!Digests.sameSign(sign(secret, body), header)) {
      throw new RejectedNotification(Reason.BAD_SIGNATURE,
          HEADER + " does not verify with the configured signing secret (lemonsqueezy.signing_secret_file)");
    }
  }

  /**
   * Refuses a signed event that is not this site's money: another store's (one account, several stores, one
   * secret typed twice), or a test-mode one on a live instance. Test mode is {@code meta.test_mode}, which real
   * deliveries carry; where meta has none, the object's documented {@code data.attributes.test_mode}.
   *
   * @param booking whether the event would book: then it must name its store
   * @return whether it is test money (accepted: lemonsqueezy.test_mode is true)
   * @throws RejectedNotification WRONG_MERCHANT when it is not ours; MALFORMED when test_mode is not a boolean
   */
  boolean requireOurs(JsonObject meta, JsonObject attributes, boolean booking) throws RejectedNotification {
    Object store = attributes.getValue("store_id");
    if (store == null ? booking : !storeId.equals(String.valueOf(store))) {
      throw new RejectedNotification(Reason.WRONG_MERCHANT, "data.attributes.store_id '"
          + Ids.printable(store == null ? null : String.valueOf(store)) + "' is not the configured"
          + " lemonsqueezy.store_id");
    }
    Object test = meta.getValue("test_mode") != null ? meta.getValue("test_mode") : attributes.getValue("test_mode");
    if (test != null && !(test instanceof Boolean)) { // never read as live money: an anomaly for a human
      throw RejectedNotification.malformed("test_mode is not true or false");
    }
    if (Boolean.TRUE.equals(test) && !testMode) {
      throw new RejectedNotification(Reason.WRONG_MERCHANT, "a test-mode event, and this instance books live money"
          + " (lemonsqueezy.test_mode: false): lemonsqueezy.signing_secret_file holds a test-mode webhook's secret,"
          + " or lemonsqueezy.api_key_file a test-mode API key");
    }
    return Boolean.TRUE.equals(test);
  }

  // The tests sign with a signer of their own (testsupport/LemonSqueezyNotifications), not with this.
  private static String sign(byte[] secret, byte[] body) {
    return HexFormat.of().formatHex(Digests.hmacSha256(secret, body)); // the raw bytes: never decoded first
  }
}
