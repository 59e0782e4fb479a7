package paynotify.recovery;

import paynotify.channel.Money;
import paynotify.channel.NotifyEvent;
import paynotify.gateway.GatewayFailure;
import paynotify.gateway.TradeAnswer;
import paynotify.gateway.TradeQuery;

/**
 * A payment a bill shows, confirmed by the platform's own order query before it is booked (repair book, the
 * daily close's auto_repair): paid, by the same trade, for the same amount. Blocks: for a command's thread.
 */
public final class TradeConfirmation {
  private TradeConfirmation() {}

  /** Null when {@code query} confirms {@code payment}; else why not, in one sentence for a human. */
  public static String refusal(TradeQuery query, NotifyEvent payment) {
    TradeAnswer answer;
    try {
      answer = query.query(payment.orderNo()).await();
    } catch (GatewayFailure e) {
      return query.name() + " could not confirm trade " + payment.tradeNo() + " (" + e + "): try again later";
    }
    NotifyEvent paid = answer.payment();
    if (paid == null || !paid.tradeNo().equals(payment.tradeNo()) || paid.amountCents() != payment.amountCents()) {
      return query.name() + " does not confirm the bill's row: it says order " + payment.orderNo() + " is "
          + answer.platformStatus() + (paid == null ? "" : ", trade " + paid.tradeNo() + ", "
          + Money.format(paid.amountCents())) + "; check the bill";
    }
    return null;
  }
}
