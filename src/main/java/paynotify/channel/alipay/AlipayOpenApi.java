package paynotify.channel.alipay;

import static paynotify.net.Urls.encode;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import paynotify.channel.Ids;
import paynotify.channel.PlatformTime;
import paynotify.channel.Signatures;
import paynotify.crypto.MerchantKey;
import paynotify.net.OutboundFailure;
import paynotify.net.OutboundHttp;

/**
 * One call to Alipay's OpenAPI gateway, for every Alipay client ({@link AlipayGateway}, {@link AlipayBills}):
 * the common parameters signed RSA2 with the application's private key (all but {@code sign}, sorted, as
 * alipay-sdk-java's {@code getSignatureContent}); the answer trusted only when its {@code sign} verifies with
 * Alipay's public key over the exact text of its {@code ..._response} object ({@link SignedAnswer}). In certificate
 * mode the request also carries {@code app_cert_sn} and {@code alipay_root_cert_sn}, and the answer is verified with
 * the Alipay certificate its {@code alipay_cert_sn} names.
 */
final class AlipayOpenApi {
  static final String SUCCESS = "10000";
  static final String BUSINESS_FAILED = "40004";
  /** Certificate mode's two request parameters: the application's certificate, Alipay's root file. */
  static final String APP_CERT_SN = "app_cert_sn";
  static final String ROOT_CERT_SN = "alipay_root_cert_sn";
  private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

  private final OutboundHttp http;
  private final URI gateway;
  private final String appId;
  private final MerchantKey appKey;
  private final AlipaySignature signature;
  private final Clock clock;

  AlipayOpenApi(OutboundHttp http, URI gateway, String appId, MerchantKey appKey, AlipaySignature signature,
      Clock clock) {
    this.http = http;
    this.gateway = gateway;
    this.appId = appId;
    this.appKey = appKey;
    this.signature = signature;
    this.clock = clock;
  }

  /** {@code method} with {@code bizContent}: its answer object, verified. */
  Future<Answer> call(String method, JsonObject bizContent) {
    return send(method, bizContent).compose(body -> answer(method, body));
  }

  /**
   * {@code method} with {@code bizContent}, signed (in certificate mode with the two SNs Alipay checks, as the SDK's
   * {@code certificateExecute} sends them): the answer's body, HTTP 200, not yet verified.
   */
  Future<String> send(String method, JsonObject bizContent) {
    Map<String, String> params = new LinkedHashMap<>();
    params.put("app_id", appId);
    params.put("method", method);
    params.put("format", "JSON");
    params.put("charset", "utf-8");
    params.put("sign_type", AlipaySignature.Algorithm.RSA2.name());
    params.put("timestamp", LocalDateTime.now(clock.withZone(PlatformTime.BEIJING)).format(TIMESTAMP));
    params.put("version", "1.0");
    AlipayCertificates certs = signature.certificates();
    if (certs != null) {
      params.put(APP_CERT_SN, certs.appCertSn());
      params.put(ROOT_CERT_SN, certs.rootCertSn());
    }
    params.put("biz_content", bizContent.encode());
    params.put(AlipaySignature.SIGN, appKey.sign(Signatures.sortedContent(params, Set.of(AlipaySignature.SIGN),
        String::isEmpty).getBytes(StandardCharsets.UTF_8)));
    MultiMap headers = MultiMap.caseInsensitiveMultiMap()
        .add(HttpHeaders.CONTENT_TYPE, "application/x-www-form-urlencoded;charset=utf-8")
        .add(HttpHeaders.ACCEPT, "application/json");
    return http.send(HttpMethod.POST, gateway, headers, Buffer.buffer(form(params))).map(reply -> {
      if (reply.status() != 200) {
        throw OutboundFailure.unavailable(method + " answered HTTP " + reply.status());
      }
      return reply.body().toString(StandardCharsets.UTF_8);
    });
  }

  /** The client the calls go over. */
  OutboundHttp http() {
    return http;
  }

  /** Alipay's "now": what a day's bill is compared with. */
  Clock clock() {
    return clock;
  }

  private static String form(Map<String, String> params) {
    StringJoiner body = new StringJoiner("&");
    params.forEach((k, v) -> body.add(k + "=" + encode(v)));
    return body.toString();
  }

  /**
   * The answer's {@code ..._response} object, its signature checked. In certificate mode, with the certificate its
   * {@code alipay_cert_sn} names: one not known here means Alipay re-issued its certificate ({@link AlipayReissue}).
   */
  private Future<Answer> answer(String method, String body) {
    String node = method.replace('.', '_') + "_response";
    String signed = SignedAnswer.text(body, node);
    if (signed == null) {
      return Future.failedFuture(refusal(method, SignedAnswer.text(body, "error_response"), body));
    }
    JsonObject response = parse(method, signed);
    AlipayCertificates certs = signature.certificates();
    // only certificate mode names the certificate: no second parse of the body in public-key mode
    String certSn = certs == null ? null : SignedAnswer.string(body, AlipaySignature.CERT_SN);
    Future<Void> known = certSn == null || certs.key(certSn) != null ? Future.succeededFuture()
        : new AlipayReissue(this, certs).fetch(certSn);
    return known.map(v -> verified(method, response, signed, SignedAnswer.sign(body), certSn, body));
  }

  private Answer verified(String method, JsonObject response, String signed, String sign, String certSn,
      String body) {
    String code = response.getString("code", "");
    boolean trusted = verifies(signed, sign, certSn);
    if (!trusted && (code.equals(SUCCESS) || code.equals(BUSINESS_FAILED))) {
      // what books, closes, waits or is reconciled must be Alipay's; a refusal without a sign changes nothing
      throw OutboundFailure.untrusted(method + "'s answer does not verify with " + (signature.certificates() == null
          ? "Alipay's public key (alipay.public_key_file: Alipay's key, not the application's)"
          : "the key of Alipay's certificate " + (certSn == null ? "(alipay.alipay_cert_file)" : Ids.printable(certSn))));
    }
    Map<String, String> fields = new HashMap<>();
    response.forEach(e -> fields.put(e.getKey(), e.getValue() instanceof String s ? s : String.valueOf(e.getValue())));
    return new Answer(method, fields, body.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * As alipay-sdk-java's {@code checkResponseSign}: Alipay may escape {@code /} as {@code \/} in the text it
   * signed with plain slashes, so a failed check is tried once more with them unescaped.
   */
  private boolean verifies(String signed, String sign, String certSn) {
    return signature.signs(signed.getBytes(StandardCharsets.UTF_8), sign, certSn)
        || signed.contains("\\/")
        && signature.signs(signed.replace("\\/", "/").getBytes(StandardCharsets.UTF_8), sign, certSn);
  }

  private static JsonObject parse(String method, String text) {
    try {
      return new JsonObject(text);
    } catch (DecodeException e) {
      throw OutboundFailure.unavailable(method + " answered something that is not JSON");
    }
  }

  /** No answer object: a gateway-level error_response (a wrong app_id, a method not granted) or no Alipay at all. */
  private static OutboundFailure refusal(String method, String error, String body) {
    if (error == null) {
      return OutboundFailure.unavailable(method + " answered without a response object (" + body.length() + " bytes)");
    }
    JsonObject e = parse(method, error);
    return OutboundFailure.refused(method + " refused: " + Ids.printable(e.getString("code", "")) + " "
        + Ids.printable(e.getString("sub_code", e.getString("msg", ""))) + " " + Ids.printable(e.getString("sub_msg", "")));
  }

  /** One verified answer object, as text fields (Alipay writes amounts and times as strings). */
  record Answer(String method, Map<String, String> fields, byte[] body) {
    boolean failedWith(String subCode) {
      return BUSINESS_FAILED.equals(fields.get("code")) && subCode.equals(fields.get("sub_code"));
    }

    /**
     * Code 10000, or a failure that says what to do: 20000 (Alipay busy) and a *.SYSTEM_ERROR ask again;
     * the others (isv.invalid-signature: the application key is not the one uploaded; ACQ.TRADE_STATUS_ERROR:
     * a paid trade cannot be closed; isv.insufficient-isv-permissions: a method not granted) are refusals.
     */
    void requireSuccess() {
      String code = fields.getOrDefault("code", "");
      if (code.equals(SUCCESS)) {
        return;
      }
      String detail = method + " failed: " + code + " " + Ids.printable(fields.getOrDefault("sub_code",
          fields.getOrDefault("msg", ""))) + " " + Ids.printable(fields.getOrDefault("sub_msg", ""));
      throw code.equals("20000") || fields.getOrDefault("sub_code", "").endsWith(".SYSTEM_ERROR")
          ? OutboundFailure.unavailable(detail) : OutboundFailure.refused(detail);
    }
  }
}
