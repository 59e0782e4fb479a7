package paynotify.testsupport;

import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import paynotify.channel.epay.EpaySignature;

/**
 * Epay notifications as the reference platform (彩虹易支付) sends them: a GET query built like
 * PHP's http_build_query, signed by {@link EpaySignature} (the shared vectors, signed by the
 * reference implementation, check that rule against the platform's).
 */
public final class EpayNotifications {
  public static final JsonObject VECTORS = Vectors.load("epay");
  public static final String PID = VECTORS.getJsonObject("merchant").getString("pid");
  public static final String KEY = VECTORS.getJsonObject("keys").getString("merchant_key");
  public static final String OTHER_KEY = VECTORS.getJsonObject("keys").getString("other_merchant_key");
  public static final String PATH = "/notify/epay";

  private EpayNotifications() {}

  public static Map<String, String> payment(String orderNo, String tradeNo, String money) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("pid", PID);
    p.put("trade_no", tradeNo);
    p.put("out_trade_no", orderNo);
    p.put("type", "alipay");
    p.put("name", "VIP membership");
    p.put("money", money);
    p.put("trade_status", "TRADE_SUCCESS");
    return p;
  }

  /** Signed with {@code key}: sign and sign_type appended. */
  public static Map<String, String> signed(Map<String, String> params, String key) {
    Map<String, String> signed = new LinkedHashMap<>(params);
    signed.put(EpaySignature.SIGN, new EpaySignature(PID, key).sign(params));
    signed.put(EpaySignature.SIGN_TYPE, "MD5");
    return signed;
  }

  public static Notification get(Map<String, String> signed) {
    return Notification.get(PATH, AlipayNotifications.form(signed, StandardCharsets.UTF_8));
  }

  public static Notification post(Map<String, String> signed) {
    return Notification.post(PATH, "application/x-www-form-urlencoded",
        AlipayNotifications.form(signed, StandardCharsets.UTF_8));
  }
}
