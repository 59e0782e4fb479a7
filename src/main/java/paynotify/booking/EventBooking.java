package paynotify.booking;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Tuple;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.booking.anomaly.AnomalyKind;
import paynotify.channel.EventKind;
import paynotify.channel.Money;
import paynotify.channel.NotifyEvent;
import paynotify.channel.Platform;
import paynotify.channel.UnbookableNotification.Problem;
import paynotify.channel.UnbookableNotification;
import paynotify.store.Database;
import paynotify.store.NotifyLog;
import paynotify.store.OrdersTable;
import paynotify.store.SqlQueries;
import paynotify.store.Stores;
import paynotify.store.TransientRetry;

/**
 * What becomes of every event a channel verified: a payment or refund booked in the one transaction,
 * a closed trade closing its order, a genuine notification booking cannot follow recorded as an
 * anomaly; and the one door of every write to the site's orders table ({@link #closeExpired} for recovery).
 * What arrived leaves its trace in notify_log through its {@link Receipt}; its count and its reply are its
 * caller's to keep (http's {@code NotifyFate}).
 */
public final class EventBooking {
  private static final Logger LOG = LoggerFactory.getLogger(EventBooking.class);

  private final Database db;
  private final Database status;
  private final BookingSettings settings;
  private final TransientRetry retry;
  private final BookingTransaction transaction;
  private final OrdersTable orders;
  private final SiteEvents outbox;
  private final PaymentBooking payments;
  private final RefundBooking refunds;
  private final StrandedRefunds stranded;
  private final UnbookableAnomalies unbookable;

  /**
   * @param orders the site's orders table, as mapped
   * @param outbox what the site is told ({@link SiteEvents#OFF}: nothing)
   */
  public EventBooking(Vertx vertx, Stores stores, BookingSettings settings, OrdersTable orders, SiteEvents outbox) {
    this.db = stores.db();
    this.status = stores.status();
    this.settings = settings;
    this.orders = orders;
    this.outbox = outbox;
    this.payments = new PaymentBooking(orders, outbox);
    this.refunds = new RefundBooking(orders, outbox);
    this.stranded = new StrandedRefunds(db, orders, outbox);
    this.retry = new TransientRetry(vertx, settings.maxAttempts());
    this.transaction = new BookingTransaction(db, stores.reads(), retry, outbox);
    this.unbookable = new UnbookableAnomalies(db, retry, outbox);
  }

  /**
   * Whether the database answers now (the /health check), on the status pool: a monitor polling /health
   * hard must not queue up in front of the bookings.
   */
  public Future<Void> ping() {
    return status.ping();
  }

  /**
   * A genuine notification booking cannot follow: its anomaly, committed (then the platform may stop
   * retrying). {@code body} names it when the platform gave it no id.
   */
  public Future<BookingResult> recordUnbookable(UnbookableNotification u, Buffer body) {
    return unbookable.record(u, siteOrderNo(u.orderNo()), body);
  }

  /** The receipt of an endpoint's notifications, their rows queued in {@code log}. */
  public Receipt receipt(NotifyLog log) {
    return new Receipt(this, log, db, outbox, null);
  }

  /**
   * The site's order number in the one a notification names ({@code orders.out_trade_no}); as the notification names
   * it when it is not written so, null for null.
   */
  public String siteOrderNo(String notified) {
    String siteOrder = orders.numbers().toSite(notified);
    return siteOrder != null ? siteOrder : notified;
  }

  /** Whether {@code notified} names its order as orders.out_trade_no writes the site's (always, without a template). */
  boolean namesTheSites(NotifyEvent notified) {
    return orders.numbers().toSite(notified) != null;
  }

  /** {@code notified} under the site's order number; as it names it when that is not written so. */
  NotifyEvent site(NotifyEvent notified) {
    NotifyEvent site = orders.numbers().toSite(notified);
    return site != null ? site : notified;
  }

  /**
   * Whether this process saw {@code notified}'s key committed ({@link BookedKeys}): its booking would find it a
   * repeat. Not the database's word: only what spares a repeat a question to its platform.
   */
  boolean seenBooked(NotifyEvent notified) {
    return transaction.seenBooked(site(notified).idempotencyKey());
  }

  /** {@code transaction} run again after a deadlock or a lost snapshot, as a booking is. */
  <T> Future<T> retried(Supplier<Future<T>> transaction) {
    return retry.run(transaction);
  }

  /** Books the event: succeeds once that is committed (or found booked before). */
  public Future<BookingResult> book(NotifyEvent notified) {
    NotifyEvent event = orders.numbers().toSite(notified); // booked under the site's order number
    if (event == null) {
      return notTheSites(notified);
    }
    return switch (event.kind()) {
      case PAYMENT -> settleRacedRefunds(event, transaction.book(event, payments))
          .compose(booked -> unbookable.resolveWaiting(event, booked))
          // an amount its platform's sign does not bind to the order and not the order's, or a sign that pays
          // another waiting order as well (V免签): rolled back
          .recover(err -> err instanceof UnbookableNotification u ? unbookable.record(u, event.orderNo(), null)
              : Future.failedFuture(err));
      case REFUND -> settleRacedRefunds(event, transaction.book(event, refunds));
      case CLOSE -> settings.tradeClosedClosesOrder() ? close(event).map(closed -> new BookingResult(
          closed ? Outcome.PROCESSED : Outcome.IGNORED, "order " + event.orderNo()
              + (closed ? " unpaid -> closed" : " is not unpaid (or unknown): left as it is")))
          : Future.succeededFuture(new BookingResult(Outcome.IGNORED, event.platform().code() + " closed trade "
              + event.tradeNo() + "; order " + event.orderNo() + " left as it is (booking.trade_closed_closes_order)"));
      case NONE -> Future.succeededFuture(
          new BookingResult(Outcome.IGNORED, "status " + event.platformStatus() + " books nothing"));
    };
  }

  /**
   * Review S2: with orders.out_trade_no set, a number not written with it is another site's (one merchant account,
   * V免签 server or epusdt token for two sites), or a replay of one of its messages: never this site's order. Its
   * money is recorded for a human, nothing moved; the platform may stop sending once that is committed.
   */
  private Future<BookingResult> notTheSites(NotifyEvent e) {
    String what = e.platform().code() + " " + e.kind().name().toLowerCase(Locale.ROOT) + " of trade " + e.tradeNo()
        + " names order " + e.orderNo() + ", not written as orders.out_trade_no writes this site's numbers";
    if (e.kind() != EventKind.PAYMENT && e.kind() != EventKind.REFUND) {
      return Future.succeededFuture(new BookingResult(Outcome.IGNORED, what + ": another site's, left as it is"));
    }
    return unbookable.record(new UnbookableNotification(Problem.NOT_OUR_NUMBER, e.platform(), e.idempotencyKey(),
        e.orderNo(), e.tradeNo(), e.amountCents(), what + " (" + Money.format(e.amountCents()) + "): another site's,"
            + " nothing booked"), e.orderNo(), null);
  }

  /**
   * On Galera, once a payment or refund is committed, its trade's refunds that a booking on another
   * node left pending ({@link StrandedRefunds}). Booked is booked: a failure here only leaves them to
   * the periodic check.
   */
  private Future<BookingResult> settleRacedRefunds(NotifyEvent e, Future<BookingResult> booked) {
    return !db.onGalera() ? booked : booked.compose(result -> stranded.settleIfAny(e.platform(), e.tradeNo())
        .otherwise(err -> {
          LOG.info("pending refunds of {} trade {} left to the periodic check: {}", e.platform().code(), e.tradeNo(),
              err.getMessage());
          return null;
        })
        .map(result));
  }

  /**
   * What booking this payment would do now, read without writing (a repair's dry run).
   *
   * @param bookedFor the order its trade is booked for already (then no verdict), else null
   * @param verdict   what it would do to its order, else null
   * @param refunds   the refunds it would settle (they came first), else null
   */
  public record PaymentPlan(String bookedFor, PaymentVerdict verdict, PendingRefunds refunds) {}

  public Future<PaymentPlan> plan(NotifyEvent notified) {
    NotifyEvent payment = orders.numbers().toSite(notified);
    if (payment == null) {
      return Future.succeededFuture(new PaymentPlan(null, new PaymentVerdict(AnomalyKind.NOT_OUR_NUMBER, "order "
          + notified.orderNo() + " is not written as orders.out_trade_no writes this site's numbers: another site's"),
          new PendingRefunds(List.of(), 0)));
    }
    return db.inTransaction(conn -> conn.preparedQuery(SqlQueries.SELECT_PAYMENT)
        .execute(Tuple.of(payment.platform().code(), payment.tradeNo()))
        .compose(booked -> booked.size() > 0
            ? Future.succeededFuture(new PaymentPlan(booked.iterator().next().getString("order_no"), null, null))
            : orders.find(conn, payment.orderNo(), false).compose(order -> PendingRefunds.read(conn, payment.platform(),
                    payment.tradeNo())
                .map(refunds -> new PaymentPlan(null, PaymentVerdict.judge(order, payment), refunds)))));
  }

  /**
   * An order recovery found unpaid past recovery.close_unpaid_after_minutes, and closed at its platform (or found
   * closed there): closed in the site's table too, as a closed trade's notification closes it; true when it moved.
   * It runs on the booking's pool, as that notification's close does, not on recovery's own: recovery's pool keeps
   * a slow platform off the bookings' connections, and the platform was asked before this; the close is one short
   * transaction. The conditional UPDATE (only from unpaid) decides a race with a payment's booking on either pool.
   *
   * @param orderNo        the site's order number
   * @param platformStatus what the platform said of the trade
   */
  public Future<Boolean> closeExpired(Platform platform, String orderNo, String platformStatus) {
    return close(new NotifyEvent(platform, EventKind.CLOSE, orderNo, null, 0, null, platformStatus));
  }

  /**
   * Unpaid -> closed, the site told order.closed, in one transaction (run again on a deadlock); true when it moved:
   * only an unpaid order does.
   */
  private Future<Boolean> close(NotifyEvent e) {
    return retry.run(() -> db.inTransaction(conn -> orders.close(conn, e.orderNo())
        .compose(closed -> closed ? outbox.orderClosed(conn, e).map(true) : Future.succeededFuture(false))));
  }
}
