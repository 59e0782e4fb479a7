package paynotify.testsupport;

import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Creem webhooks in the shapes of Creem's docs ({@code code/webhooks.mdx}) and its webhook types
 * ({@code packages/webhook-types/src/entities.ts}), signed as its SDK's tests sign them
 * ({@code crypto.createHmac("sha256", secret).update(payload).digest("hex")}), written here apart from the
 * channel's code. Creem sends a retry as the same request.
 */
public final class CreemNotifications {
  public static final String PATH = "/notify/creem";
  public static final String HEADER = "creem-signature";
  /** The secret of the test endpoint (TestService's creem.webhook_secret). */
  public static final String SECRET = "whsec_paynotify_creem_test_0123456789";
  public static final String OTHER_SECRET = "whsec_another_creem_endpoint_9876543210";
  public static final String CURRENCY = "USD";
  /** The SDK's test secret ({@code creem_io} {@code __tests__/webhooks.test.ts}, TEST_SECRET). */
  public static final String SDK_SECRET = "whsec_test_secret_123";
  /** The SDK test's {@code JSON.stringify(makeEvent("checkout.completed", "checkout"))}. */
  public static final String SDK_BODY = "{\"id\":\"evt_123\",\"eventType\":\"checkout.completed\",\"created_at\":1700000000,"
      + "\"object\":{\"object\":\"checkout\",\"id\":\"obj_123\",\"mode\":\"test\"}}";
  /** Its signature: {@code openssl dgst -sha256 -hmac whsec_test_secret_123} of that body. */
  public static final String SDK_SIGNATURE = "a02c81bd26c574f1d0109590169ddab132635b5c1ad08a31d8cb305a2908c71f";
  /** Milliseconds, as the docs' events: 2026-11-18 11:06:40 UTC, 19:06:40 in Beijing. */
  public static final long CREATED = 1_795_000_000_000L;

  private CreemNotifications() {}

  /** The envelope: an event of {@code eventType} about {@code object}. */
  public static JsonObject event(String id, String eventType, JsonObject object) {
    return new JsonObject().put("id", id).put("eventType", eventType).put("created_at", CREATED).put("object", object);
  }

  /**
   * A completed checkout of a live one-time product, its order paid {@code paid} cents (tax included, no tax here),
   * naming the site's order in request_id.
   */
  public static JsonObject checkout(String orderNo, String orderId, long paid, String currency) {
    JsonObject order = new JsonObject().put("object", "order").put("id", orderId)
        .put("customer", "cust_1OcIK1GEuVvXZwD19tjq2z").put("product", "prod_d1AY2Sadk9YAvLI0pj97f")
        .put("transaction", "tran_" + orderId).put("amount", paid).put("sub_total", paid).put("tax_amount", 0)
        .put("discount_amount", 0).put("amount_due", paid).put("amount_paid", paid).put("currency", currency)
        .put("status", "paid").put("type", "onetime").put("created_at", "2026-11-18T11:06:33.097Z")
        .put("updated_at", "2026-11-18T11:06:33.097Z").put("mode", "prod");
    return new JsonObject().put("id", "ch_" + orderId).put("object", "checkout").put("request_id", orderNo)
        .put("order", order).put("product", "prod_d1AY2Sadk9YAvLI0pj97f").put("units", 1).put("status", "completed")
        .put("metadata", new JsonObject()).put("mode", "prod");
  }

  /** A refund of {@code amount} cents on order {@code orderId}, in {@code status}, its order expanded as the docs show. */
  public static JsonObject refund(String refundId, String orderId, long amount, String status, String currency) {
    JsonObject transaction = new JsonObject().put("id", "tran_" + orderId).put("object", "transaction")
        .put("amount", amount).put("currency", currency).put("type", "payment").put("status", "refunded")
        .put("refunded_amount", amount).put("order", orderId).put("mode", "prod");
    return new JsonObject().put("id", refundId).put("object", "refund").put("status", status)
        .put("refund_amount", amount).put("refund_currency", currency).put("reason", "requested_by_customer")
        .put("transaction", transaction)
        .put("order", new JsonObject().put("object", "order").put("id", orderId).put("status", "paid").put("mode", "prod"))
        .put("created_at", CREATED + 3_600_000).put("mode", "prod");
  }

  /** A dispute of {@code amount} cents on order {@code orderId}, named through its transaction only. */
  public static JsonObject dispute(String disputeId, String orderId, long amount) {
    return new JsonObject().put("id", disputeId).put("object", "dispute").put("amount", amount)
        .put("currency", CURRENCY).put("transaction", new JsonObject().put("id", "tran_" + orderId)
            .put("object", "transaction").put("status", "chargedBack").put("order", orderId).put("mode", "prod"))
        .put("created_at", CREATED + 7_200_000).put("mode", "prod");
  }

  /** The hex HMAC-SHA256 of {@code body}, keyed with the secret's UTF-8 bytes. */
  public static String signature(byte[] body, String secret) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return HexFormat.of().formatHex(mac.doFinal(body));
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Signed with the test secret. */
  public static Notification signed(JsonObject event) {
    return signed(event.encode(), SECRET);
  }

  /** {@code body} signed with {@code secret}. */
  public static Notification signed(String body, String secret) {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    return new Notification("POST", PATH, Map.of("Content-Type", "application/json",
        HEADER, signature(bytes, secret)), bytes, null);
  }

  /** Without its signature. */
  public static Notification unsigned(JsonObject event) {
    return Notification.post(PATH, "application/json", event.encode());
  }
}
