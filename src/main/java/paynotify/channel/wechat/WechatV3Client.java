package paynotify.channel.wechat;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.HexFormat;
import paynotify.channel.Ids;
import paynotify.channel.RejectedNotification;
import paynotify.crypto.MerchantKey;
import paynotify.net.OutboundFailure;
import paynotify.net.OutboundHttp;
import paynotify.net.Urls;

/**
 * What every WeChat Pay API v3 call of a direct merchant shares, whichever API it is (the order API of
 * {@link WechatV3Gateway}, the bills of {@link WechatV3Bills}): the request signed with the merchant key as
 * wechatpay-java's {@code WechatPay2Credential} signs it and naming the platform key the answer is to be signed with
 * ({@link WechatV3Signature#requestSerial}), the answer's WeChat signature checked as a notification's by
 * {@link WechatV3Signature}, and the reading of WeChat's error answers.
 */
final class WechatV3Client {
  private static final String FIX_CONFIG = "check wechat_v3.merchant_private_key_file, wechat_v3.merchant_serial_no"
      + " and wechat_v3.mchid (the key and serial of the merchant API certificate of that merchant)";
  private static final SecureRandom RANDOM = new SecureRandom();

  private final OutboundHttp http;
  private final String base;
  private final String mchId;
  private final String serial;
  private final MerchantKey key;
  private final WechatV3Signature signature;

  WechatV3Client(OutboundHttp http, URI base, String mchId, String serial, MerchantKey key,
      WechatV3Signature signature) {
    this.http = http;
    this.base = Urls.root(base);
    this.mchId = mchId;
    this.serial = serial;
    this.key = key;
    this.signature = signature;
  }

  String mchId() {
    return mchId;
  }

  /** The channel's signature rules, which check this client's answers. */
  WechatV3Signature signature() {
    return signature;
  }

  OutboundHttp http() {
    return http;
  }

  /**
   * {@code pathAndQuery} sent signed, its answer verified (except a 429 or 5xx, a proxy's perhaps, unsigned:
   * UNAVAILABLE); {@code what} names the call in failures.
   */
  Future<OutboundHttp.Answer> call(String what, HttpMethod method, String pathAndQuery, String body) {
    return send(what, method, pathAndQuery, body).compose(answer -> {
      try {
        signature.verifyAnswer(answer.headers(), answer.body().getBytes());
        return Future.succeededFuture(answer);
      } catch (RejectedNotification e) {
        return Future.failedFuture(untrusted(what, answer, e));
      }
    });
  }

  /** A signed answer that does not verify: said with the call and the status. */
  static OutboundFailure untrusted(String what, OutboundHttp.Answer answer, RejectedNotification e) {
    return OutboundFailure.untrusted(what + ": HTTP " + answer.status() + " answer refused: " + e.getMessage());
  }

  /**
   * {@link #call} without the check of the answer's signature, which is the caller's: the list of platform
   * certificates is signed with one it holds ({@link WechatV3Certificates}).
   */
  Future<OutboundHttp.Answer> send(String what, HttpMethod method, String pathAndQuery, String body) {
    URI url = URI.create(base + pathAndQuery);
    MultiMap headers = MultiMap.caseInsensitiveMultiMap()
        .add("Accept", "application/json")
        .add("Authorization", authorization(method, url, body));
    if (body != null) {
      headers.add("Content-Type", "application/json");
    }
    if (signature.requestSerial() != null) { // the key WeChat signs the answer with: one we verify with
      headers.add(WechatV3Signature.SERIAL_HEADER, signature.requestSerial());
    }
    return http.send(method, url, headers, body == null ? null : Buffer.buffer(body))
        .compose(answer -> {
          if (answer.status() == 429 || answer.status() >= 500) {
            return Future.failedFuture(OutboundFailure.unavailable(what + ": HTTP " + answer.status() + " "
                + error(answer)));
          }
          return Future.succeededFuture(answer);
        });
  }

  /**
   * {@code WECHATPAY2-SHA256-RSA2048 mchid=..,nonce_str=..,signature=..,timestamp=..,serial_no=..}, the
   * signature over {@code METHOD\nPATH?QUERY\ntimestamp\nnonce\nBODY\n} (an empty body for a GET).
   */
  String authorization(HttpMethod method, URI url, String body) {
    byte[] random = new byte[16];
    RANDOM.nextBytes(random);
    String nonce = HexFormat.of().withUpperCase().formatHex(random);
    long timestamp = Instant.now().getEpochSecond();
    String message = method.name() + "\n" + url.getRawPath() + (url.getRawQuery() == null ? "" : "?" + url.getRawQuery())
        + "\n" + timestamp + "\n" + nonce + "\n" + (body == null ? "" : body) + "\n";
    return WechatV3Signature.SIGNATURE_TYPE + " mchid=\"" + mchId + "\",nonce_str=\"" + nonce
        + "\",signature=\"" + key.sign(message.getBytes(StandardCharsets.UTF_8)) + "\",timestamp=\"" + timestamp
        + "\",serial_no=\"" + serial + "\"";
  }

  /**
   * A 4xx (its signature checked when it came through {@link #call}): WeChat refused the request; 401/403 mean the
   * merchant's key, serial or id.
   */
  static OutboundFailure refusal(String what, OutboundHttp.Answer answer) {
    String message = what + ": HTTP " + answer.status() + " " + error(answer);
    return OutboundFailure.refused(answer.status() == 401 || answer.status() == 403
        ? message + ": " + FIX_CONFIG : message);
  }

  /** An error answer's {@code code}, or null when it has none. */
  static String code(OutboundHttp.Answer answer) {
    try {
      return new JsonObject(answer.body()).getString("code");
    } catch (DecodeException | ClassCastException e) {
      return null;
    }
  }

  /** An error answer's code and message, log-safe. */
  static String error(OutboundHttp.Answer answer) {
    try {
      JsonObject error = new JsonObject(answer.body());
      return Ids.printable(error.getString("code")) + " " + Ids.printable(error.getString("message"));
    } catch (DecodeException | ClassCastException e) {
      return "(no WeChat Pay error body)";
    }
  }
}
