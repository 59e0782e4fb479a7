package paynotify.testsupport;

import java.net.URLEncoder;
import java.nio.charset.Charset;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;
import paynotify.channel.Money;

/**
 * PayPal IPNs as PayPal posts them (form-urlencoded in the body's charset, windows-1252 by default),
 * each {@link PaypalVerifier#issue issued} so that the local verifier answers VERIFIED for exactly
 * these bytes.
 */
public final class PaypalNotifications {
  public static final String RECEIVER_EMAIL = "Seller@Example.com";
  public static final String RECEIVER_ID = "SELLER7QJKLMN";
  public static final String CURRENCY = "USD";
  public static final String PATH = "/notify/paypal";
  public static final Charset WINDOWS_1252 = Charset.forName("windows-1252");

  private PaypalNotifications() {}

  /** A Completed web_accept payment of {@code cents} for order {@code invoice}. */
  public static Map<String, String> payment(String invoice, String txnId, long cents) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("mc_gross", Money.format(cents));
    p.put("invoice", invoice);
    p.put("protection_eligibility", "Eligible");
    p.put("payer_id", "LPLWNMTBWMFAY");
    p.put("payment_date", "10:20:30 Nov 30, 2026 PST");
    p.put("payment_status", "Completed");
    p.put("charset", "windows-1252");
    p.put("first_name", "John");
    p.put("mc_fee", "0.88");
    p.put("notify_version", "3.9");
    p.put("custom", "");
    p.put("payer_status", "verified");
    p.put("business", RECEIVER_EMAIL.toLowerCase());
    p.put("quantity", "1");
    p.put("payer_email", "buyer@example.com");
    p.put("txn_id", txnId);
    p.put("payment_type", "instant");
    p.put("last_name", "Smith");
    p.put("receiver_email", RECEIVER_EMAIL.toLowerCase());
    p.put("payment_fee", "");
    p.put("receiver_id", RECEIVER_ID);
    p.put("txn_type", "web_accept");
    p.put("item_name", "VIP membership");
    p.put("mc_currency", CURRENCY);
    p.put("residence_country", "US");
    p.put("ipn_track_id", "a1b2c3" + Integer.toHexString(txnId.hashCode()));
    // PayPal's legacy signature field: paynotify, like PayPal's own guidance, ignores it and asks PayPal.
    p.put("verify_sign", "AFcWxV21C7fd0v3bYYYRCpSSRl31Adh3XwqHwjzM6gP9bAkmhHz0ogQy");
    return p;
  }

  /** PayPal's Refunded IPN: parent_txn_id is the paid trade, mc_gross minus this refund, its own txn_id. */
  public static Map<String, String> refund(String invoice, String parentTxnId, String refundTxnId, long cents) {
    Map<String, String> p = payment(invoice, refundTxnId, cents);
    p.put("mc_gross", "-" + Money.format(cents));
    p.put("mc_fee", "-0.03");
    p.put("payment_status", "Refunded");
    p.put("reason_code", "refund");
    p.put("parent_txn_id", parentTxnId);
    p.remove("txn_type"); // refund IPNs carry none
    return p;
  }

  /** Attempt 0 as first sent; later ones as resent from PayPal's IPN History page ({@code resend=true}). */
  public static Map<String, String> resent(Map<String, String> params, int attempt) {
    if (attempt > 0) {
      params.put("resend", "true");
    }
    return params;
  }

  /** Posted as PayPal does, in {@code charset}; issued to the verifier (genuine). */
  public static Notification genuine(Map<String, String> params, Charset charset) {
    return unissued(PaypalVerifier.get().issue(form(params, charset)));
  }

  public static Notification genuine(Map<String, String> params) {
    return genuine(params, WINDOWS_1252);
  }

  /** These exact bytes, never issued by PayPal: the verifier answers INVALID. */
  public static Notification unissued(byte[] body) {
    return new Notification("POST", PATH, Map.of("Content-Type", "application/x-www-form-urlencoded"), body, null);
  }

  public static byte[] form(Map<String, String> params, Charset charset) {
    StringJoiner body = new StringJoiner("&");
    params.forEach((k, v) -> body.add(URLEncoder.encode(k, charset) + "=" + URLEncoder.encode(v, charset)));
    return body.toString().getBytes(charset);
  }
}
