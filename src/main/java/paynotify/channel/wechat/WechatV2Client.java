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
import paynotify.channel.Ids;
import paynotify.channel.RejectedNotification;
import paynotify.net.OutboundFailure;
import paynotify.net.OutboundHttp;
import paynotify.net.Urls;

/**
 * What every WeChat Pay API v2 call of a merchant shares, whichever API it is (the order query and close of
 * {@link WechatV2Gateway}, the bill of {@link WechatV2Bills}): the request's XML with the merchant's appid and
 * mch_id, a nonce_str, the sign type and the sign of the notification's {@link WechatV2Signature} (the API key);
 * where the answer is signed XML, its sign and merchant checked, and WeChat's refusals read.
 */
final class WechatV2Client {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final String SUCCESS = "SUCCESS";

  private final OutboundHttp http;
  private final URI base;
  private final WechatV2Signature signature;

  /**
   * @param base      the API's root, {@code https://api.mch.weixin.qq.com} unless a test points it elsewhere
   * @param signature the API key and the merchant's ids, which every request carries and every answer must name
   */
  WechatV2Client(OutboundHttp http, URI base, WechatV2Signature signature) {
    this.http = http;
    this.base = base;
    this.signature = signature;
  }

  String mchId() {
    return signature.mchId();
  }

  /** The URL of the API at {@code path} ("/pay/orderquery"), below the configured root. */
  URI url(String path) {
    return Urls.at(base, path);
  }

  /** {@code url} asked with {@code fields}; its answer must be signed XML that verifies (return_code SUCCESS). */
  Future<Answer> call(URI url, Map<String, String> fields) {
    return post(url, fields).map(answer -> verified(url.getPath(), answer));
  }

  /**
   * POSTs the merchant's ids and {@code fields} (the API's own) as every v2 API takes them: with a nonce_str,
   * the sign type when it is not WeChat's default MD5, and the sign over all of them. The answer comes as it
   * is: {@link #call} verifies a signed one; a bill is not signed XML.
   */
  Future<OutboundHttp.Answer> post(URI url, Map<String, String> fields) {
    Map<String, String> request = new LinkedHashMap<>();
    request.put("appid", signature.appId());
    request.put("mch_id", signature.mchId());
    request.putAll(fields);
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
  private Answer verified(String path, OutboundHttp.Answer answer) {
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
      return new Answer(fields, body);
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
  static OutboundFailure failure(String what, RejectedNotification e) {
    String message = what + ": " + e.getMessage();
    return e.reason() == RejectedNotification.Reason.MALFORMED
        ? OutboundFailure.unavailable(message) : OutboundFailure.untrusted(message);
  }

  /** An answer that verified: its fields, and its bytes for notify_log; result_code is the caller's to read. */
  record Answer(Map<String, String> fields, byte[] body) {
    boolean succeeded() {
      return SUCCESS.equals(fields.get("result_code"));
    }
  }
}
