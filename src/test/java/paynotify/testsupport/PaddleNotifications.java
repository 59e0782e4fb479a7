package paynotify.testsupport;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Paddle Billing events as Paddle sends them (the node SDK's mocks, trimmed to what a receiver reads), signed in
 * Paddle-Signature by a signer of the test tree: it is checked against the SDKs' published vectors
 * (PaddleSignatureTest), so it signs as Paddle does, not as the code under test does.
 */
public final class PaddleNotifications {
  /** The destination's secret key (TestService's paddle.webhook_secret). */
  public static final String SECRET = "pdl_ntfset_01hs0t3tw21j988db1pam5xg8m_paynotifyTestSecret0123456";
  public static final String OTHER_SECRET = "pdl_ntfset_01hs0t3tw21j988db1pam5xg8m_someOtherDestination98765";
  public static final String CURRENCY = "USD";
  public static final String OCCURRED_AT = "2026-11-18T11:06:40.366122Z"; // 19:06:40 in Beijing
  public static final String PATH = "/notify/paddle";

  private PaddleNotifications() {}

  /** An event of {@code type} about {@code data}, as Paddle wraps it. */
  public static JsonObject event(String eventId, String type, JsonObject data) {
    return new JsonObject().put("event_id", eventId).put("event_type", type).put("occurred_at", OCCURRED_AT)
        .put("notification_id", "ntf_" + eventId).put("data", data);
  }

  /** A transaction in {@code status} (paid or completed) naming {@code orderNo} (null: no custom_data). */
  public static JsonObject transaction(String orderNo, String txn, long grandTotal, String currency, String status,
      String origin) {
    String amount = Long.toString(grandTotal);
    return new JsonObject().put("id", txn).put("status", status).put("origin", origin)
        .put("customer_id", "ctm_01h8441jn5pcwrfhwh78jqt8hk").put("currency_code", currency)
        .put("custom_data", orderNo == null ? null : new JsonObject().put("order_no", orderNo))
        .put("subscription_id", origin.startsWith("subscription_") ? "sub_01h8bxswamxysj44zt5n48njwh" : null)
        .put("items", new JsonArray()).put("payments", new JsonArray()) // always there (the SDK maps them)
        .put("details", new JsonObject().put("totals", new JsonObject().put("subtotal", amount).put("tax", "0")
            .put("discount", "0").put("total", amount).put("credit", "0").put("balance", "0")
            .put("grand_total", amount).put("currency_code", currency))
            .put("tax_rates_used", new JsonArray()).put("line_items", new JsonArray()))
        .put("billed_at", "2026-11-18T11:06:39.104Z");
  }

  /** A transaction.completed (or .paid) of origin web, signed now. */
  public static Notification payment(String type, String orderNo, String txn, long grandTotal) {
    return signed(event("evt_" + type.substring(12) + "_" + txn, type,
        transaction(orderNo, txn, grandTotal, CURRENCY, type.substring(12), "web")));
  }

  /** An adjustment of {@code action} in {@code status}, its own total {@code total}. */
  public static JsonObject adjustment(String adj, String txn, String action, String status, long total) {
    String amount = Long.toString(total);
    return new JsonObject().put("id", adj).put("action", action).put("type", "partial").put("reason", "error")
        .put("status", status).put("transaction_id", txn).put("currency_code", CURRENCY)
        .put("totals", new JsonObject().put("subtotal", amount).put("tax", "0").put("total", amount)
            .put("fee", "0").put("earnings", "0").put("currency_code", CURRENCY))
        .put("created_at", "2026-11-18T12:00:00.000Z").put("updated_at", "2026-11-18T12:00:00.000Z");
  }

  /** Signed now with the test secret. */
  public static Notification signed(JsonObject event) {
    return signed(event.encode(), System.currentTimeMillis() / 1000, SECRET);
  }

  /** {@code body} signed at {@code ts} with each of {@code secrets}: one h1 each, as during a rotation. */
  public static Notification signed(String body, long ts, String... secrets) {
    StringBuilder header = new StringBuilder("ts=").append(ts);
    for (String secret : secrets) {
      header.append(";h1=").append(h1(secret, ts, body));
    }
    return new Notification("POST", PATH, Map.of("Content-Type", "application/json", "Paddle-Signature",
        header.toString()), body.getBytes(StandardCharsets.UTF_8), null);
  }

  /** Paddle's h1: hex HMAC-SHA256 of {@code ts:body}, keyed with the secret's characters. */
  public static String h1(String secret, long ts, String body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      byte[] digest = mac.doFinal((ts + ":" + body).getBytes(StandardCharsets.UTF_8));
      StringBuilder hex = new StringBuilder();
      for (byte b : digest) {
        hex.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
      }
      return hex.toString();
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
