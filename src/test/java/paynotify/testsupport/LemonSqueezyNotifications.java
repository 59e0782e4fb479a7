package paynotify.testsupport;

import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Lemon Squeezy webhooks as Lemon Squeezy sends them: {@code {meta, data}} with the Order object of the docs'
 * example (docs.lemonsqueezy.com/api/orders, "Retrieve an Order"), signed in X-Signature by a signer of its own
 * (the HMAC of the raw body, as lmsqueezy/laravel's VerifyWebhookSignature computes it), not by paynotify's code.
 * Lemon Squeezy publishes no signature vector: NotificationSignersTest pins this signer to openssl's output.
 */
public final class LemonSqueezyNotifications {
  public static final String PATH = "/notify/lemonsqueezy";
  /** The test webhook's signing secret (TestService's lemonsqueezy.signing_secret): 6-40 characters, as LS asks. */
  public static final String SECRET = "ls_paynotify_test_signing_secret";
  public static final String OTHER_SECRET = "ls_some_other_webhooks_secret";
  /** The test store (lemonsqueezy.store_id), and another one of the same account. */
  public static final long STORE_ID = 31415;
  public static final long OTHER_STORE_ID = 27182;
  public static final String CURRENCY = "USD";

  /**
   * A signature computed once with openssl (Lemon Squeezy publishes none), over the example order event of the
   * issue's research notes: {@code printf '%s' "$VECTOR_BODY" | openssl dgst -sha256 -hmac ls_test_secret}.
   */
  public static final String VECTOR_SECRET = "ls_test_secret";
  public static final String VECTOR_BODY = "{\"meta\":{\"event_name\":\"order_created\",\"test_mode\":true,"
      + "\"custom_data\":{\"order_no\":\"PN1001\"}},\"data\":{\"type\":\"orders\",\"id\":\"1\",\"attributes\":"
      + "{\"store_id\":1,\"currency\":\"USD\",\"total\":1199,\"status\":\"paid\",\"test_mode\":true}}}";
  public static final String VECTOR_SIGNATURE = "3766d7d4462b939e4b999d72d30fbdeb7385d7f73d0a6496b1d2d7c19ed3d572";

  private LemonSqueezyNotifications() {}

  /** The webhook's body: {@code meta} with the event and the checkout's custom data, {@code data} the Order. */
  public static JsonObject event(String eventName, String orderNo, JsonObject order) {
    JsonObject meta = new JsonObject().put("test_mode", false).put("event_name", eventName)
        .put("webhook_id", "5a6b7c8d-0000-4e1f-9a2b-3c4d5e6f7a8b");
    if (orderNo != null) {
      meta.put("custom_data", new JsonObject().put("order_no", orderNo));
    }
    return new JsonObject().put("meta", meta).put("data", order);
  }

  /**
   * A paid Order of {@code cents} in {@code currency}, as order_created carries it; {@code id} is data.id, and its
   * identifier {@link #identifier(String) the id's own UUID}.
   */
  public static JsonObject order(String id, long cents, String currency) {
    String identifier = identifier(id);
    JsonObject attributes = new JsonObject()
        .put("store_id", STORE_ID).put("customer_id", 1).put("identifier", identifier)
        .put("order_number", 1).put("user_name", "John Doe").put("user_email", "johndoe@example.com")
        .put("currency", currency).put("currency_rate", "1.0000")
        .put("subtotal", cents).put("setup_fee", 0).put("discount_total", 0).put("tax", 0).put("total", cents)
        .put("refunded_amount", 0)
        .put("subtotal_usd", cents).put("setup_fee_usd", 0).put("discount_total_usd", 0).put("tax_usd", 0)
        .put("total_usd", cents).put("refunded_amount_usd", 0)
        .put("tax_name", "VAT").put("tax_rate", "0.00").put("tax_inclusive", false)
        .put("status", "paid").put("status_formatted", "Paid").put("refunded", false).putNull("refunded_at")
        .put("subtotal_formatted", "$" + dollars(cents)).put("setup_fee_formatted", "$0.00")
        .put("discount_total_formatted", "$0.00").put("tax_formatted", "$0.00")
        .put("total_formatted", "$" + dollars(cents))
        .put("first_order_item", new JsonObject().put("id", 1).put("order_id", 1).put("product_id", 1)
            .put("variant_id", 1).put("product_name", "Test Limited License for 2 years")
            .put("variant_name", "Default").put("price", cents).put("created_at", "2026-11-18T11:06:40.000000Z")
            .put("updated_at", "2026-11-18T11:06:40.000000Z").put("test_mode", false))
        .put("urls", new JsonObject().put("receipt", "https://app.lemonsqueezy.com/my-orders/" + identifier
            + "?signature=8847fff02e1bfb0c7c43ff1cdf1b1657a8eed2029413692663b86859208c9f42"))
        .put("created_at", "2026-11-18T11:06:40.000000Z").put("updated_at", "2026-11-18T11:06:40.000000Z")
        .put("test_mode", false);
    return new JsonObject().put("type", "orders").put("id", id).put("attributes", attributes)
        .put("links", new JsonObject().put("self", "https://api.lemonsqueezy.com/v1/orders/" + id));
  }

  /** The Order {@code id}'s identifier: a UUID of its own, the same on every run (Lemon Squeezy's are random). */
  public static String identifier(String id) {
    return UUID.nameUUIDFromBytes(("lemonsqueezy order " + id).getBytes(StandardCharsets.UTF_8)).toString();
  }

  /**
   * What a site keeps in orders.columns.platform_ref for the Order {@code id}: {@code <id>:<identifier>}, as its
   * thank-you page hands them over (Checkout.Success, or a button link's [order_id] and [order_identifier]).
   */
  public static String platformRef(String id) {
    return id + ":" + identifier(id);
  }

  /** order_created of a paid Order of {@code cents} in the site's currency for {@code orderNo}. */
  public static JsonObject paid(String orderNo, String id, long cents) {
    return event("order_created", orderNo, order(id, cents, CURRENCY));
  }

  /**
   * order_refunded of the Order {@code id} (paid {@code paid}) once {@code refundedSoFar} is refunded on it in all:
   * refunded_amount is that running total. {@code status} partial_refund or refunded, as lmsqueezy/laravel's
   * OrderStatus has them, or paid, as the docs' "Issue a refund" example shows after a partial refund.
   */
  public static JsonObject refunded(String orderNo, String id, long paid, long refundedSoFar, String status) {
    JsonObject order = order(id, paid, CURRENCY);
    order.getJsonObject("attributes").put("refunded_amount", refundedSoFar).put("refunded_amount_usd", refundedSoFar)
        .put("refunded", refundedSoFar >= paid).put("refunded_at", "2026-11-19T08:00:00.000000Z")
        .put("status", status).put("status_formatted", status);
    return event("order_refunded", orderNo, order);
  }

  /** order_refunded with the status Lemon Squeezy's laravel package names for the total refunded. */
  public static JsonObject refunded(String orderNo, String id, long paid, long refundedSoFar) {
    return refunded(orderNo, id, paid, refundedSoFar, refundedSoFar >= paid ? "refunded" : "partial_refund");
  }

  /** Signed with the test secret; X-Event-Name says the event's own name, as Lemon Squeezy sends it. */
  public static Notification signed(JsonObject event) {
    return signed(event.encode(), SECRET, event.getJsonObject("meta").getString("event_name"));
  }

  /** {@code body} signed with {@code secret}; {@code eventHeader} the X-Event-Name sent beside it, or null for none. */
  public static Notification signed(String body, String secret, String eventHeader) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Content-Type", "application/json");
    headers.put("X-Signature", signature(body.getBytes(StandardCharsets.UTF_8), secret));
    if (eventHeader != null) {
      headers.put("X-Event-Name", eventHeader);
    }
    return new Notification("POST", PATH, headers, body.getBytes(StandardCharsets.UTF_8), null);
  }

  /** Sent without X-Signature. */
  public static Notification unsigned(JsonObject event) {
    return Notification.post(PATH, "application/json", event.encode());
  }

  /** The lower-case hex HMAC-SHA256 of the body's bytes, keyed with the secret's UTF-8 bytes. */
  public static String signature(byte[] body, String secret) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return HexFormat.of().formatHex(mac.doFinal(body));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static String dollars(long cents) {
    return String.format("%d.%02d", cents / 100, cents % 100);
  }
}
