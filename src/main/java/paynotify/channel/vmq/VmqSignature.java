package paynotify.channel.vmq;

import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import paynotify.channel.Ids;
import paynotify.channel.Money;
import paynotify.channel.RejectedNotification;
import paynotify.channel.RejectedNotification.Reason;
import paynotify.channel.Signatures;

/**
 * The V免签 {@code sign}, as szvone/vmqphp's {@code appPush} and szvone/Vmq's {@code WebService.appPush} compute
 * it: {@code md5(payId . param . type . price . reallyPrice . key)}, the values as sent (the PHP server writes a
 * price as {@code 10}, the Java one as {@code 10.0}), lower-case hex. The values are concatenated without a
 * separator, so characters could move between neighbours under the same sign ({@code price=10&reallyPrice=10.01}
 * signs as {@code price=101&reallyPrice=0.01}), and createOrder's sign, {@code md5(payId . param . type . price .
 * key)}, which the buyer's browser is sent, is the same string short of reallyPrice. So before the sign is looked
 * at: {@code type} must be one of the servers' two, the prices plain decimals above zero, the order number in
 * {@code vmq.order_pattern} where one is set (one fixed length: no shorter or longer number is an order), and
 * where the order is the payId, {@code param} must not end in a digit or a dot (none can move into type and
 * price). The price shift left is the channel's check.
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
    return Signatures.md5Hex(payId + param + type + price + reallyPrice + key);
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
    if (!TYPES.contains(type)) {
      throw RejectedNotification.malformed("type '" + Ids.printable(type) + "' is not 1 (WeChat) or 2 (Alipay)");
    }
    for (String price : new String[] {"price", "reallyPrice"}) {
      if (Money.yuanToCents(price, params.get(price)) == 0) { // refused (400) unless a plain decimal
        throw RejectedNotification.malformed(price + " is zero");
      }
    }
    String orderNo = params.getOrDefault(orderParameter, "");
    if (orderPattern != null && !orderPattern.matcher(orderNo).matches()) {
      throw RejectedNotification.malformed("the order number '" + Ids.printable(orderNo) + "' (" + orderParameter
          + ") does not match vmq.order_pattern");
    }
    String param = params.getOrDefault("param", "");
    boolean digitLast = !param.isEmpty() && "0123456789.".indexOf(param.charAt(param.length() - 1)) >= 0;
    if (orderParameter.equals("payId") && digitLast) {
      throw RejectedNotification.malformed("param '" + Ids.printable(param) + "' ends in a digit, which could move"
          + " into type and price under the same sign: with vmq.order_field payId, end param with another character"
          + " or leave it empty");
    }
    String expected = sign(params.getOrDefault("payId", ""), params.getOrDefault("param", ""), type,
        params.get("price"), params.get("reallyPrice"));
    if (!Signatures.sameSign(expected, sign)) {
      throw new RejectedNotification(Reason.BAD_SIGNATURE,
          "sign does not verify with the configured key (vmq.key_file)");
    }
  }
}
