package paynotify.channel.wechat;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import java.net.URI;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.channel.Ids;
import paynotify.channel.NotifyEvent;
import paynotify.channel.Platform;
import paynotify.channel.RejectedNotification;
import paynotify.channel.TradeAnswer.State;
import paynotify.channel.TradeAnswer;
import paynotify.channel.TradeQuery;
import paynotify.net.OutboundFailure;
import paynotify.net.OutboundHttp;
import paynotify.net.Urls;

/**
 * WeChat Pay API v2's order query ({@code /pay/orderquery}) and order closing ({@code /pay/closeorder}),
 * by out_trade_no. Requests are signed, and answers verified, by the notification's {@link WechatV2Signature}
 * (the API key, the configured sign type, the merchant's ids); a paid trade becomes the event its payment
 * notification carries ({@link WechatV2Channel#payment}).
 */
public final class WechatV2Gateway implements TradeQuery {
  private static final Logger LOG = LoggerFactory.getLogger(WechatV2Gateway.class);
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final String SUCCESS = "SUCCESS";

  /** An answer that verified: its fields, and its bytes for notify_log. */
  private record Verified(Map<String, String> fields, byte[] body) {}

  private final OutboundHttp http;
  private final URI orderQuery;
  private final URI closeOrder;
  private final WechatV2Signature signature;
  private final String appId;
  private final String mchId;

  /** @param base the API's root, {@code https://api.mch.weixin.qq.com} unless a test points it elsewhere */
  public WechatV2Gateway(OutboundHttp http, URI base, WechatV2Signature signature, String appId, String mchId) {
    this.http = http;
    this.orderQuery = Urls.at(base, "/pay/orderquery");
    this.closeOrder = Urls.at(base, "/pay/closeorder");
    this.signature = signature;
    this.appId = appId;
    this.mchId = mchId;
  }

  @Override
  public Platform platform() {
    return Platform.WECHAT;
  }

  @Override
  public String name() {
    return "wechat v2 orderquery";
  }

  @Override
  public Future<TradeAnswer> query(String outTradeNo) {
    return call(orderQuery, outTradeNo).map(answer -> trade(outTradeNo, answer));
  }

  @Override
  public Future<Void> close(String outTradeNo) {
    return call(closeOrder, outTradeNo).compose(answer -> closed(outTradeNo, answer.fields()));
  }

  /** What the verified orderquery answer says of the trade; the business errors but ORDERNOTEXIST fail. */
  private TradeAnswer trade(String outTradeNo, Verified answer) {
    Map<String, String> fields = answer.fields();
    if (!SUCCESS.equals(fields.get("result_code"))) {
      String error = fields.getOrDefault("err_code", "");
      if (error.equals("ORDERNOTEXIST")) {
        return TradeAnswer.of(State.NOT_FOUND, error, answer.body());
      }
      throw OutboundFailure.unavailable("orderquery of " + outTradeNo + ": " + businessError(fields));
    }
    String state = fields.getOrDefault("trade_state", "");
    return switch (state) {
      case "SUCCESS" -> TradeAnswer.paid(payment(outTradeNo, fields), answer.body());
      // 转入退款: paid, then refunded, partly or wholly; the answer does not say how much
      case "REFUND" -> TradeAnswer.refunded(payment(outTradeNo, fields), state, answer.body());
      case "NOTPAY", "USERPAYING" -> TradeAnswer.of(State.WAITING, state, answer.body());
      case "CLOSED", "REVOKED", "PAYERROR" -> TradeAnswer.of(State.CLOSED, state, answer.body());
      default -> { // ACCEPT, or a state added later: nothing says it will not be paid, so ask again
        LOG.warn("orderquery of {}: trade_state '{}' is not one this client knows; treated as waiting", outTradeNo,
            Ids.printable(state));
        yield TradeAnswer.of(State.WAITING, state, answer.body());
      }
    };
  }

  /** The payment as its notification would carry it; a signed answer about another order is not ours to book. */
  private static NotifyEvent payment(String outTradeNo, Map<String, String> fields) {
    if (!outTradeNo.equals(fields.get("out_trade_no"))) {
      throw OutboundFailure.untrusted("orderquery of " + outTradeNo + " answered about out_trade_no '"
          + Ids.printable(fields.get("out_trade_no")) + "'");
    }
    try {
      return WechatV2Channel.payment(fields);
    } catch (RejectedNotification e) {
      throw failure("orderquery of " + outTradeNo, e);
    }
  }

  /** Closed, or nothing to close: done. Paid meanwhile: the caller must query again and book it. */
  private static Future<Void> closed(String outTradeNo, Map<String, String> fields) {
    if (SUCCESS.equals(fields.get("result_code"))) {
      return Future.succeededFuture();
    }
    return switch (fields.getOrDefault("err_code", "")) {
      case "ORDERCLOSED", "ORDERNOTEXIST" -> Future.succeededFuture();
      case "ORDERPAID" -> Future.failedFuture(OutboundFailure.refused("closeorder of " + outTradeNo
          + ": it was paid meanwhile (ORDERPAID); query it again to book the payment"));
      default -> Future.failedFuture(OutboundFailure.unavailable("closeorder of " + outTradeNo + ": "
          + businessError(fields)));
    };
  }

  /** Signs and sends a request naming {@code outTradeNo}; its answer must verify. */
  private Future<Verified> call(URI url, String outTradeNo) {
    Map<String, String> request = new LinkedHashMap<>();
    request.put("appid", appId);
    request.put("mch_id", mchId);
    request.put("out_trade_no", outTradeNo);
    return post(http, url, signature, request).map(answer -> verified(url.getPath(), answer));
  }

  /**
   * POSTs {@code request} (the API's own fields) as every v2 API takes it: with a nonce_str, the sign type
   * when it is not WeChat's default MD5, and the sign over all of them.
   */
  static Future<OutboundHttp.Answer> post(OutboundHttp http, URI url, WechatV2Signature signature,
      Map<String, String> request) {
    request.put("nonce_str", nonce());
    if (signature.signType().equals(WechatV2Signature.HMAC_SHA256)) { // MD5 is WeChat's default, left unsaid
      request.put(WechatV2Signature.SIGN_TYPE, WechatV2Signature.HMAC_SHA256);
    }
    request.put(WechatV2Signature.SIGN, signature.sign(request));
    MultiMap headers = MultiMap.caseInsensitiveMultiMap().add(HttpHeaders.CONTENT_TYPE, "text/xml; charset=utf-8");
    return http.send(HttpMethod.POST, url, headers, Buffer.buffer(WechatXml.write(request)));
  }

  /** 32 random hex characters: WeChat's nonce_str is at most 32. */
  private static String nonce() {
    byte[] nonce = new byte[16];
    RANDOM.nextBytes(nonce);
    return HexFormat.of().formatHex(nonce);
  }

  /**
   * The answer's fields once WeChat handled the request (return_code SUCCESS) and the answer is signed with
   * our API key and names our merchant. A return_code FAIL is unsigned: WeChat refused what we sent.
   */
  private Verified verified(String path, OutboundHttp.Answer answer) {
    if (answer.status() / 100 != 2) {
      throw OutboundFailure.unavailable(path + " answered HTTP " + answer.status());
    }
    byte[] body = answer.body().getBytes();
    try {
      Map<String, String> fields = WechatXml.parse(body, "xml");
      if (!SUCCESS.equals(fields.get("return_code"))) {
        throw refusal(path, fields.get("return_msg"));
      }
      signature.verifySign(fields);
      signature.requireMerchant(fields);
      return new Verified(fields, body);
    } catch (RejectedNotification e) {
      throw failure(path + " answer", e);
    }
  }

  /** A return_code FAIL (unsigned): WeChat refused what we sent, and its return_msg says which setting to check. */
  static OutboundFailure refusal(String path, String message) {
    boolean sign = message != null && (message.contains("签名") || message.toUpperCase(Locale.ROOT).contains("SIGN"));
    return OutboundFailure.refused("WeChat refused " + path + ": " + Ids.printable(message) + " (check "
        + (sign ? "wechat_v2.api_key_file and wechat_v2.sign_type" : "wechat_v2.appid and wechat_v2.mch_id") + ")");
  }

  /** A signed answer that cannot be read is WeChat's trouble (ask again); one that does not verify is not WeChat's. */
  private static OutboundFailure failure(String what, RejectedNotification e) {
    String message = what + ": " + e.getMessage();
    return e.reason() == RejectedNotification.Reason.MALFORMED
        ? OutboundFailure.unavailable(message) : OutboundFailure.untrusted(message);
  }

  private static String businessError(Map<String, String> fields) {
    return Ids.printable(fields.get("err_code")) + " " + Ids.printable(fields.get("err_code_des"));
  }
}
