package paynotify.booking.anomaly;

/** Kinds of anomalies booking records; stored lower-case in anomalies.kind. */
public enum AnomalyKind {
  /** A payment for an order_no the site does not know. */
  UNKNOWN_ORDER("find the order the buyer meant and fulfil it, or refund the payment"),
  /**
   * A payment or refund for a number not written as orders.out_trade_no writes the site's: another site's on the
   * same merchant account, V免签 server or epusdt token (or a replay of one of its messages). Nothing booked.
   */
  NOT_OUR_NUMBER("nothing was booked: the number is not written as orders.out_trade_no writes yours, so it is another"
      + " site's on the same merchant account or key, which books it; if it is one of your orders from before the"
      + " template was set, mark it paid (or refunded) by hand"),
  /** Paid amount differs from the order's amount: the order stays unpaid. */
  AMOUNT_MISMATCH("check the order's price: fulfil it and settle the difference, or refund the payment"),
  /** The order was already paid by another trade: the buyer paid twice and needs a refund. */
  SECOND_PAYMENT("refund this second payment to the buyer"),
  /**
   * The order was already marked paid outside paynotify, and neither its table (no trade_no column,
   * or none written) nor our payments say by which trade: perhaps this one, perhaps a second payment.
   */
  ALREADY_PAID("check whether this trade is the one that paid the order; if not, refund it"),
  /**
   * Paid in another currency than the site's (Stripe, PayPal, Paddle, Lemon Squeezy, Creem, TokenPay): the payment is
   * kept, never converted, the order left unpaid.
   */
  CURRENCY_MISMATCH("check the order: accept the payment by hand, or refund it"),
  /**
   * A trade number longer than the site's trade column (orders.columns.trade_no): the payment is
   * booked and the order marked paid, the column left as it was.
   */
  TRADE_NO_TOO_LONG("widen the site's trade column as the detail says (ALTER TABLE ... MODIFY, keeping the"
      + " column's other attributes); the order is paid, only this trade number is missing from it"),
  /** Paid after the order was closed. */
  PAID_AFTER_CLOSE("reopen and fulfil the order, or refund the buyer"),
  /** The order has a status this service does not know. */
  UNEXPECTED_ORDER_STATUS("look at the order: the payment is recorded, the order was left as it is"),
  /** Same idempotency key or trade, different business content. */
  CONFLICT("compare with the platform's bill: nothing was booked twice, the second version was not booked"),
  /** More refunded on a trade than it paid. */
  OVER_REFUND("check the trade's refunds on the platform"),
  /** A refund still waiting for its payment after the retention (flagged by the periodic check). */
  REFUND_WITHOUT_PAYMENT("reconcile the day's bill; book a lost payment with paynotify repair book"),
  /**
   * A genuine notification (verified) that could not be read: its body is in notify_log (outcome anomaly).
   * PayPal and Stripe were answered 200, so they will not send it again.
   */
  UNREADABLE_NOTIFICATION("read the notification's body in notify_log and the transaction on the platform's"
      + " website; book a payment it carries with paynotify repair book, or by hand"),
  /**
   * A payment that names no order (Stripe: no client_reference_id/metadata.order_no; PayPal: no invoice/custom; Paddle:
   * no custom_data.order_no; Creem: no request_id/metadata.order_no; Lemon Squeezy: no meta.custom_data.order_no, or
   * a paid order of the store's list that no payment holds).
   */
  PAYMENT_WITHOUT_ORDER("find the order from the payment on the platform's website (buyer, amount, time) and"
      + " fulfil it, or refund the payment; then name the order in every payment (docs/channels.md, the platform's"
      + " section)"),
  /**
   * V免签: the buyer paid {@code reallyPrice}, further from the order's {@code price} than vmq.max_price_shift (a
   * busy V免签 shifting many cents, or a notification whose prices were re-split under the same sign), or a
   * {@code price} that is not the amount of the order it names, whatever the order's status, or an order the site
   * does not have: not booked, no payment kept (its payId left free for the real one).
   */
  PRICE_SHIFT("look the payment up in V免签's admin and the phone's collection app: if the buyer paid, fulfil the"
      + " order by hand (or raise vmq.max_price_shift for the next ones), else nothing was paid"),
  /**
   * V免签 with the order in param: the signed message reads as a payment of the order it names and, split another
   * way under the same sign, of another order that waits unpaid for exactly that price. Either could be the one
   * paid: nothing booked, no payment kept (its payId left free).
   */
  AMBIGUOUS_PAYMENT("look the payId up in V免签's admin (its order list shows the param and price it was paid"
      + " for): mark that one of the two orders paid by hand and fulfil it; the other was not paid by it"),
  /**
   * A completed payment for an order, of a type paynotify does not book (PayPal: subscr_payment, merch_pmt, ...;
   * Paddle: a transaction of origin other than web or api, a subscription's charge).
   */
  UNBOOKED_PAYMENT("check the payment on the platform's website: fulfil the order by hand if it pays for it,"
      + " or refund it"),
  /** A refund made (or failed) at the platform, which paynotify does not book (虎皮椒's RD and UD). */
  UNBOOKED_REFUND("look the refund up in the platform's console: if the buyer got the money back, mark the order"
      + " refunded in your site by hand (and do not deliver it); if the refund failed, the order stays paid"),
  /** PayPal Canceled_Reversal: a chargeback decided for the merchant, after its reversal was booked as a refund. */
  CHARGEBACK_REVERSED("the money is back with you: the order still says refunded; deliver it again if the"
      + " buyer should have it, then resolve this"),
  /**
   * A buyer disputes a payment (Stripe charge.dispute.*, Creem dispute.created, Paddle's chargeback adjustments):
   * money held or taken back by the bank. Paddle, the merchant of record, answers the bank itself; its reversal
   * (decided for you) is one too, saying so.
   */
  DISPUTE("where you answer disputes (Stripe, Creem), answer it on the platform's website before its deadline (the"
      + " order, the delivery, the notifications in notify_log are the evidence); where the platform answers them"
      + " (Paddle, the detail says so), decide whether to stop what the order delivers; a chargeback reversed for you"
      + " needs nothing more"),
  /**
   * A refund that failed or was canceled (Stripe), or reversed after its approval (Paddle): the buyer did not get the
   * money back, the order says refunded.
   */
  REFUND_FAILED("the buyer has not got the money back: refund again another way, or reopen the order"),
  /**
   * A payment found by asking the platform (recovery) whose notification never came: callbacks are not
   * reaching paynotify. Recorded once per platform and day.
   */
  CALLBACK_MISSING("callbacks are not reaching you: check the notify URL set at the platform, nginx's location"
      + " for its path, a CDN or WAF in front that blocks or challenges the platform's POST, and the TLS certificate"
      + " (docs/operations.md: recovery)"),
  /**
   * An event recovery found (one of Stripe's undelivered events) whose booking failed in sweep after sweep: an error,
   * not a verdict (the database refused it, an orders mapping the statement cannot match). Nothing of it was booked;
   * recovery went on past it and takes it no more. Recorded once per event.
   */
  BOOKING_FAILED("nothing was booked: fix the error the detail names (the log has every try), then have the platform"
      + " send the event again (Stripe: Workbench, Webhooks, your endpoint, the event, Resend), which books it (and"
      + " resolves this). Stripe retries on its own for days: before fulfilling the order by hand, check it is not"
      + " paid by now"),
  /**
   * A platform whose answer is not signed (epay's order query) says an unpaid order is paid: not booked, as
   * anyone able to answer in its place could say so (epay.query_books: true books it).
   */
  QUERY_SAYS_PAID("look the order up in the aggregator's merchant panel: if it is paid, press its 补单/重新通知"
      + " (re-notify) button, whose notification is signed and booked; if it is not, nothing is wrong here"),
  /**
   * A signed "paid" of a channel whose key an aggregator also holds (confirm_before_book) that its platform's order
   * query did not confirm (unpaid, another amount or trade, no answer): not booked, answered failure so that the
   * platform delivers it again; booked, and this resolved, once the query says paid for that trade and amount (the
   * redelivery's, or the sweeper's). Recorded once per trade, with the first reason.
   */
  AWAITING_CONFIRMATION("nothing was booked: the aggregator's own order query did not say this trade was paid for this"
      + " amount. If it says so later, paynotify books it and resolves this. If it never does, look the order up in the"
      + " aggregator's merchant panel: unpaid there, the notification was signed with your key by someone else (change"
      + " the key at the aggregator); refunded there, it was paid and given back; paid there, ask the aggregator why"
      + " its query says otherwise"),
  /**
   * A platform asked about an unpaid order (recovery, check, auto_repair, repair book) says its trade was paid, then
   * refunded (WeChat REFUND, Alipay TRADE_CLOSED after a payment): not booked, as the answer does not say how much
   * went back. Recorded once per trade; the order is asked about no more.
   */
  PAID_THEN_REFUNDED("paid, then refunded at the platform: check before delivering. The order was left unpaid; the"
      + " platform's merchant console says how much went back: if all of it, nothing is owed; if part, settle with the"
      + " buyer and mark the order by hand"),
  /**
   * A payment found by asking or in a bill whose platform time is earlier than its order's creation (beyond a few
   * minutes of clock skew): another, earlier order's under the same number. Not booked; recorded once per trade.
   */
  PAID_BEFORE_ORDER("the trade was paid before this order was created: it paid an earlier order of the same number"
      + " (a database restored from a backup, a reinstall, another site on the same merchant account), not this one,"
      + " which was left unpaid. Find whose payment it is; make order numbers that are never handed out twice"),
  /** An event the site was never told of: its endpoint kept failing until the last retry. */
  FORWARD_FAILED("fix the site's endpoint, then paynotify forward retry --all-failed"),
  /** An endpoint answered 410 Gone: nothing is sent to it any more, on any instance. */
  FORWARD_ENDPOINT_GONE("the endpoint answered 410 Gone, so paynotify stopped sending to it: fix its URL or the"
      + " receiver, then paynotify forward enable (the events waiting are sent then)"),
  /**
   * An endpoint refused (4xx, not 408 or 429) forward.disable_after_4xx events in a row: it is disabled rather than
   * have every event burn its retries against a receiver that cannot take any (a wrong secret, a moved route).
   */
  FORWARD_ENDPOINT_REFUSING("the endpoint refuses every event (its answer is in the detail: a 401 or 403 is"
      + " usually a secret that differs from forward's, a 404 a URL that moved): fix it, then paynotify forward"
      + " enable (the events waiting are sent then)");

  private final String action;

  AnomalyKind(String action) {
    this.action = action;
  }

  public String code() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  /** What a person should do about it: told to the site with anomaly.created. */
  public String action() {
    return action;
  }

  /** The kind stored as {@code code}, or null for one this version does not know. */
  public static AnomalyKind of(String code) {
    for (AnomalyKind kind : values()) {
      if (kind.code().equals(code)) {
        return kind;
      }
    }
    return null;
  }
}
