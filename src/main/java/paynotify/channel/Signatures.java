package paynotify.channel;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamReadException;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import paynotify.crypto.RsaSignatureCheck;

/**
 * The list: every signature rule of paynotify, in and out, one line each, and the class that holds it. A
 * platform's rules are in its folder {@code channel/<platform>/}: its {@code ...Signature} checks what the platform
 * sends (called by its {@code ...Channel}, which only parses and normalises what passed) and is reused by its
 * clients to sign requests and check answers. What the rules share is below this comment (the sorted content,
 * values that could be re-split, fields only a request has, the flat JSON objects signed field by field) and in
 * {@code paynotify.crypto} (digests, the constant-time comparison, {@link RsaSignatureCheck}, PublicKeys,
 * MerchantKey).
 *
 * <p><b>In: a notification</b> (refused 4xx, the reason in notify_log). The merchant's ids are rules too: a
 * genuine notification for another merchant is refused, WRONG_MERCHANT ({@link Ids#requireMerchant}).
 * <ul>
 *   <li>{@code alipay.AlipaySignature}: RSA2 (SHA256withRSA; legacy RSA only as configured: the request's
 *       sign_type is never read) with Alipay's public key over every parameter but sign and sign_type, blanks
 *       dropped, sorted, {@code k=v&}; app_id (and seller_id when set); notify_type {@code trade_status_sync} and
 *       a notify_id, which a return_url's parameters lack.
 *   <li>{@code epay.EpaySignature}: {@code md5(sorted k=v& of all but sign, sign_type and PHP-trim-empty
 *       values, then the key appended directly)}, lower-case hex; pid.
 *   <li>{@code wechat.WechatV2Signature}: a payment's sign, MD5 or HMAC-SHA256 (keyed with the API key) over
 *       every non-empty field but sign, sorted, {@code k=v&}, then {@code &key=<API key>}, upper-case hex; a
 *       sign_type sent must be the configured one. A refund has no sign: its req_info must decrypt (AES-256-ECB,
 *       keyed with the hex MD5 of the API key). appid and mch_id.
 *   <li>{@code wechat.WechatV3Signature}: SHA256withRSA over {@code timestamp\nnonce\nraw body\n} with the
 *       platform key {@code Wechatpay-Serial} names (Wechatpay-Signature-Type, when sent,
 *       WECHATPAY2-SHA256-RSA2048); WeChat's {@code WECHATPAY/SIGNTEST/} probe refused; the timestamp window
 *       where configured; the resource must decrypt (AEAD_AES_256_GCM, the APIv3 key); mchid, and a payment's
 *       appid.
 *   <li>{@code stripe.StripeSignature}: {@code Stripe-Signature: t=..,v1=..}, any v1 the hex HMAC-SHA256 of
 *       {@code t.raw body} keyed with any configured {@code whsec_...} string; a t older than
 *       stripe.tolerance_seconds (300) refused; no Connect account's event, no test-mode event on a live instance.
 *   <li>{@code paypal.PaypalIpnSignature}: no signature, so PayPal is asked: {@code cmd=_notify-validate&} and
 *       the exact bytes received, POSTed to the address {@code paypal.VerifyEndpoint} allowed at start, answered
 *       VERIFIED or INVALID; first the raw body's checks that need no asking ({@code paypal.IpnPrecheck}:
 *       test_ipn on a live instance, the receiver, a currency).
 *   <li>{@code xunhupay.XunhupaySignature}: hash = {@code md5(sorted k=v& of every field but hash, null and ''
 *       skipped, untrimmed, then the APPSECRET appended directly)}, lower-case hex; no field of the site's own
 *       request (notify_url, return_url, callback_url, wap_url); appid.
 *   <li>{@code epusdt.EpusdtSignature}: signature = {@code md5(sorted k=v& of the top-level JSON fields but
 *       signature, null and "" skipped, numbers as Go's FormatFloat(x,'f',-1), then the token)}, lower-case hex,
 *       BEpusdt's {@code 1e+06} form accepted too; no object, array or boolean; no notify_url or redirect_url;
 *       pid where configured.
 *   <li>{@code vmq.VmqSignature}: sign = {@code md5(payId . param . type . price . reallyPrice . key)}, no
 *       separator, lower-case hex; so first each value's grammar (type 1 or 2, prices plain decimals above zero,
 *       the order number in vmq.order_pattern); the sign does not bind the amount to the order
 *       ({@link Platform#signsAmountToOrder}, {@code vmq.VmqReadings}).
 *   <li>{@code paddle.PaddleSignature}: {@code Paddle-Signature: ts=..;h1=..}, any h1 the hex HMAC-SHA256 of
 *       {@code ts:raw body} keyed with any configured secret key string ({@code pdl_ntfset_...}); the header bounded
 *       (length, number of h1), other keys ignored; a ts more than paddle.tolerance_seconds (300) old or ahead refused.
 *   <li>{@code tokenpay.TokenPaySignature}: Signature = {@code md5(sorted k=v& of every top-level JSON field but
 *       Signature, null and "" skipped, strings as decoded, numbers as their literal, then the ApiToken)}, lower-case
 *       hex; no object, array or boolean; no NotifyUrl or RedirectUrl.
 *   <li>{@code lemonsqueezy.LemonSqueezySignature}: {@code X-Signature}, the hex HMAC-SHA256 of the raw body keyed
 *       with the webhook's signing secret (64 characters, or refused unread); the event is the signed
 *       {@code meta.event_name}, never the unsigned X-Event-Name; data.attributes.store_id, and no test-mode event on
 *       a live instance.
 *   <li>{@code creem.CreemSignature}: {@code creem-signature} = the hex HMAC-SHA256 of the raw body keyed with the
 *       webhook secret's characters, 64 digits compared in constant time; no timestamp (a replay is its booking's
 *       duplicate); an object not in {@code prod} mode only with creem.test_mode.
 *   <li>Alipay, epay, WeChat v2, xunhupay, epusdt and TokenPay: no value that re-splits into a protocol field under
 *       the same signature ({@link #requireUnambiguous}); xunhupay, epusdt and TokenPay: no request-only field
 *       ({@link #requireNoneOf}).
 * </ul>
 *
 * <p><b>Out: paynotify asking a platform</b> (an answer that does not verify is OutboundFailure UNTRUSTED,
 * never booked)
 * <ul>
 *   <li>Alipay, {@code alipay.AlipayOpenApi} (for AlipayGateway's query and close and AlipayBills): the
 *       request's non-empty parameters but sign, sorted, {@code k=v&}, signed SHA256withRSA with the
 *       application's private key ({@code crypto.MerchantKey}); the answer verified with AlipaySignature's key
 *       over the exact text of its {@code <method>_response} object ({@code alipay.SignedAnswer}; again with
 *       {@code \/} unescaped, as the SDK); a bill's zip is unsigned, fetched over https from the URL the signed
 *       answer gave.
 *   <li>WeChat Pay v2, {@code wechat.WechatV2Client} (for WechatV2Gateway's orderquery and closeorder, WechatV2Bills'
 *       downloadbill): the fields with a nonce_str (and sign_type when HMAC-SHA256) signed by
 *       WechatV2Signature's sign; the answer's sign verified, then appid and mch_id (a return_code FAIL is
 *       unsigned: a refusal); the bill is unsigned, trusted as far as TLS.
 *   <li>WeChat Pay v3, {@code wechat.WechatV3Client} (for WechatV3Gateway and WechatV3Bills):
 *       {@code Authorization: WECHATPAY2-SHA256-RSA2048 mchid,nonce_str,signature,timestamp,serial_no}, the
 *       signature SHA256withRSA with the merchant key over {@code METHOD\nPATH?QUERY\ntimestamp\nnonce\nBODY\n};
 *       every answer but a 429 or 5xx verified as a notification (WechatV3Signature#verifyAnswer: no probe, no
 *       window); a transaction's mchid and appid. Bills: the file is unsigned, its SHA-1 after gunzip must be the
 *       signed answer's hash_value ({@code wechat.WechatV3Bills}).
 *   <li>epay, {@code epay.EpayGateway}: {@code api.php?act=order} with pid and key in the URL (https only); the
 *       answer is unsigned: pid and order must match, and a "paid" is an anomaly unless epay.query_books.
 *   <li>Stripe, {@code stripe.StripeEvents}: {@code GET /v1/events?delivery_success=false} with a restricted key
 *       ({@code Bearer rk_...}); Stripe's API signs nothing: trusted by TLS to api.stripe.com, then read by
 *       StripeChannel as a webhook's event (its account and livemode checks, not its signature).
 *   <li>TokenPay, {@code tokenpay.TokenPayQuery}: {@code /Query?Id=} with {@code Signature} = MD5 of {@code Id=<Id>}
 *       and the ApiToken (https, or http on loopback), asked only to confirm a signed notification's Id
 *       (tokenpay.confirm_before_book); the answer is unsigned: Id and OutOrderId must match.
 *   <li>Paddle, {@code paddle.PaddleEvents}: {@code GET /notifications?status=failed,needs_retry,not_attempted} for
 *       the configured destination, with an API key ({@code Bearer}) that has only Notifications: read; the API
 *       signs nothing: trusted by TLS to api.paddle.com (or sandbox-api), then each notification's event read by
 *       PaddleChannel as a webhook's (not its signature).
 *   <li>PayPal's only outbound call is its notification's question above; xunhupay, epusdt, V免签,
 *       Lemon Squeezy and Creem are never asked.
 * </ul>
 *
 * <p><b>Signed by paynotify</b>
 * <ul>
 *   <li>{@code forward.WebhookSignature}: Standard Webhooks, {@code webhook-signature: v1,<base64
 *       HMAC-SHA256(key, "<webhook-id>.<webhook-timestamp>.<raw body>")>}, one per secret, newest first, space
 *       separated; a {@code whsec_} secret keyed with the bytes it encodes, any other with its UTF-8 bytes.
 *   <li>{@code forward.ForwardSignature}: {@code Paynotify-Signature}, Stripe's scheme by StripeSignature's own
 *       code: {@code t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>}.
 *   <li>{@code alert.DingtalkTarget} (加签): {@code timestamp} (ms) and {@code sign} in the query, the URL-encoded
 *       base64 of HMAC-SHA256(key = secret, {@code timestamp\nsecret}).
 *   <li>{@code alert.FeishuTarget} (签名校验): {@code timestamp} (s) and {@code sign} in the body, the base64 of
 *       HMAC-SHA256(key = {@code timestamp\nsecret}, an empty message). The other alert targets sign nothing:
 *       their secret is in the URL or body, masked in every failure (ServiceCall).
 * </ul>
 */
public final class Signatures {
  private static final Pattern NUMBERED = Pattern.compile("_[0-9]+$");

  private Signatures() {}

  /** Made on the first JSON body read, not with this class: the form channels' verification loads no JSON parser. */
  private static final class Json {
    static final JsonFactory FACTORY = new JsonFactory();
  }

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
    // Sorted in an array, joined in one builder: no TreeMap copy and no string per pair on every notification.
    @SuppressWarnings("unchecked")
    Map.Entry<String, String>[] pairs = new Map.Entry[params.size()];
    int signed = 0;
    for (Map.Entry<String, String> param : params.entrySet()) {
      if (!unsigned.contains(param.getKey()) && !empty.test(param.getValue())) {
        pairs[signed++] = param;
      }
    }
    Arrays.sort(pairs, 0, signed, Map.Entry.comparingByKey());
    StringBuilder content = new StringBuilder(256);
    int joined = 0;
    for (int i = 0; i < signed; i++) {
      if (joined++ > 0) {
        content.append('&');
      }
      content.append(pairs[i].getKey()).append('=').append(pairs[i].getValue());
    }
    for (String pair : appended) {
      if (joined++ > 0) {
        content.append('&');
      }
      content.append(pair);
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
  /** A top-level value of a flat JSON object as received: a string's decoded text, or a number's literal. */
  public record JsonValue(String text, boolean number) {}

  /**
   * The top-level fields of a JSON object body, for the platforms that sign "every field" of one (epusdt, TokenPay),
   * in the order received; nulls left out, as both leave them out of their signatures. Refused (400) before anything
   * is hashed: anything but one object, more than {@code maxFields} names, a value the signer cannot sign (an object,
   * an array, a boolean) and a name given twice: Vert.x's JsonObject keeps the last, so a signature over one copy
   * could vouch for a value read from the other.
   *
   * @param signer the platform, for the refusal's words
   */
  public static Map<String, JsonValue> flatJson(byte[] body, int maxFields, String signer) throws RejectedNotification {
    Map<String, JsonValue> fields = new LinkedHashMap<>();
    Set<String> names = new HashSet<>();
    try (JsonParser json = Json.FACTORY.createParser(body)) {
      if (json.nextToken() != JsonToken.START_OBJECT) {
        throw RejectedNotification.malformed("the body is not a JSON object");
      }
      for (JsonToken t = json.nextToken(); t != JsonToken.END_OBJECT; t = json.nextToken()) {
        String name = json.currentName();
        JsonToken value = json.nextToken();
        if (!names.add(name)) {
          throw RejectedNotification.malformed("field '" + Ids.printable(name) + "' appears twice");
        }
        if (names.size() > maxFields) {
          throw RejectedNotification.malformed("a body of more than " + maxFields + " fields");
        }
        JsonValue read = switch (value) {
          case VALUE_STRING -> new JsonValue(json.getText(), false);
          case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> new JsonValue(json.getText(), true);
          case VALUE_NULL -> null;
          default -> throw RejectedNotification.malformed(Ids.printable(name) + " is "
              + (value == JsonToken.START_OBJECT ? "an object" : value == JsonToken.START_ARRAY ? "an array"
                  : "a boolean") + ", which " + signer + " does not sign");
        };
        if (read != null) {
          fields.put(name, read);
        }
      }
      if (json.nextToken() != null) {
        throw RejectedNotification.malformed("more after the JSON object");
      }
    } catch (StreamReadException e) {
      throw RejectedNotification.malformed("the body is not JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new IllegalStateException("reading a byte array", e);
    }
    return fields;
  }
}
