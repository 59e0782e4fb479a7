package paynotify.channel.wechat;

import io.vertx.core.Future;
import java.net.URI;
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

/**
 * WeChat Pay API v2's order query ({@code /pay/orderquery}) and order closing ({@code /pay/closeorder}),
 * by out_trade_no, each one signed call of {@link WechatV2Client} (the notification's {@link WechatV2Signature}
 * signs the request and verifies the answer); a paid trade becomes the event its payment notification carries
 * ({@link WechatV2Channel#payment}).
 */
public final class WechatV2Gateway implements TradeQuery {
  private static final Logger LOG = LoggerFactory.getLogger(WechatV2Gateway.class);

  private final WechatV2Client client;
  private final URI orderQuery;
  private final URI closeOrder;

  WechatV2Gateway(WechatV2Client client) {
    this.client = client;
    this.orderQuery = client.url("/pay/orderquery");
    this.closeOrder = client.url("/pay/closeorder");
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
    return client.call(orderQuery, Map.of("out_trade_no", outTradeNo)).map(answer -> trade(outTradeNo, answer));
  }

  @Override
  public Future<Void> close(String outTradeNo) {
    return client.call(closeOrder, Map.of("out_trade_no", outTradeNo)).compose(answer -> closed(outTradeNo, answer));
  }

  /** What the verified orderquery answer says of the trade; the business errors but ORDERNOTEXIST fail. */
  private TradeAnswer trade(String outTradeNo, WechatV2Client.Answer answer) {
    Map<String, String> fields = answer.fields();
    if (!answer.succeeded()) {
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
      throw WechatV2Client.failure("orderquery of " + outTradeNo, e);
    }
  }

  /** Closed, or nothing to close: done. Paid meanwhile: the caller must query again and book it. */
  private static Future<Void> closed(String outTradeNo, WechatV2Client.Answer answer) {
    if (answer.succeeded()) {
      return Future.succeededFuture();
    }
    Map<String, String> fields = answer.fields();
    return switch (fields.getOrDefault("err_code", "")) {
      case "ORDERCLOSED", "ORDERNOTEXIST" -> Future.succeededFuture();
      case "ORDERPAID" -> Future.failedFuture(OutboundFailure.refused("closeorder of " + outTradeNo
          + ": it was paid meanwhile (ORDERPAID); query it again to book the payment"));
      default -> Future.failedFuture(OutboundFailure.unavailable("closeorder of " + outTradeNo + ": "
          + businessError(fields)));
    };
  }

  private static String businessError(Map<String, String> fields) {
    return Ids.printable(fields.get("err_code")) + " " + Ids.printable(fields.get("err_code_des"));
  }
}
