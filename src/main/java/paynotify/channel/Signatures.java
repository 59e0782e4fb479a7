package paynotify.channel;

import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import paynotify.crypto.RsaSignatureCheck;

/**
 * Where every authenticity rule is, and what they are built from. A platform's rules are in the
 * {@code ...Signature} class of its package (PayPal's also in the two classes that class uses); its
 * {@code ...Channel} calls them where the platform's protocol puts each, and only parses and normalises
 * what passed:
 * <ul>
 *   <li>{@code alipay.AlipaySignature}: RSA2 (or legacy RSA, as configured: the request's sign_type is
 *       never read) over the sorted parameters, app_id and seller_id, and the notify_type and notify_id
 *       that a return_url's parameters lack;
 *   <li>{@code epay.EpaySignature}: MD5 of the sorted parameters and the key, and pid;
 *   <li>{@code wechat.WechatV2Signature}: a payment's MD5 or HMAC-SHA256 sign (a sign_type sent must be
 *       the configured one), a refund's req_info (AES-256-ECB, keyed with the MD5 of the API key), and
 *       appid and mch_id;
 *   <li>{@code wechat.WechatV3Signature}: SHA256withRSA over the {@code Wechatpay-*} headers and the
 *       body with the platform key the serial names (WeChat's signature probe refused, the timestamp
 *       window where configured), the AES-256-GCM resource (the APIv3 key), and mchid and a payment's appid;
 *   <li>{@code stripe.StripeSignature}: HMAC-SHA256 in {@code Stripe-Signature} within the tolerance,
 *       no Connect account's event, no test money on a live instance;
 *   <li>{@code paypal.PaypalIpnSignature}: PayPal asked ({@code cmd=_notify-validate}), after the checks
 *       on the raw body that need no asking ({@code paypal.IpnPrecheck}: test_ipn, the receiver, a
 *       well-formed currency), at the address {@code paypal.VerifyEndpoint} allowed at start.
 * </ul>
 * The merchant's ids are authenticity rules too (a genuine notification for another merchant is
 * refused, WRONG_MERCHANT): each {@code ...Signature} of Alipay, epay and WeChat is built with the
 * configured ids and checks them with {@link Ids#requireMerchant}; PayPal's receiver is IpnPrecheck's,
 * Stripe's account the Connect check's. What the rules share is here (the sorted content, values that
 * could be re-split, digests, the constant-time comparison) and in {@link RsaSignatureCheck}.
 */
public final class Signatures {
  private static final Pattern NUMBERED = Pattern.compile("_[0-9]+$");

  private Signatures() {}

  /**
   * The content form-style protocols sign: the parameters sorted by name, {@code k=v} joined with
   * {@code &}, values exactly as decoded (never re-encoded or trimmed), then {@code appended}.
   *
   * @param unsigned the names that are not signed
   * @param empty    the values whose parameter is not signed
   * @param appended pairs added after the sorted ones, e.g. WeChat Pay v2's {@code key=<API key>}
   */
  public static String sortedContent(Map<String, String> params, Set<String> unsigned, Predicate<String> empty,
      String... appended) {
    StringJoiner content = new StringJoiner("&");
    new TreeMap<>(params).forEach((name, value) -> {
      if (!unsigned.contains(name) && !empty.test(value)) {
        content.add(name + "=" + value);
      }
    });
    for (String pair : appended) {
      content.add(pair);
    }
    return content.toString();
  }

  /**
   * Refuses parameters that {@link #sortedContent} could have joined from other ones. Values are
   * joined unescaped, so a value holding {@code &out_trade_no=X} signs the same content as a
   * message whose out_trade_no is X: a genuine message the buyer sees (a return URL) with buyer
   * text in a signed field could be re-split into a payment for another order. Only the protocol's
   * own names count: the site's text may hold {@code a&b=c} (JSON, a query string of its own), and
   * splitting there only adds a parameter nobody reads. A name holding {@code &} or {@code =} could
   * move a boundary the same way and is refused too.
   *
   * @param protocolNames the parameters the platform sends; {@code name_$n} stands for {@code name_0},
   *                      {@code name_1}, ... (WeChat's numbered coupon fields)
   */
  public static void requireUnambiguous(Map<String, String> params, Set<String> protocolNames)
      throws RejectedNotification {
    for (Map.Entry<String, String> param : params.entrySet()) {
      String name = param.getKey();
      if (name.indexOf('&') >= 0 || name.indexOf('=') >= 0) {
        throw RejectedNotification.malformed("parameter name '" + Ids.printable(name) + "' holds & or =");
      }
      String value = param.getValue();
      for (int amp = value.indexOf('&'); amp >= 0; amp = value.indexOf('&', amp + 1)) {
        int eq = value.indexOf('=', amp + 1);
        if (eq < 0) {
          break;
        }
        String inner = value.substring(amp + 1, eq);
        if (protocolNames.contains(NUMBERED.matcher(inner).replaceFirst("_\\$n"))) {
          throw RejectedNotification.malformed(name + " holds '&" + Ids.printable(inner) + "=', which would sign the"
              + " same as a message with its own " + Ids.printable(inner) + ": refused as ambiguous");
        }
      }
    }
  }

  /**
   * Refuses a notification carrying any of {@code requestOnly}: fields only the site's own requests to the platform
   * have, which the platform signs with the same key. Such a request's signature, with the fields a notification
   * needs added beside the site's, signs what was never a notification.
   */
  public static void requireNoneOf(Map<String, String> params, Set<String> requestOnly) throws RejectedNotification {
    for (String name : requestOnly) {
      if (params.containsKey(name)) {
        throw RejectedNotification.malformed(name + " is a field of the site's request, never of a notification");
      }
    }
  }
}
