package paynotify.channel;

import java.util.Objects;

/**
 * A platform's verified answer about one trade.
 *
 * @param state          what it means for the order
 * @param platformStatus the platform's own word (TRADE_SUCCESS, NOTPAY, ACQ.TRADE_NOT_EXIST, ...), for logs
 * @param payment        the payment as its notification would carry it ({@link State#PAID} and {@link
 *                       State#REFUNDED} only, else null): same platform, trade, order and amount, so the same
 *                       idempotency key and fingerprint
 * @param body           the answer as received (verified), kept in notify_log as a notification's body is
 */
public record TradeAnswer(State state, String platformStatus, NotifyEvent payment, byte[] body) {
  /** What an answer means for the order. */
  public enum State {
    /** Plainly paid (Alipay TRADE_SUCCESS or TRADE_FINISHED, WeChat SUCCESS): book {@link #payment()}. */
    PAID,
    /**
     * Paid, then refunded at the platform, partly or wholly (WeChat REFUND; Alipay TRADE_CLOSED with the payment's
     * send_pay_date): {@link #payment()} is the payment as it was made. Never booked without a human: the answer
     * does not say how much went back, and booked as paid the site would deliver for money returned.
     */
    REFUNDED,
    /** Not paid yet (WAIT_BUYER_PAY, NOTPAY, USERPAYING): ask again later. */
    WAITING,
    /** The platform has no trade for it (a QR code not scanned yet, or never used): ask again later. */
    NOT_FOUND,
    /** Closed, revoked or failed at the platform: it will not be paid; stop asking. */
    CLOSED
  }

  public TradeAnswer {
    Objects.requireNonNull(state);
    if ((state == State.PAID || state == State.REFUNDED) != (payment != null)) {
      throw new IllegalArgumentException("a payment goes with PAID or REFUNDED, and only with them");
    }
  }

  public static TradeAnswer paid(NotifyEvent payment, byte[] body) {
    return new TradeAnswer(State.PAID, payment.platformStatus(), payment, body);
  }

  /** {@code payment} was made, then (partly) refunded: the platform says {@code platformStatus}. */
  public static TradeAnswer refunded(NotifyEvent payment, String platformStatus, byte[] body) {
    return new TradeAnswer(State.REFUNDED, platformStatus, payment, body);
  }

  public static TradeAnswer of(State state, String platformStatus, byte[] body) {
    return new TradeAnswer(state, platformStatus, null, body);
  }
}
