package paynotify.gateway;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Set;
import paynotify.channel.Ids;
import paynotify.channel.Platform;
import paynotify.channel.RejectedNotification;
import paynotify.channel.wechat.WechatV3Channel;
import paynotify.channel.wechat.WechatV3Signature;
import paynotify.gateway.TradeAnswer.State;

/**
 * WeChat Pay API v3's order API for a direct merchant: {@code GET /v3/pay/transactions/out-trade-no/{no}}
 * and its {@code .../close}. Requests are signed with the merchant key as wechatpay-java's
 * {@code WechatPay2Credential} signs them; every answer but a 429 or 5xx (a proxy's, unsigned) must carry
 * WeChat's signature, checked as a notification's by {@link WechatV3Signature}.
 */
public final class WechatV3Gateway implements TradeQuery {
  private static final String QUERY = "/v3/pay/transactions/out-trade-no/";
  private static final Set<String> WAITING = Set.of("NOTPAY", "USERPAYING");
  private static final Set<String> CLOSED = Set.of("CLOSED", "REVOKED", "PAYERROR");
  /** The close API's answers when there is nothing left to pay: done, as a close is meant to be. */
  private static final Set<String> NOTHING_TO_PAY = Set.of("ORDER_CLOSED", "ORDER_NOT_EXIST");
  /** Paid in the meantime: v2 and WeChat's community reports say ORDERPAID, the v3 docs list no word; both taken. */
  private static final Set<String> PAID_MEANWHILE = Set.of("ORDERPAID", "ORDER_PAID");
  private static final String FIX_CONFIG = "check wechat_v3.merchant_private_key_file, wechat_v3.merchant_serial_no"
      + " and wechat_v3.mchid (the key and serial of the merchant API certificate of that merchant)";
  private static final SecureRandom RANDOM = new SecureRandom();

  private final GatewayHttp http;
  private final String base;
  private final String mchId;
  private final String serial;
  private final MerchantKey key;
  private final WechatV3Signature signature;

  /** @param signature the notification's: the same platform keys and merchant ids check the answers */
  public WechatV3Gateway(GatewayHttp http, URI base, String mchId, String serial, MerchantKey key,
      WechatV3Signature signature) {
    this.http = http;
    this.base = base.toString().replaceAll("/+$", "");
    this.mchId = mchId;
    this.serial = serial;
    this.key = key;
    this.signature = signature;
  }

  @Override
  public Platform platform() {
    return Platform.WECHAT;
  }

  @Override
  public String name() {
    return "wechat v3 query";
  }

  @Override
  public Future<TradeAnswer> query(String outTradeNo) {
    return call(HttpMethod.GET, QUERY + encode(outTradeNo) + "?mchid=" + encode(mchId), null)
        .map(answer -> meaning(outTradeNo, answer));
  }

  @Override
  public Future<Void> close(String outTradeNo) {
    String body = new JsonObject().put("mchid", mchId).encode();
    return call(HttpMethod.POST, QUERY + encode(outTradeNo) + "/close", body)
        .map(this::closed);
  }

  /** {@code pathAndQuery} sent signed, its answer verified (except a 429 or 5xx, which is UNAVAILABLE). */
  private Future<GatewayHttp.Answer> call(HttpMethod method, String pathAndQuery, String body) {
    URI url = URI.create(base + pathAndQuery);
    MultiMap headers = MultiMap.caseInsensitiveMultiMap()
        .add("Accept", "application/json")
        .add("Authorization", authorization(method, url, body));
    if (body != null) {
      headers.add("Content-Type", "application/json");
    }
    return http.send(method, url, headers, body == null ? null : Buffer.buffer(body))
        .compose(answer -> {
          if (answer.status() == 429 || answer.status() >= 500) {
            return Future.failedFuture(GatewayFailure.unavailable(name() + ": HTTP " + answer.status() + " "
                + error(answer)));
          }
          try {
            signature.verifyAnswer(answer.headers(), answer.body().getBytes());
            return Future.succeededFuture(answer);
          } catch (RejectedNotification e) {
            return Future.failedFuture(GatewayFailure.untrusted(name() + ": HTTP " + answer.status()
                + " answer refused: " + e.getMessage()));
          }
        });
  }

  /**
   * {@code WECHATPAY2-SHA256-RSA2048 mchid=..,nonce_str=..,signature=..,timestamp=..,serial_no=..}, the
   * signature over {@code METHOD\nPATH?QUERY\ntimestamp\nnonce\nBODY\n} (an empty body for a GET).
   */
  private String authorization(HttpMethod method, URI url, String body) {
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

  private TradeAnswer meaning(String outTradeNo, GatewayHttp.Answer answer) {
    byte[] body = answer.body().getBytes();
    if (answer.status() == 404 && "ORDER_NOT_EXIST".equals(code(answer))) {
      return TradeAnswer.of(State.NOT_FOUND, "ORDER_NOT_EXIST", body);
    }
    if (answer.status() != 200) {
      throw refusal(answer);
    }
    try {
      JsonObject transaction = new JsonObject(answer.body());
      signature.requireMerchant(transaction);
      signature.requireApp(transaction);
      if (!outTradeNo.equals(transaction.getString("out_trade_no"))) {
        throw GatewayFailure.untrusted(name() + " answered about order '"
            + Ids.printable(transaction.getString("out_trade_no")) + "', not " + outTradeNo);
      }
      String state = transaction.getString("trade_state", "");
      if (state.equals("SUCCESS") || state.equals("REFUND")) {
        return new TradeAnswer(State.PAID, state, WechatV3Channel.payment(transaction), body);
      }
      return TradeAnswer.of(CLOSED.contains(state) ? State.CLOSED : State.WAITING, state, body);
    } catch (RejectedNotification e) {
      throw e.reason() == RejectedNotification.Reason.WRONG_MERCHANT
          ? GatewayFailure.untrusted(name() + ": " + e.getMessage())
          : GatewayFailure.unavailable(name() + ": unreadable transaction: " + e.getMessage());
    } catch (DecodeException | ClassCastException e) {
      throw GatewayFailure.unavailable(name() + ": the answer is not WeChat Pay's transaction JSON");
    }
  }

  private Void closed(GatewayHttp.Answer answer) {
    String code = code(answer);
    if (answer.status() == 204 || answer.status() == 200 || NOTHING_TO_PAY.contains(code)) {
      return null;
    }
    if (PAID_MEANWHILE.contains(code)) {
      throw GatewayFailure.refused("wechat v3 close: " + code + ", the trade was paid meanwhile: query it again");
    }
    if (answer.status() == 202) { // USER_PAYING: the buyer is entering the password now
      throw GatewayFailure.unavailable("wechat v3 close: " + code + ", the buyer is paying: query it again shortly");
    }
    throw refusal(answer);
  }

  /** A signed 4xx: WeChat refused the request; 401/403 mean the merchant's key, serial or id. */
  private GatewayFailure refusal(GatewayHttp.Answer answer) {
    String what = name() + ": HTTP " + answer.status() + " " + error(answer);
    return GatewayFailure.refused(answer.status() == 401 || answer.status() == 403 ? what + ": " + FIX_CONFIG : what);
  }

  /** An error answer's {@code code}, or null when it has none. */
  private static String code(GatewayHttp.Answer answer) {
    try {
      return new JsonObject(answer.body()).getString("code");
    } catch (DecodeException | ClassCastException e) {
      return null;
    }
  }

  /** An error answer's code and message, log-safe. */
  private static String error(GatewayHttp.Answer answer) {
    try {
      JsonObject error = new JsonObject(answer.body());
      return Ids.printable(error.getString("code")) + " " + Ids.printable(error.getString("message"));
    } catch (DecodeException | ClassCastException e) {
      return "(no WeChat Pay error body)";
    }
  }

  /** A path segment or query value: URLEncoder's form encoding, with a space as %20 as a URL needs. */
  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
