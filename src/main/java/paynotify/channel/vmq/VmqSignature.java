package paynotify.channel.vmq;

import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import paynotify.channel.Ids;
import paynotify.channel.Money;
import paynotify.channel.RejectedNotification.Reason;
import paynotify.channel.RejectedNotification;
import paynotify.crypto.Digests;

/**
 * The V免签 {@code sign}, as szvone/vmqphp's {@code appPush} and szvone/Vmq's {@code WebService.appPush} compute
 * it: {@code md5(payId . param . type . price . reallyPrice . key)}, the values as sent (the PHP server writes a
 * price as {@code 10}, the Java one as {@code 10.0}), lower-case hex. The values are concatenated without a
 * separator, so the same sign covers other readings of the same string ({@link VmqReadings}); the servers send
 * only values in a grammar, which keeps those few: before the sign is looked at, {@code type} must be one of the
 * servers' two, the prices plain decimals above zero, and the order number in {@code vmq.order_pattern} where one
 * is set (one fixed length: no shorter or longer number is an order, so nothing moves between payId and param).
 */
public final class VmqSignature {
  /** The field that carries the sign. */
  public static final String SIGN = "sign";
  /** The servers' payment types: 1 WeChat, 2 Alipay (createOrder refuses any other). */
  public static final Set<String> TYPES = Set.of("1", "2");

  private final String key;
  private final String orderParameter;
  private final Pattern orderPattern;

  /**
   * @param orderParameter which parameter holds the site's order number: payId or param
   * @param orderPattern   what every order number matches in full, null when not configured
   */
  public VmqSignature(String key, String orderParameter, Pattern orderPattern) {
    this.key = key;
    this.orderParameter = orderParameter;
    this.orderPattern = orderPattern;
  }

  /** The sign of these values, as the server computes it. */
  public String sign(String payId, String param, String type, String price, String reallyPrice) {
    return Digests.md5Hex(payId + param + type + price + reallyPrice + key);
  }

  /** Whether {@code orderNo} is one of the site's order numbers as far as vmq.order_pattern can tell. */
  boolean orderNumber(String orderNo) {
    return orderPattern == null || orderPattern.matcher(orderNo).matches();
  }

  /**
   * Passes when the values are in their grammar (above) and {@code sign} is the sign of the five, compared in
   * constant time. An absent value is signed as the servers send it: empty.
   */
  public void verify(Map<String, String> params) throws RejectedNotification {
    String sign = params.get(SIGN);
    if (sign == null || sign.isEmpty()) {
      throw new RejectedNotification(Reason.MISSING_SIGNATURE, "no sign parameter");
    }
    String type = params.get("type");
    if (type == null || !TYPES.contains(type)) { // Set.of refuses to look for null: absent is refused here
      throw RejectedNotification.malformed("type '" + Ids.printable(type) + "' is not 1 (WeChat) or 2 (Alipay)");
    }
    for (String price : new String[] {"price", "reallyPrice"}) {
      if (Money.yuanToCents(price, params.get(price)) == 0) { // refused (400) unless a plain decimal
        throw RejectedNotification.malformed(price + " is zero");
      }
    }
    String orderNo = params.getOrDefault(orderParameter, "");
    if (!orderNumber(orderNo)) {
      throw RejectedNotification.malformed("the order number '" + Ids.printable(orderNo) + "' (" + orderParameter
          + ") does not match vmq.order_pattern");
    }
    String expected = sign(params.getOrDefault("payId", ""), params.getOrDefault("param", ""), type,
        params.get("price"), params.get("reallyPrice"));
    if (!Digests.sameSign(expected, sign)) {
      throw new RejectedNotification(Reason.BAD_SIGNATURE,
          "sign does not verify with the configured key (vmq.key_file)");
    }
  }
}
