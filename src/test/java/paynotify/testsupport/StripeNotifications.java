package paynotify.testsupport;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import paynotify.channel.stripe.StripeSignature;

/** Stripe webhook events as Stripe sends them: the event JSON, signed in Stripe-Signature. */
public final class StripeNotifications {
  /** The secret of the test endpoint (TestService's stripe.webhook_secret). */
  public static final String SECRET = "whsec_paynotify_test_0123456789abcdef";
  public static final String OTHER_SECRET = "whsec_some_other_endpoint_fedcba9876543210";
  public static final String CURRENCY = "usd";
  public static final long CREATED = 1_795_000_000L; // 2026-11-18 11:06:40 UTC, 19:06:40 in Beijing

  private StripeNotifications() {}

  /** An event of {@code type} about {@code object}; {@code id} is the event's own (evt_...). */
  public static JsonObject event(String id, String type, JsonObject object) {
    return new JsonObject().put("id", id).put("object", "event").put("api_version", "2024-06-20")
        .put("created", CREATED).put("livemode", true).put("pending_webhooks", 1).put("type", type)
        .put("data", new JsonObject().put("object", object));
  }

  /** A paid Checkout Session naming its order in client_reference_id. */
  public static JsonObject session(String orderNo, String paymentIntent, long amount, String currency) {
    return new JsonObject().put("id", "cs_test_" + paymentIntent).put("object", "checkout.session")
        .put("mode", "payment").put("status", "complete").put("payment_status", "paid")
        .put("client_reference_id", orderNo).put("payment_intent", paymentIntent)
        .put("amount_subtotal", amount).put("amount_total", amount).put("currency", currency)
        .put("metadata", new JsonObject()).put("created", CREATED - 600).put("livemode", true);
  }

  /** A succeeded PaymentIntent; {@code orderNo} null: no metadata (a Checkout site using client_reference_id). */
  public static JsonObject paymentIntent(String orderNo, String id, long amount, String currency) {
    return new JsonObject().put("id", id).put("object", "payment_intent").put("status", "succeeded")
        .put("amount", amount).put("amount_received", amount).put("currency", currency)
        .put("metadata", orderNo == null ? new JsonObject() : new JsonObject().put("order_no", orderNo))
        .put("created", CREATED - 60).put("livemode", true);
  }

  /** A Charge of {@code paymentIntent} with {@code refundedSoFar} refunded, the newest refund {@code refundId}. */
  public static JsonObject refundedCharge(String paymentIntent, long paid, String refundId, long refundAmount,
      long refundedSoFar, String currency) {
    JsonObject refund = new JsonObject().put("id", refundId).put("object", "refund").put("amount", refundAmount)
        .put("currency", currency).put("payment_intent", paymentIntent).put("status", "succeeded")
        .put("created", CREATED + 3600);
    return refundedCharge(paymentIntent, paid, refundedSoFar, currency)
        .put("refunds", new JsonObject().put("object", "list").put("has_more", false)
            .put("data", new JsonArray().add(refund)));
  }

  /** That Charge as API versions from 2022-11-15 send it: without its refunds list, so naming no refund. */
  public static JsonObject refundedCharge(String paymentIntent, long paid, long refundedSoFar, String currency) {
    return new JsonObject().put("id", "ch_" + paymentIntent).put("object", "charge").put("amount", paid)
        .put("amount_captured", paid).put("amount_refunded", refundedSoFar).put("refunded", refundedSoFar >= paid)
        .put("currency", currency).put("payment_intent", paymentIntent).put("created", CREATED - 60);
  }

  /** Signed now with the test secret. */
  public static Notification signed(JsonObject event) {
    return signed(event.encode(), System.currentTimeMillis() / 1000, SECRET);
  }

  /** {@code body} signed at {@code t} with each of {@code secrets} (one v1 each, as during a roll). */
  public static Notification signed(String body, long t, String... secrets) {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    return new Notification("POST", "/notify/stripe", Map.of("Content-Type", "application/json; charset=utf-8",
        StripeSignature.HEADER, StripeSignature.header(t, bytes, secrets)), bytes, null);
  }
}
