package paynotify.recovery;

import io.vertx.core.Future;
import paynotify.channel.Money;
import paynotify.channel.NotifyEvent;
import paynotify.channel.TradeAnswer;
import paynotify.channel.TradeQuery;
import paynotify.net.OutboundFailure;

/**
 * A payment confirmed by the platform's own order query before it is booked: plainly paid (TRADE_SUCCESS,
 * TRADE_FINISHED, SUCCESS), by the same trade, for the same amount. A bill's row (repair book, the daily close's
 * auto_repair) only in an answer the platform signed; a signed notification of a channel whose key an aggregator
 * also holds (confirm_before_book) in its answer signed or not, the two together being the evidence
 * ({@link Recovery#unconfirmed}). A trade it says was refunded since is recorded as such (a
 * {@code paid_then_refunded} anomaly, once per trade).
 */
public final class TradeConfirmation {
  private TradeConfirmation() {}

  /**
   * Null when {@code query} confirms {@code payment}, a bill's row; else why not, in one sentence for a human.
   * Blocks: for a command's thread.
   *
   * @param found records what the platform said instead, when that is an anomaly
   */
  public static String refusal(TradeQuery query, NotifyEvent payment, FoundPayment found) {
    if (!query.books()) {
      return query.name() + "'s answers are not signed: they confirm nothing; check the trade in the merchant panel";
    }
    return refusal(query, payment, found, "the bill's row", "check the bill").await();
  }

  /**
   * Null when {@code query}'s answer confirms {@code payment}, which came as {@code what}; else why not, ending with
   * {@code advice} (null: none). Never fails on the platform: one that gives no answer is a reason too. Asked about
   * the payment's order, or its trade where the platform is asked by trade id only (TokenPay).
   */
  static Future<String> refusal(TradeQuery query, NotifyEvent payment, FoundPayment found, String what,
      String advice) {
    return query.query(payment.orderNo(), payment.tradeNo()).compose(answer -> {
      NotifyEvent said = answer.payment();
      boolean same = said != null && said.tradeNo().equals(payment.tradeNo())
          && said.amountCents() == payment.amountCents();
      if (same && answer.state() == TradeAnswer.State.PAID) {
        return Future.succeededFuture((String) null);
      }
      if (same && answer.state() == TradeAnswer.State.REFUNDED) {
        return found.refunded(query, answer).map(query.name() + " says trade " + payment.tradeNo() + " was paid, then"
            + " refunded at the platform (" + answer.platformStatus() + "): not booked, a paid_then_refunded anomaly"
            + " to check before delivering");
      }
      return Future.succeededFuture(query.name() + " does not confirm " + what + ": it says order " + payment.orderNo()
          + " is " + answer.platformStatus() + (said == null ? "" : ", trade " + said.tradeNo() + ", "
          + Money.format(said.amountCents())) + (advice == null ? "" : "; " + advice));
    }).recover(err -> err instanceof OutboundFailure ? Future.succeededFuture(query.name() + " could not confirm trade "
        + payment.tradeNo() + " (" + err + "): try again later") : Future.failedFuture(err));
  }
}
