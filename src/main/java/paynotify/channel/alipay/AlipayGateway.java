package paynotify.channel.alipay;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.Set;
import paynotify.channel.Ids;
import paynotify.channel.NotifyEvent;
import paynotify.channel.Platform;
import paynotify.channel.RejectedNotification;
import paynotify.channel.TradeAnswer.State;
import paynotify.channel.TradeAnswer;
import paynotify.channel.TradeQuery;
import paynotify.net.OutboundFailure;

/**
 * Alipay's {@code alipay.trade.query} and {@code alipay.trade.close}, signed and verified as every OpenAPI call
 * ({@link AlipayOpenApi}); an answer is taken only when it names the order that was asked about.
 */
public final class AlipayGateway implements TradeQuery {
  private static final String NOT_EXIST = "ACQ.TRADE_NOT_EXIST";
  private static final String CLOSED = "TRADE_CLOSED";
  /** 本次交易打款给卖家的时间: only a trade that was paid has it. */
  private static final String PAID_AT = "send_pay_date";
  private static final Set<String> PAID = Set.of("TRADE_SUCCESS", "TRADE_FINISHED");

  private final AlipayOpenApi api;

  AlipayGateway(AlipayOpenApi api) {
    this.api = api;
  }

  @Override
  public Platform platform() {
    return Platform.ALIPAY;
  }

  @Override
  public String name() {
    return "alipay.trade.query";
  }

  @Override
  public Future<TradeAnswer> query(String outTradeNo) {
    return call("alipay.trade.query", outTradeNo).map(answer -> {
      if (answer.failedWith(NOT_EXIST)) {
        return TradeAnswer.of(State.NOT_FOUND, NOT_EXIST, answer.body());
      }
      answer.requireSuccess();
      String status = answer.fields().getOrDefault("trade_status", "");
      if (PAID.contains(status)) {
        return TradeAnswer.paid(payment(answer), answer.body());
      }
      // TRADE_CLOSED: unpaid past its time, or, with the payment's time, paid and then refunded in full (a partial
      // refund keeps TRADE_SUCCESS: this answer cannot tell it)
      if (CLOSED.equals(status) && !answer.fields().getOrDefault(PAID_AT, "").isEmpty()) {
        return TradeAnswer.refunded(payment(answer), status, answer.body());
      }
      return TradeAnswer.of(CLOSED.equals(status) ? State.CLOSED : State.WAITING, status, answer.body());
    });
  }

  /** ACQ.TRADE_STATUS_ERROR (paid or finished meanwhile) fails: the caller queries again. */
  @Override
  public Future<Void> close(String outTradeNo) {
    return call("alipay.trade.close", outTradeNo).map(answer -> {
      if (!answer.failedWith(NOT_EXIST)) {
        answer.requireSuccess();
      }
      return null;
    });
  }

  /** {@code method} about {@code outTradeNo}; a successful answer must name that order. */
  private Future<AlipayOpenApi.Answer> call(String method, String outTradeNo) {
    return api.call(method, new JsonObject().put("out_trade_no", outTradeNo)).map(answer -> {
      String named = answer.fields().get("out_trade_no");
      if (AlipayOpenApi.SUCCESS.equals(answer.fields().get("code")) && !outTradeNo.equals(named)) {
        throw OutboundFailure.untrusted(method + " answered about order '" + Ids.printable(named) + "', not " + outTradeNo);
      }
      return answer;
    });
  }

  private static NotifyEvent payment(AlipayOpenApi.Answer answer) {
    try {
      return AlipayChannel.payment(answer.fields(), PAID_AT);
    } catch (RejectedNotification e) {
      throw OutboundFailure.untrusted(answer.method() + "'s paid answer is not usable: " + e.getMessage());
    }
  }
}
