package paynotify.booking;

import static paynotify.store.SqlQueries.INSERT_PAYMENT;
import static paynotify.store.SqlQueries.SELECT_PAYMENT;
import static paynotify.store.SqlQueries.SETTLE_PENDING_REFUNDS;
import static paynotify.store.SqlQueries.SET_PAYMENT_MOVED_ORDER;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.util.List;
import java.util.Locale;
import paynotify.booking.anomaly.Anomaly;
import paynotify.booking.anomaly.Anomalies;
import paynotify.booking.anomaly.AnomalyKind;
import paynotify.channel.Money;
import paynotify.channel.NotifyEvent.Reading;
import paynotify.channel.NotifyEvent;
import paynotify.channel.UnbookableNotification.Problem;
import paynotify.channel.UnbookableNotification;
import paynotify.store.OrdersTable.Order;
import paynotify.store.OrdersTable.PaidMove;
import paynotify.store.OrdersTable;

/**
 * A payment's writes: the order unpaid -> paid, the payment row (uk_trade_no) that records whether that
 * moved it, and, when refunds came first and held its key, those refunds settled. When the order did not
 * move, the locked order says why (an anomaly, booked with the payment: the money is real). Only
 * uk_trade_no finds a repeat here. The payment.succeeded it tells says what those refunds paid back, and
 * whether to deliver. Where the platform's sign does not bind the amount to the order (V免签), a payment
 * that is not of its order's own amount, and one whose sign also pays another order waiting, roll back
 * instead: an anomaly without a payment row ({@link UnbookableNotification}).
 */
final class PaymentBooking implements BookingTransaction.Writes {
  private final OrdersTable orders;
  private final SiteEvents outbox;

  PaymentBooking(OrdersTable orders, SiteEvents outbox) {
    this.orders = orders;
    this.outbox = outbox;
  }

  @Override
  public Future<BookingResult> apply(SqlConnection conn, NotifyEvent e, String key, boolean refundsWaiting) {
    Future<BookingResult> booked = book(conn, e, key, refundsWaiting);
    // V免签 with the order in param: the sign also reads as payments of other orders. Only then more reads (every
    // other event's statements stay as they are), and last: no read view opens before the locking statements.
    return e.otherReadings().isEmpty() ? booked : booked.transform(done -> done.succeeded()
        || done.cause() instanceof UnbookableNotification ? unambiguous(conn, e).compose(v -> booked) : booked);
  }

  /**
   * The order's UPDATE (sent with the key), then, once it answered, the payment row that records whether it
   * moved the order, and the site's payment.succeeded if it did.
   */
  private Future<BookingResult> book(SqlConnection conn, NotifyEvent e, String key, boolean refundsWaiting) {
    boolean foreign = e.foreignCurrency() != null; // its amount is not the order's: never marks it paid
    Future<PaidMove> order = foreign ? Future.succeededFuture(PaidMove.NONE)
        : orders.markPaid(conn, e.platform(), e.tradeNo(), e.orderNo(), e.amountCents(), e.paidAt());
    return order.compose(move -> {
      Future<RowSet<Row>> payment = BookingTransaction.insert(conn, INSERT_PAYMENT, Tuple.of(e.platform().code(),
          e.tradeNo(), e.orderNo(), e.amountCents(), e.paidAt(), e.detail(), move.moved()), Layer.TRADE);
      Future<Void> told = move.moved() ? outbox.payment(conn, e) : Future.succeededFuture();
      return Future.join(payment, told).transform(all -> firstFailure(payment, told)).map(move);
    }).compose(move -> move.moved() ? paid(conn, e, key, move)
            : foreign ? anomaly(conn, e, key, AnomalyKind.CURRENCY_MISMATCH, e.platform().code() + " trade "
                + e.tradeNo() + " paid " + e.amountCents() + " in " + e.foreignCurrency() + ", not the site's currency:"
                + " order " + e.orderNo() + " left unpaid")
            : judgeOrder(conn, e, key))
        .compose(judged -> refundsWaiting ? settleRefunds(conn, e, key, judged)
            : Future.succeededFuture(judged.result()));
  }

  /**
   * The order moved. Without its trade number (too long for the site's trade column): an anomaly that
   * says which column to widen, one statement for a rare case, none otherwise. payment.succeeded was
   * written as for any move.
   */
  private Future<Judged> paid(SqlConnection conn, NotifyEvent e, String key, PaidMove move) {
    String paid = "order " + e.orderNo() + " unpaid -> paid";
    if (!move.tradeLeftOut()) {
      return Future.succeededFuture(new Judged(new BookingResult(Outcome.PROCESSED, paid), true));
    }
    AnomalyKind kind = AnomalyKind.TRADE_NO_TOO_LONG;
    String column = orders.table() + "." + orders.columns().tradeNo();
    int needed = Math.max(e.tradeNo().length(), e.platform().tradeNoLength());
    String detail = e.platform().code() + " trade " + e.tradeNo() + " has " + e.tradeNo().length() + " characters, more"
        + " than " + column + " holds: order " + e.orderNo() + " marked paid, " + column + " left as it was"
        + " (payments has the trade); widen it: ALTER TABLE " + OrdersTable.quote(orders.table()) + " MODIFY "
        + OrdersTable.quote(orders.columns().tradeNo()) + " VARCHAR(" + needed + ") ... (its NULL, DEFAULT and"
        + " COLLATE as SHOW CREATE TABLE " + OrdersTable.quote(orders.table()) + " shows them)";
    Anomaly anomaly = new Anomaly(kind.code(), e.platform().code(), e.orderNo(), e.tradeNo(), e.amountCents(), detail,
        kind.code() + ":" + key);
    return outbox.recordAnomaly(conn, anomaly, !e.testMode())
        .map(new Judged(new BookingResult(Outcome.PROCESSED, paid + "; " + kind.code() + ": " + detail), true));
  }

  /** What the booking decided for the order, and whether it told the site payment.succeeded. */
  private record Judged(BookingResult result, boolean toldPayment) {}

  /**
   * The refunds that arrived before this payment (pending), which held its key: settled now. The
   * payment.succeeded written before them is completed with their total (a statement of its own).
   */
  private Future<BookingResult> settleRefunds(SqlConnection conn, NotifyEvent e, String key, Judged judged) {
    return conn.preparedQuery(SETTLE_PENDING_REFUNDS).execute(Tuple.of(e.platform().code(), e.tradeNo()))
        .map(RowSet::rowCount)
        .compose(n -> n == 0 ? Future.succeededFuture(judged.result())
            : RefundSettlement.settle(conn, orders, outbox, e.platform(), e.tradeNo(), e.orderNo(), e.amountCents(),
                    key, !e.testMode())
                .compose(s -> (judged.toldPayment() ? outbox.paymentRefunded(conn, e, s.refundedCents())
                        : Future.<Void>succeededFuture())
                    .map(judged.result().then(new BookingResult(s.result().outcome(), n + " pending refund(s) settled: "
                        + s.result().detail())))));
  }

  @Override
  public Future<String> difference(SqlConnection conn, NotifyEvent e) {
    return conn.preparedQuery(SELECT_PAYMENT).execute(Tuple.of(e.platform().code(), e.tradeNo())).map(rows -> {
      Row booked = Rows.single(rows);
      return booked.getString("order_no").equals(e.orderNo()) && booked.getLong("amount_cents") == e.amountCents()
          ? null
          : "trade " + e.tradeNo() + " was booked for order " + booked.getString("order_no") + ", "
              + booked.getLong("amount_cents") + " cents";
    });
  }

  /** The failure that decides, in statement order. */
  private static Future<Void> firstFailure(Future<?>... steps) {
    for (Future<?> step : steps) {
      if (step.failed()) {
        return Future.failedFuture(step.cause());
      }
    }
    return Future.succeededFuture();
  }

  /**
   * The order did not move, and the payment is new (its insert passed uk_trade_no): an anomaly, or
   * an order marked paid by this trade outside paynotify. Both keep the payment: the money is real.
   */
  private Future<Judged> judgeOrder(SqlConnection conn, NotifyEvent e, String key) {
    return orders.find(conn, e.orderNo(), true).compose(found -> {
      PaymentVerdict verdict = PaymentVerdict.judge(found, e);
      if (verdict.movesOrder()) { // SQL found no such row, Java does: the amount column compares otherwise
        return Future.failedFuture(new IllegalStateException("orders: order " + e.orderNo() + " reads as unpaid for "
            + e.amountCents() + " cents but MARK_ORDER_PAID matched no row: rolled back; check the type of"
            + " orders.columns.amount (amount_unit " + orders.unit().name().toLowerCase(Locale.ROOT) + ")"));
      }
      if (verdict.markedByThisTrade()) { // its refunds move the order, as if this booking had marked it
        return conn.preparedQuery(SET_PAYMENT_MOVED_ORDER).execute(Tuple.of(e.platform().code(), e.tradeNo()))
            .compose(marked -> outbox.payment(conn, e))
            .map(new Judged(new BookingResult(Outcome.PROCESSED, verdict.detail()), true));
      }
      if (!e.platform().signsAmountToOrder() && !PaymentVerdict.paysDue(found, e)) {
        return Future.failedFuture(unsignedAmount(e, found)); // rolled back: no payment, its trade left free
      }
      return anomaly(conn, e, key, verdict.anomaly(), verdict.detail());
    });
  }

  /**
   * Review N1: where the signature does not bind the amount to its fields (V免签), a price that is not the order's
   * (whatever its status), or an order the site does not have, may be the digits of other values read anew
   * (createOrder's sign, sent through the buyer's browser, signs the same string short of reallyPrice). Not a
   * payment, and not kept: a row under its payId would make the buyer's real payment of the order a conflict, and
   * tell the owner to refund money nobody paid.
   */
  private static UnbookableNotification unsignedAmount(NotifyEvent e, Order order) {
    String named = order == null ? "order " + e.orderNo() + ", which this site does not have"
        : "order " + e.orderNo() + " (" + order.storedStatus() + ", for " + PaymentVerdict.due(order) + ")";
    return new UnbookableNotification(order == null ? Problem.UNKNOWN_ORDER : Problem.PRICE_SHIFT, e.platform(),
        e.tradeNo(), e.orderNo(), e.tradeNo(),
        e.amountCents(), e.platform().code() + " trade " + e.tradeNo() + " says " + Money.format(e.amountCents())
            + " was paid for " + named + "; not booked, no payment kept (" + e.platform().code() + "'s sign does not"
            + " bind a value to its field, so only an order's own amount is a payment; a real payment of the order"
            + " books when it comes): " + e.detail());
  }

  /**
   * A sign that also reads as a payment of another order waiting for that very amount: either could be the one
   * paid, and only V免签's own records tell which. Nothing kept, so that neither order is paid by the wrong money.
   */
  private Future<Void> unambiguous(SqlConnection conn, NotifyEvent e) {
    List<Reading> readings = e.otherReadings();
    List<Future<Order>> found = readings.stream().map(r -> orders.find(conn, r.orderNo(), false)).toList();
    return Future.all(found).compose(all -> {
      for (int i = 0; i < readings.size(); i++) {
        if (PaymentVerdict.waitsFor(found.get(i).result(), readings.get(i).amountCents())) {
          return Future.failedFuture(ambiguous(e, readings.get(i)));
        }
      }
      return Future.succeededFuture();
    });
  }

  private static UnbookableNotification ambiguous(NotifyEvent e, Reading other) {
    return new UnbookableNotification(Problem.AMBIGUOUS_PAYMENT, e.platform(), e.tradeNo(), e.orderNo(), e.tradeNo(),
        e.amountCents(), e.platform().code() + " trade " + e.tradeNo() + " came as a payment of order " + e.orderNo()
            + " (" + Money.format(e.amountCents()) + "), and its sign, which covers the values without separators,"
            + " reads as well as a payment of order " + other.orderNo() + " (" + Money.format(other.amountCents())
            + "), which waits unpaid for that amount: either could be the one paid; not booked, no payment kept."
            + " Look the trade up in V免签's admin: mark paid by hand the order whose param and price it shows: "
            + e.detail());
  }

  /** The payment is booked (the money is real) with an anomaly for a human. */
  private Future<Judged> anomaly(SqlConnection conn, NotifyEvent e, String key, AnomalyKind kind, String detail) {
    Anomaly anomaly = new Anomaly(kind.code(), e.platform().code(), e.orderNo(), e.tradeNo(), e.amountCents(), detail,
        kind.code() + ":" + key);
    return outbox.recordAnomaly(conn, anomaly, !e.testMode())
        .map(new Judged(new BookingResult(Outcome.ANOMALY, kind.code() + ": " + detail), false));
  }
}
