package paynotify.testsupport;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;

/**
 * V免签 (vmq) notifications as its servers (szvone/vmqphp, szvone/Vmq) send them: a GET whose values are
 * neither encoded nor separated in the sign, written here apart from the channel's code. Ids in tests keep
 * to plain ASCII, as they must with the real servers.
 */
public final class VmqNotifications {
  public static final String PATH = "/notify/vmq";
  public static final String KEY = "vmq_test_key_0123456789abcdef";
  public static final String OTHER_KEY = "vmq_key_of_another_server_0000";

  private VmqNotifications() {}

  /** A WeChat payment (type 1), unsigned, its fields in the servers' order. */
  public static Map<String, String> payment(String payId, String param, String price, String reallyPrice) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("payId", payId);
    p.put("param", param);
    p.put("type", "1");
    p.put("price", price);
    p.put("reallyPrice", reallyPrice);
    return p;
  }

  /** md5(payId . param . type . price . reallyPrice . key), of the strings as sent. */
  public static String sign(Map<String, String> p, String key) {
    return Md5.hex(p.get("payId") + p.get("param") + p.get("type") + p.get("price") + p.get("reallyPrice") + key);
  }

  /**
   * The sign of the site's createOrder request, md5(payId . param . type . price . key), which the buyer's browser
   * is sent: the notify's string short of reallyPrice.
   */
  public static String createOrderSign(String payId, String param, String type, String price) {
    return Md5.hex(payId + param + type + price + KEY);
  }

  /** {@code fields} with their sign by {@code key}. */
  public static Map<String, String> signed(Map<String, String> fields, String key) {
    Map<String, String> signed = new LinkedHashMap<>(fields);
    signed.put("sign", sign(fields, key));
    return signed;
  }

  /** Signed with the test key and sent. */
  public static Notification signed(Map<String, String> fields) {
    return get(signed(fields, KEY));
  }

  /** The fields as they are, joined into the query as the servers do: {@code "payId=" + payId + "&param=" ...}. */
  public static Notification get(Map<String, String> fields) {
    StringJoiner query = new StringJoiner("&");
    fields.forEach((k, v) -> query.add(k + "=" + v));
    return Notification.get(PATH, query.toString());
  }

  /** The price of {@code cents} as the PHP server writes its double: "10", "10.5", "10.01". */
  public static String price(long cents) {
    return BigDecimal.valueOf(cents, 2).stripTrailingZeros().toPlainString();
  }
}
