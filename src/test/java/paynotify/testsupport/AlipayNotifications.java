package paynotify.testsupport;

import com.alipay.api.AlipayApiException;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;
import paynotify.channel.alipay.AlipaySignature;

/**
 * Alipay notifications as Alipay sends them, signed by the official alipay-sdk-java with the
 * test-only key from the shared vectors (so our verifier is checked against the SDK, not itself).
 */
public final class AlipayNotifications {
  public static final JsonObject VECTORS = Vectors.load("alipay");
  public static final String APP_ID = VECTORS.getJsonObject("merchant").getString("app_id");
  public static final String SELLER_ID = VECTORS.getJsonObject("merchant").getString("seller_id");
  public static final String PUBLIC_KEY_PEM = VECTORS.getJsonObject("keys").getString("alipay_public_key_pem");
  public static final String PRIVATE_KEY =
      VECTORS.getJsonObject("keys").getString("TEST_ONLY_alipay_private_key_pkcs8_base64");
  public static final String OTHER_PRIVATE_KEY = VECTORS.getJsonObject("keys")
      .getString("TEST_ONLY_other_private_key_pkcs8_pem")
      .replaceAll("-----(BEGIN|END) PRIVATE KEY-----", "").replaceAll("\\s", "");

  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
  private static int notifySeq;

  private AlipayNotifications() {}

  /** The parameters of a TRADE_SUCCESS notification, unsigned. */
  public static Map<String, String> payment(String orderNo, String tradeNo, String amount) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("gmt_create", "2026-11-29 10:15:02");
    p.put("charset", "utf-8");
    p.put("gmt_payment", "2026-11-29 10:15:09");
    p.put("notify_time", LocalDateTime.now().format(TIME));
    p.put("subject", "Pro plan (monthly)");
    p.put("buyer_id", "2088102177846512");
    p.put("invoice_amount", amount);
    p.put("version", "1.0");
    p.put("notify_id", "2026112900222101509" + String.format("%013d", ++notifySeq));
    p.put("notify_type", "trade_status_sync");
    p.put("out_trade_no", orderNo);
    p.put("total_amount", amount);
    p.put("trade_status", "TRADE_SUCCESS");
    p.put("trade_no", tradeNo);
    p.put("auth_app_id", APP_ID);
    p.put("receipt_amount", amount);
    p.put("buyer_pay_amount", amount);
    p.put("app_id", APP_ID);
    p.put("seller_id", SELLER_ID);
    return p;
  }

  /** A retry of the same notification: Alipay re-sends with a new notify_time and notify_id. */
  public static Map<String, String> retry(Map<String, String> params, int n) {
    Map<String, String> copy = new LinkedHashMap<>(params);
    copy.put("notify_time", LocalDateTime.of(2026, 11, 29, 10, 16).plusSeconds(n).format(TIME));
    copy.put("notify_id", "2026112900222101509" + String.format("%013d", ++notifySeq));
    return copy;
  }

  /** Signed with the Alipay test key, form-encoded in UTF-8. */
  public static String signedBody(Map<String, String> params) {
    return signedBody(params, PRIVATE_KEY, StandardCharsets.UTF_8);
  }

  public static String signedBody(Map<String, String> params, String privateKey, Charset charset) {
    Map<String, String> signed = new LinkedHashMap<>(params);
    signed.put(AlipaySignature.SIGN_TYPE, AlipaySignature.Algorithm.RSA2.name());
    signed.put(AlipaySignature.SIGN, sign(params, privateKey, charset));
    return form(signed, charset);
  }

  /**
   * The signature as Alipay makes it, by the SDK itself: {@code rsaSign(getSignCheckContentV1(params), key,
   * charset, "RSA2")} (paynotify only verifies Alipay's: signing needs Alipay's private key).
   */
  public static String sign(Map<String, String> params, String privateKey, Charset charset) {
    try {
      String content = com.alipay.api.internal.util.AlipaySignature.getSignCheckContentV1(new LinkedHashMap<>(params));
      return com.alipay.api.internal.util.AlipaySignature.rsaSign(content, privateKey, charset.name(),
          AlipaySignature.Algorithm.RSA2.name());
    } catch (AlipayApiException e) {
      throw new IllegalStateException(e);
    }
  }

  public static String form(Map<String, String> params, Charset charset) {
    StringJoiner body = new StringJoiner("&");
    params.forEach((k, v) -> body.add(URLEncoder.encode(k, charset) + "=" + URLEncoder.encode(v, charset)));
    return body.toString();
  }
}
