package paynotify.recovery;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.List;
import paynotify.booking.BookingResult;
import paynotify.booking.EventBooking;
import paynotify.booking.Outcome;
import paynotify.booking.Receipt;
import paynotify.booking.Receipt.Taken;
import paynotify.booking.Receipt.Waiting;
import paynotify.booking.SiteEvents;
import paynotify.booking.anomaly.AnomalyKind;
import paynotify.channel.Money;
import paynotify.channel.NotifyEvent;
import paynotify.channel.Platform;
import paynotify.channel.TradeAnswer;
import paynotify.channel.TradeQuery;
import paynotify.store.Database;
import paynotify.store.NotifyLog.Trace;
import paynotify.store.NotifyLog;
import paynotify.store.OrdersTable;

/**
 * A payment a platform's answer reported, booked exactly as its notification would be: the same event,
 * so the same idempotency key, unique keys and anomaly checks, in the same transaction, through the same
 * {@link Receipt}. A notification arriving later is a duplicate; one racing the query is decided by the keys. Its
 * notify_log row says where it came from: the channel says how it was found ({@link FoundBy}: a platform's answer,
 * a row of a day's bill the platform served, repair book), the client's name is its remote address, what the
 * platform said its body. When it was booked now (no notification had), callbacks are not reaching paynotify: a
 * {@code callback_missing} anomaly, once per platform and day.
 *
 * <p>Every payment found passes here, and some are not booked but an anomaly for a human, once per trade: one
 * paid before its order was created ({@link PaidBeforeOrder}), one the platform says was refunded since, one an
 * unsigned answer reports (unless its trade's signed notification waits for that answer: confirm_before_book).
 * Each anomaly names the site's order, as a booking does, not the number the platform was asked with
 * (orders.out_trade_no).
 */
public final class FoundPayment {
  private final FoundBy foundBy;
  private final EventBooking booking;
  private final PaidBeforeOrder paidBefore;
  private final Receipt receipt;

  /**
   * @param db        where its reads and anomalies run (recovery's own pool for what recovery finds)
   * @param createdAt the site's column of an order's creation time; null when not mapped
   */
  public FoundPayment(FoundBy foundBy, EventBooking booking, NotifyLog log, Database db, SiteEvents outbox,
      OrdersTable orders, String createdAt) {
    this.foundBy = foundBy;
    this.booking = booking;
    this.paidBefore = new PaidBeforeOrder(db, orders, createdAt);
    this.receipt = new Receipt(booking, log, db, outbox, paidBefore::refusal);
  }

  /**
   * Books {@code payment}, which {@code source} (a client's name) reported in {@code body}: succeeds once it is
   * committed (or found booked before); fails as a notification's booking does. {@code evidence}: booked now,
   * it shows callbacks are not arriving (false when its notification may simply not have come yet). A payment
   * made before its order was created is not booked: {@link Outcome#IGNORED}, a {@code paid_before_order}
   * anomaly saying why.
   */
  public Future<BookingResult> book(String source, NotifyEvent payment, byte[] body, boolean evidence) {
    return receipt.book(trace(source, body), payment, evidence);
  }

  /**
   * What {@code source} sent in {@code body}, {@code read} as its notification would be, taken as that would be
   * ({@link Receipt#take}); a payment is booked as {@link #book} books it.
   */
  Future<Taken> take(String source, Future<NotifyEvent> read, byte[] body, boolean evidence) {
    return receipt.take(trace(source, body), read, evidence);
  }

  /** Why {@link #book} would not book {@code payment} on its order (paid before it was created); null if it would. */
  public Future<String> paidBeforeItsOrder(NotifyEvent payment) {
    return paidBefore.refusal(payment);
  }

  /**
   * A payment a signed (or trusted: epay.query_books) answer reported, booked as {@link #book} books it. Where its
   * trade's signed notification waits for a confirmation (confirm_before_book), the notification came, so the booking
   * is no evidence of callbacks missing; the wait is resolved with it when the answer is for the same order and
   * amount, and left open for a human when it contradicts the notification (the signal confirm_before_book is for).
   * {@code confirming}: as for {@link #unsigned}.
   */
  Future<BookingResult> signed(TradeQuery query, TradeAnswer answer, boolean confirming, boolean evidence) {
    NotifyEvent payment = answer.payment();
    Trace trace = trace(query.name(), answer.body());
    return waitOf(payment, confirming).compose(waiting -> waiting == null ? receipt.book(trace, payment, evidence)
        : waiting.sameAs(booking.siteOrderNo(payment.orderNo()), payment) ? receipt.bookWaited(trace, payment)
        : receipt.book(trace, payment, false));
  }

  /**
   * A payment an unsigned answer reported (epay's query). Where its trade's signed notification waits for this
   * confirmation (confirm_before_book) for the same order and amount, the two together are the evidence: booked as
   * that notification would have been, the wait resolved. Otherwise not booked (null): an anomaly for a human, once
   * per trade. Its notify_log row keeps the answer as received. {@code confirming}: its platform's channel confirms
   * before booking (else no wait is looked for: the sweeper's answer costs no read more).
   */
  Future<BookingResult> unsigned(TradeQuery query, TradeAnswer answer, boolean confirming) {
    NotifyEvent payment = answer.payment();
    String orderNo = booking.siteOrderNo(payment.orderNo());
    Trace trace = trace(query.name(), answer.body());
    return waitOf(payment, confirming).compose(waiting -> waiting != null && waiting.sameAs(orderNo, payment)
        ? receipt.bookWaited(trace, payment)
        : receipt.hold(trace, payment, AnomalyKind.QUERY_SAYS_PAID, query.name() + " says order " + orderNo
            + " is paid (trade " + payment.tradeNo() + (waiting == null ? "" : ", "
            + Money.format(payment.amountCents()) + ", where its signed notification said order " + waiting.orderNo()
            + ", " + Money.format(waiting.amountCents())) + "), but its answers are not signed: not booked", false)
            .map((BookingResult) null));
  }

  /** The signed notification of {@code payment}'s trade that waits, if its channel is {@code confirming}: else none. */
  private Future<Waiting> waitOf(NotifyEvent payment, boolean confirming) {
    return confirming ? receipt.waiting(payment) : Future.succeededFuture();
  }

  /**
   * The trades of {@code platform} whose signed payments for the site's order {@code orderNo} wait for its order
   * query's confirmation (confirm_before_book), newest first, at most {@code limit}: what a platform asked by its
   * trade id only is asked about.
   */
  Future<List<String>> waitingTrades(Platform platform, String orderNo, int limit) {
    return receipt.waitingTrades(platform, orderNo, limit);
  }

  /**
   * A payment the platform says was refunded since (WeChat REFUND, Alipay TRADE_CLOSED after it was paid): not
   * booked, as the answer does not say how much went back; an anomaly for a human, once per trade. Its key is taken
   * with the anomaly: the payment's own notification, retried after the refund (WeChat for about 24 h, Alipay 25 h),
   * is then a duplicate, answered success and not booked.
   */
  public Future<Void> refunded(TradeQuery query, TradeAnswer answer) {
    NotifyEvent payment = answer.payment();
    return receipt.hold(trace(query.name(), answer.body()), payment, AnomalyKind.PAID_THEN_REFUNDED, query.name()
        + " says order " + booking.siteOrderNo(payment.orderNo()) + " was paid (trade " + payment.tradeNo() + ", "
        + Money.format(payment.amountCents()) + "), then refunded (" + answer.platformStatus() + ")", true);
  }

  private Trace trace(String source, byte[] body) {
    return new Trace(foundBy.logChannel(), source, Buffer.buffer(body == null ? new byte[0] : body));
  }
}
