package paynotify.testsupport;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * 虎皮椒 (xunhupay) notifications as the platform posts them, hashed as its official PHP SDK's
 * {@code generate_xh_hash} does, written here apart from the channel's code so that each checks the other.
 */
public final class XunhupayNotifications {
  public static final String PATH = "/notify/xunhupay";
  /** The platform's public test account, published with its SDK (phalapi/xunhupay src/sdk/notify.php). */
  public static final String APPID = "2147483647";
  public static final String APPSECRET = "160130736b1ac0d54ed7abe51e44840b";
  public static final String OTHER_APPID = "2147480001";
  public static final String OTHER_APPSECRET = "0f1e2d3c4b5a69788796a5b4c3d2e1f0";

  private XunhupayNotifications() {}

  /**
   * A paid order (status OD), unsigned, its fields in the order of a captured body; each {@code attempt} gets
   * its own nonce_str and time, as the platform's retries do.
   */
  public static Map<String, String> payment(String orderNo, String openOrderId, String totalFee, int attempt) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("trade_order_id", orderNo);
    p.put("total_fee", totalFee);
    p.put("transaction_id", "4200001232202611" + openOrderId);
    p.put("open_order_id", openOrderId);
    p.put("order_title", "VIP会员_plan1");
    p.put("status", "OD");
    p.put("nonce_str", Long.toString(1_324_478_357L + attempt));
    p.put("time", Long.toString(System.currentTimeMillis() / 1000 + attempt));
    p.put("appid", APPID);
    return p;
  }

  /**
   * A notification of the public test account as the platform sent it, hash included: captured by a
   * WordPress plugin (class VK_Hupay), a WeChat payment of 0.10 with a Chinese title and JSON in plugins.
   */
  public static Map<String, String> testAccountNotification() {
    Map<String, String> f = new LinkedHashMap<>();
    f.put("trade_order_id", "19112309425538");
    f.put("total_fee", "0.10");
    f.put("transaction_id", "4200000452201911236648686816");
    f.put("open_order_id", "20201085773");
    f.put("order_title", "一个月特价");
    f.put("status", "OD");
    f.put("plugins", "{\"oid\":\"10\",\"pay_type\":\"2\",\"type\":\"wxpay\",\"uid\":\"1\"}");
    f.put("nonce_str", "1324478357");
    f.put("time", "1574473382");
    f.put("appid", "2147483647");
    f.put("hash", "6ace7cbe58ed0a6f4aa94501c74f915b");
    return f;
  }

  /**
   * md5 of every field but hash whose value is not "" (not trimmed: " " and "0" are signed), sorted by name,
   * joined k=v with &amp;, the secret appended as is; lower-case hex.
   */
  public static String hash(Map<String, String> fields, String appsecret) {
    StringJoiner signed = new StringJoiner("&");
    new TreeMap<>(fields).forEach((k, v) -> {
      if (!k.equals("hash") && !v.isEmpty()) {
        signed.add(k + "=" + v);
      }
    });
    return Md5.hex(signed + appsecret);
  }

  /** {@code fields} with their hash, by {@code appsecret}. */
  public static Map<String, String> signed(Map<String, String> fields, String appsecret) {
    Map<String, String> signed = new LinkedHashMap<>(fields);
    signed.put("hash", hash(fields, appsecret));
    return signed;
  }

  /** Hashed with the test account's secret and posted. */
  public static Notification signed(Map<String, String> fields) {
    return post(signed(fields, APPSECRET));
  }

  /** The fields as they are, form-encoded in UTF-8. */
  public static Notification post(Map<String, String> fields) {
    return Notification.post(PATH, "application/x-www-form-urlencoded",
        AlipayNotifications.form(fields, StandardCharsets.UTF_8));
  }
}
