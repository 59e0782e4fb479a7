package paynotify.channel.wechat;

import static paynotify.net.Urls.encodeInPath;

import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.util.Set;
import paynotify.channel.Ids;
import paynotify.channel.Platform;
import paynotify.channel.RejectedNotification;
import paynotify.channel.TradeAnswer.State;
import paynotify.channel.TradeAnswer;
import paynotify.channel.TradeQuery;
import paynotify.net.OutboundFailure;
import paynotify.net.OutboundHttp;

/**
 * WeChat Pay API v3's order API for a direct merchant: {@code GET /v3/pay/transactions/out-trade-no/{no}}
 * and its {@code .../close}, signed and verified by {@link WechatV3Client} (the merchant key; WeChat's
 * signature on every answer but a 429 or 5xx).
 */
public final class WechatV3Gateway implements TradeQuery {
  private static final String QUERY = "/v3/pay/transactions/out-trade-no/";
  private static final Set<String> WAITING = Set.of("NOTPAY", "USERPAYING");
  private static final Set<String> CLOSED = Set.of("CLOSED", "REVOKED", "PAYERROR");
  /** The close API's answers when there is nothing left to pay: done, as a close is meant to be. */
  private static final Set<String> NOTHING_TO_PAY = Set.of("ORDER_CLOSED", "ORDER_NOT_EXIST");
  /** Paid in the meantime: v2 and WeChat's community reports say ORDERPAID, the v3 docs list no word; both taken. */
  private static final Set<String> PAID_MEANWHILE = Set.of("ORDERPAID", "ORDER_PAID");

  private final WechatV3Client client;
  private final WechatV3Signature signature;

  /** @param client its signature rules the notification's: the same platform keys and merchant ids check the answers */
  WechatV3Gateway(WechatV3Client client) {
    this.client = client;
    this.signature = client.signature();
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
    return client.call(name(), HttpMethod.GET, QUERY + encodeInPath(outTradeNo) + "?mchid="
            + encodeInPath(client.mchId()), null)
        .map(answer -> meaning(outTradeNo, answer));
  }

  @Override
  public Future<Void> close(String outTradeNo) {
    String body = new JsonObject().put("mchid", client.mchId()).encode();
    return client.call(name(), HttpMethod.POST, QUERY + encodeInPath(outTradeNo) + "/close", body)
        .map(this::closed);
  }

  private TradeAnswer meaning(String outTradeNo, OutboundHttp.Answer answer) {
    byte[] body = answer.body().getBytes();
    if (answer.status() == 404 && "ORDER_NOT_EXIST".equals(WechatV3Client.code(answer))) {
      return TradeAnswer.of(State.NOT_FOUND, "ORDER_NOT_EXIST", body);
    }
    if (answer.status() != 200) {
      throw WechatV3Client.refusal(name(), answer);
    }
    try {
      JsonObject transaction = new JsonObject(answer.body());
      signature.requireMerchant(transaction);
      signature.requireApp(transaction);
      if (!outTradeNo.equals(transaction.getString("out_trade_no"))) {
        throw OutboundFailure.untrusted(name() + " answered about order '"
            + Ids.printable(transaction.getString("out_trade_no")) + "', not " + outTradeNo);
      }
      String state = transaction.getString("trade_state", "");
      if (state.equals("SUCCESS")) {
        return new TradeAnswer(State.PAID, state, WechatV3Channel.payment(transaction), body);
      }
      if (state.equals("REFUND")) { // 转入退款: paid, then refunded, partly or wholly; the answer does not say how much
        return TradeAnswer.refunded(WechatV3Channel.payment(transaction), state, body);
      }
      return TradeAnswer.of(CLOSED.contains(state) ? State.CLOSED : State.WAITING, state, body);
    } catch (RejectedNotification e) {
      throw e.reason() == RejectedNotification.Reason.WRONG_MERCHANT
          ? OutboundFailure.untrusted(name() + ": " + e.getMessage())
          : OutboundFailure.unavailable(name() + ": unreadable transaction: " + e.getMessage());
    } catch (DecodeException | ClassCastException e) {
      throw OutboundFailure.unavailable(name() + ": the answer is not WeChat Pay's transaction JSON");
    }
  }

  private Void closed(OutboundHttp.Answer answer) {
    String code = WechatV3Client.code(answer);
    if (answer.status() == 204 || answer.status() == 200 || NOTHING_TO_PAY.contains(code)) {
      return null;
    }
    if (PAID_MEANWHILE.contains(code)) {
      throw OutboundFailure.refused("wechat v3 close: " + code + ", the trade was paid meanwhile: query it again");
    }
    if (answer.status() == 202) { // USER_PAYING: the buyer is entering the password now
      throw OutboundFailure.unavailable("wechat v3 close: " + code + ", the buyer is paying: query it again shortly");
    }
    throw WechatV3Client.refusal(name(), answer);
  }
}
