package paynotify.recovery;

import paynotify.channel.Money;
import paynotify.channel.NotifyEvent;
import paynotify.channel.TradeAnswer;
import paynotify.channel.TradeQuery;
import paynotify.net.OutboundFailure;

/**
 * A payment a bill shows, confirmed by the platform's own order query before it is booked (repair book, the
 * daily close's auto_repair): plainly paid (TRADE_SUCCESS, TRADE_FINISHED, SUCCESS), by the same trade, for the
 * same amount, in an answer the platform signed. A trade it says was refunded since is recorded as such (a
 * {@code paid_then_refunded} anomaly, once per trade). Blocks: for a command's thread.
 */
public final class TradeConfirmation {
  private TradeConfirmation() {}

  /**
   * Null when {@code query} confirms {@code payment}; else why not, in one sentence for a human.
   *
   * @param found records what the platform said instead, when that is an anomaly
   */
  public static String refusal(TradeQuery query, NotifyEvent payment, FoundPayment found) {
    if (!query.books()) {
      return query.name() + "'s answers are not signed: they confirm nothing; check the trade in the merchant panel";
    }
    TradeAnswer answer;
    try {
      answer = query.query(payment.orderNo()).await();
    } catch (OutboundFailure e) {
      return query.name() + " could not confirm trade " + payment.tradeNo() + " (" + e + "): try again later";
    }
    NotifyEvent said = answer.payment();
    boolean same = said != null && said.tradeNo().equals(payment.tradeNo())
        && said.amountCents() == payment.amountCents();
    if (same && answer.state() == TradeAnswer.State.PAID) {
      return null;
    }
    if (same && answer.state() == TradeAnswer.State.REFUNDED) {
      found.refunded(query, answer).await();
      return query.name() + " says trade " + payment.tradeNo() + " was paid, then refunded at the platform ("
          + answer.platformStatus() + "): not booked, a paid_then_refunded anomaly to check before delivering";
    }
    return query.name() + " does not confirm the bill's row: it says order " + payment.orderNo() + " is "
        + answer.platformStatus() + (said == null ? "" : ", trade " + said.tradeNo() + ", "
        + Money.format(said.amountCents())) + "; check the bill";
  }
}
