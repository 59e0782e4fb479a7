package paynotify.booking;

import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.function.Function;
import java.util.function.LongConsumer;
import java.util.stream.StreamSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.booking.anomaly.Anomaly;
import paynotify.booking.anomaly.AnomalyKind;
import paynotify.channel.EventKind;
import paynotify.channel.NotifyEvent;
import paynotify.channel.Platform;
import paynotify.channel.UnbookableNotification;
import paynotify.store.Database;
import paynotify.store.DbErrors;
import paynotify.store.NotifyLog.Trace;
import paynotify.store.NotifyLog;
import paynotify.store.SqlQueries;

/**
 * The one receipt of whatever arrives: an endpoint's notification, a platform's answer to a query, a row of its
 * bill, a Stripe event fetched, a repair. {@link #take} is the ONE place that decides what becomes of an arrival
 * once it was checked: verified, it is booked ({@link EventBooking}); genuine but not bookable, its anomaly is
 * recorded; anything else is refused, for its caller to answer. What was booked, recorded or held for a human
 * leaves its notify_log row with its outcome here and nowhere else; the row's channel says where it came from
 * (the endpoint, or how a payment was found: {@code query}, {@code bill}, {@code repair}). A payment booked now
 * where its notification should have come is evidence that callbacks are lost: a {@code callback_missing}
 * anomaly, once per platform and day. A payment of a channel whose key an aggregator also holds may be made to wait
 * for its platform's order query ({@link #take(Trace, Future, Function)}): booked once that confirms it.
 *
 * <p>Its callers keep the rest: http's NotifyFate the reply, count and log lines of a request; recovery's
 * FoundPayment what a payment found must pass before it is booked.
 */
public final class Receipt {
  private static final ZoneOffset BEIJING = ZoneOffset.ofHours(8);
  private static final Logger LOG = LoggerFactory.getLogger(Receipt.class);
  /** What a wait's detail keeps of why its payment is not confirmed: its fixed text and action are some 500 more. */
  static final int LONGEST_WHY = 300;

  /** What became of an arrival, as {@link #take} decided it. */
  public sealed interface Taken permits Booked, Recorded, Refused, Unconfirmed {}

  /** Verified, then booked (or found booked before), or not ({@code booked} failed); the booking took {@code nanos}. */
  public record Booked(NotifyEvent event, AsyncResult<BookingResult> booked, long nanos) implements Taken {}

  /** Genuine but not bookable: its anomaly committed, or not ({@code recorded} failed). */
  public record Recorded(UnbookableNotification why, AsyncResult<BookingResult> recorded) implements Taken {}

  /** Neither: nothing booked, no row written here; its caller answers it. */
  public record Refused(Throwable why) implements Taken {}

  /**
   * A verified payment its platform's query did not confirm ({@link #take(Trace, Future, Function)}): not booked, its
   * wait committed now as an {@code awaiting_confirmation} anomaly ({@code recorded} true), kept since an earlier
   * delivery (false), or not ({@code recorded} failed). Its caller answers failure either way, so that the platform
   * delivers it again.
   */
  public record Unconfirmed(NotifyEvent event, String why, AsyncResult<Boolean> recorded) implements Taken {
    /** Whether its wait was written now (false: kept since an earlier delivery, or not written at all). */
    public boolean recordedNow() {
      return recorded.succeeded() && recorded.result();
    }
  }

  /** The signed payment of a trade waiting for its platform's confirmation, as kept: the site's order, the amount. */
  public record Waiting(String orderNo, long amountCents) {
    /** Whether {@code payment} (of the same trade) is for the same order and amount. */
    public boolean sameAs(String siteOrderNo, NotifyEvent payment) {
      return orderNo.equals(siteOrderNo) && amountCents == payment.amountCents();
    }
  }

  private final EventBooking booking;
  private final NotifyLog log;
  private final Database db;
  private final SiteEvents outbox;
  private final Function<NotifyEvent, Future<String>> paidBefore;

  /**
   * @param log        where the rows are queued
   * @param db         where the anomalies of a payment held or found are committed, {@code outbox} telling them
   *                   (recovery's own pool for what recovery found)
   * @param paidBefore why a payment was made before its order was created (then not booked: a paid_before_order
   *                   anomaly), else null; null for an endpoint's notifications, which come as their orders are paid
   */
  public Receipt(EventBooking booking, NotifyLog log, Database db, SiteEvents outbox,
      Function<NotifyEvent, Future<String>> paidBefore) {
    this.booking = booking;
    this.log = log;
    this.db = db;
    this.outbox = outbox;
    this.paidBefore = paidBefore;
  }

  /**
   * What becomes of an arrival once {@code checked} said what it is. {@code evidence}: a payment booked now shows
   * that callbacks are not arriving (false where its notification may simply not have come yet, or is this).
   */
  public Future<Taken> take(Trace trace, Future<NotifyEvent> checked, boolean evidence) {
    return checked.transform(check -> {
      if (check.succeeded()) {
        long[] took = new long[1]; // the booking's own time: not its row's queueing, nor what follows it
        return book(trace, check.result(), evidence, nanos -> took[0] = nanos)
            .transform(booked -> Future.succeededFuture(new Booked(check.result(), booked, took[0])));
      }
      if (check.cause() instanceof UnbookableNotification unbookable) {
        return booking.recordUnbookable(unbookable, trace.body()).transform(recorded -> {
          traced(trace, null, recorded);
          return Future.succeededFuture(new Recorded(unbookable, recorded));
        });
      }
      return Future.succeededFuture(new Refused(check.cause()));
    });
  }

  /**
   * {@link #take}, for a channel whose payments are booked only once their platform's order query confirms them
   * (confirm_before_book: a key an aggregator also holds signs them). {@code confirm} says why a payment is not
   * confirmed, null when it is. Confirmed, it is booked as any, and a wait its trade left is resolved. Not confirmed,
   * it waits: an {@code awaiting_confirmation} anomaly once per trade, with the payment's trade, order and amount,
   * which the sweeper's question compares ({@link #waiting}); nothing booked, unless its trade is booked already:
   * then the booking tells the repeat from a conflict. Anything but a payment is taken as {@link #take} takes it, and
   * so is a payment naming another site's number (a not_our_number anomaly: nothing to confirm).
   */
  public Future<Taken> take(Trace trace, Future<NotifyEvent> checked, Function<NotifyEvent, Future<String>> confirm) {
    return checked.transform(check -> {
      if (check.failed() || check.result().kind() != EventKind.PAYMENT || !booking.namesTheSites(check.result())) {
        return take(trace, checked, false);
      }
      NotifyEvent payment = check.result();
      if (booking.seenBooked(payment)) { // a repeat: the booking finds it so, asking the platform first is no use
        return take(trace, checked, false);
      }
      return confirm.apply(payment)
          .compose(why -> why != null ? await(trace, payment, why) : confirmed(trace, payment));
    });
  }

  /** Booked as any (or found booked), then the wait its trade may have left resolved. */
  private Future<Taken> confirmed(Trace trace, NotifyEvent payment) {
    return take(trace, Future.succeededFuture(payment), false).compose(taken ->
        taken instanceof Booked b && b.booked().succeeded() && booksTheTrade(b.booked().result())
            ? resolveWait(payment).map(taken) : Future.succeededFuture(taken));
  }

  /**
   * Whether {@code result} leaves the trade booked (now, before, or its order's anomaly recorded with it): not a
   * payment made before its order (IGNORED), nor a conflict with what was booked, which leave the wait open.
   */
  private static boolean booksTheTrade(BookingResult result) {
    Outcome outcome = result.outcome();
    return outcome == Outcome.PROCESSED || outcome == Outcome.ANOMALY || outcome == Outcome.DUPLICATE;
  }

  /** Not confirmed: its wait kept, unless its trade is booked (a repeat: booked as any, which finds it so). */
  private Future<Taken> await(Trace trace, NotifyEvent payment, String why) {
    AnomalyKind kind = AnomalyKind.AWAITING_CONFIRMATION;
    Anomaly wait = new Anomaly(kind.code(), payment.platform().code(), booking.siteOrderNo(payment.orderNo()),
        payment.tradeNo(), payment.amountCents(), waitDetail(why), waitKey(payment));
    // retried as a booking is (a deadlock, or losing a snapshot to the booking of the trade: 1020); already kept
    // (1062): rolled back, nothing written now
    return booking.retried(() -> db.inTransaction(conn -> outbox.recordAnomalyUnlessBooked(conn, wait,
            !payment.testMode()).map(written -> written ? Waited.NOW : Waited.BOOKED)))
        .recover(err -> DbErrors.isDuplicateKey(err) ? Future.succeededFuture(Waited.BEFORE) : Future.failedFuture(err))
        .transform(waits -> {
          if (waits.succeeded() && waits.result() == Waited.BOOKED) {
            return confirmed(trace, payment);
          }
          log.record(trace, waits.succeeded() ? Outcome.ANOMALY.code() : Outcome.ERROR.code(), payment.idempotencyKey(),
              waits.succeeded() ? kind.code() + ": " + why : waits.cause().toString());
          return Future.succeededFuture(new Unconfirmed(payment, why, waits.map(w -> w == Waited.NOW)));
        });
  }

  /** What recording a wait found: written now, kept since an earlier delivery, or its trade booked (none written). */
  private enum Waited { NOW, BEFORE, BOOKED }

  /**
   * A wait's detail, {@code why} cut so that it fits anomalies.detail (VARCHAR(1000)) beside the fixed text: a
   * platform's error (a TLS message) is unbounded, and a detail too long is refused under STRICT modes.
   */
  static String waitDetail(String why) {
    return "a signed notification, not booked until its platform's order query confirms it (confirm_before_book): "
        + Anomaly.cut(why, LONGEST_WHY) + ". "
        + AnomalyKind.AWAITING_CONFIRMATION.action();
  }

  /** The signed payment of {@code payment}'s trade that waits for its platform's confirmation; null when none does. */
  public Future<Waiting> waiting(NotifyEvent payment) {
    return db.inTransaction(conn -> conn.preparedQuery(SqlQueries.WAITING_FOR_CONFIRMATION)
        .execute(Tuple.of(waitKey(payment))).map(rows -> {
          if (rows.size() == 0) {
            return null;
          }
          Row row = rows.iterator().next();
          return new Waiting(row.getString(0), row.getLong(1));
        }));
  }

  /**
   * The trades of {@code platform} whose signed payments for the site's order {@code orderNo} wait for its
   * confirmation, newest first, at most {@code limit}.
   */
  public Future<List<String>> waitingTrades(Platform platform, String orderNo, int limit) {
    return db.inTransaction(conn -> conn.preparedQuery(SqlQueries.TRADES_WAITING_FOR_CONFIRMATION)
        .execute(Tuple.of(AnomalyKind.AWAITING_CONFIRMATION.code(), platform.code(), orderNo, limit))
        .map(rows -> StreamSupport.stream(rows.spliterator(), false).map(r -> r.getString(0)).toList()));
  }

  /**
   * Books a payment its platform's answer confirmed after its signed notification waited ({@link #waiting}), as that
   * notification would have been booked (the same event, keys and transaction), the wait then resolved: left open
   * where that booked nothing (paid before its order was created, a conflict with what its trade booked).
   */
  public Future<BookingResult> bookWaited(Trace trace, NotifyEvent payment) {
    return book(trace, payment, false).compose(result -> booksTheTrade(result) ? resolveWait(payment).map(result)
        : Future.succeededFuture(result));
  }

  /** The wait of a trade now booked, resolved. Booked is booked: a failure here leaves it open, and logged. */
  private Future<Void> resolveWait(NotifyEvent payment) {
    return db.inTransaction(conn -> conn.preparedQuery(SqlQueries.RESOLVE_ANOMALY_OF_KEY)
            .execute(Tuple.of("confirmed by its platform's order query, and booked", waitKey(payment))))
        .<Void>mapEmpty().recover(err -> {
          LOG.warn("awaiting_confirmation of {} left open: {}", payment.idempotencyKey(), err.getMessage());
          return Future.succeededFuture();
        });
  }

  /**
   * A trade's wait, once per trade: its payment's key names it, marked for one paid in another currency than the
   * site's. A platform's answer names no currency (TokenPay's): it finds the wait of a payment in the site's currency
   * only ({@link #waiting}), so that a sweeper's confirmation never books a foreign amount as the site's; that one is
   * booked by its own notification once confirmed (a currency_mismatch), or by a human.
   */
  private static String waitKey(NotifyEvent payment) {
    return AnomalyKind.AWAITING_CONFIRMATION.code() + ":" + payment.idempotencyKey()
        + (payment.foreignCurrency() == null ? "" : "@foreign");
  }

  /**
   * Books {@code event}, which arrived as {@code trace} says: succeeds once it is committed (or found booked
   * before), fails as the booking does. A payment made before its order was created is not booked:
   * {@link Outcome#IGNORED}, a {@code paid_before_order} anomaly saying why.
   */
  public Future<BookingResult> book(Trace trace, NotifyEvent event, boolean evidence) {
    return book(trace, event, evidence, nanos -> {});
  }

  /** {@link #book}, telling {@code took} how long {@link EventBooking#book} took when it was asked. */
  private Future<BookingResult> book(Trace trace, NotifyEvent event, boolean evidence, LongConsumer took) {
    if (paidBefore == null) {
      return booked(trace, event, evidence, took);
    }
    return paidBefore.apply(event).compose(early -> early == null ? booked(trace, event, evidence, took)
        // no key taken: a clock or database.time_zone set wrong would make every genuine notification a duplicate
        : hold(trace, event, AnomalyKind.PAID_BEFORE_ORDER, early + ": not booked", false)
            .map(new BookingResult(Outcome.IGNORED, "not booked: " + early + " (a paid_before_order anomaly)")));
  }

  private Future<BookingResult> booked(Trace trace, NotifyEvent event, boolean evidence, LongConsumer took) {
    long start = System.nanoTime();
    return booking.book(event).transform(booked -> {
      took.accept(System.nanoTime() - start);
      traced(trace, event.idempotencyKey(), booked);
      if (booked.failed()) {
        return Future.failedFuture(booked.cause());
      }
      BookingResult result = booked.result();
      boolean missed = evidence && event.kind() == EventKind.PAYMENT
          && (result.outcome() == Outcome.PROCESSED || result.outcome() == Outcome.ANOMALY);
      if (!missed) {
        return Future.succeededFuture(result);
      }
      LOG.warn("{} order {}: paid at the platform, no notification came; found so and booked: {}",
          trace.remoteAddress(), booking.siteOrderNo(event.orderNo()), result.detail());
      return callbackMissing(trace.remoteAddress(), event).map(result);
    });
  }

  /**
   * The arrival's one row: its outcome; an error when it is not known committed, but for a repeat the duplicate
   * pre-check could not confirm, whose first delivery left the row.
   */
  private void traced(Trace trace, String key, AsyncResult<BookingResult> kept) {
    if (kept.succeeded()) {
      log.record(trace, kept.result().outcome().code(), key, kept.result().detail());
    } else if (!(kept.cause() instanceof RepeatNotChecked)) {
      log.record(trace, Outcome.ERROR.code(), key, kept.cause().toString());
    }
  }

  /**
   * A payment found that is not booked but held for a human: its row (outcome anomaly), a WARN, and the anomaly,
   * once per trade. With {@code takeKey}, the anomaly's transaction takes the payment's idempotency key as its
   * booking would (the same key, and the fingerprint of the payment under the site's number, as
   * {@link EventBooking} books it): its notification is then a duplicate. A key there already (booked meanwhile,
   * or taken before) is left as it is, and the anomaly says so.
   */
  public Future<Void> hold(Trace trace, NotifyEvent payment, AnomalyKind kind, String why, boolean takeKey) {
    NotifyEvent site = booking.site(payment);
    String fingerprint = Fingerprint.of(site);
    log.record(trace, Outcome.ANOMALY.code(), payment.idempotencyKey(), kind.code() + ": " + why);
    LOG.warn("{}; an anomaly ({}) to check", why, kind.code());
    return db.inTransaction(conn -> (takeKey ? conn.preparedQuery(SqlQueries.TAKE_KEY)
            .execute(Tuple.of(site.idempotencyKey(), fingerprint, fingerprint))
            .map(taken -> taken.rowCount() > 0) // inserted, or taken from the refunds that held it
            : Future.succeededFuture(true))
        .compose(keyTaken -> outbox.recordAnomaly(conn, new Anomaly(kind.code(), payment.platform().code(),
            site.orderNo(), payment.tradeNo(), payment.amountCents(), why + (!takeKey ? ""
                : keyTaken ? ": not booked, nor will its notification be"
                : ": its notification booked it meanwhile (the site may have delivered it)") + ". " + kind.action(),
            kind.code() + ":" + payment.idempotencyKey()), !payment.testMode()))).mapEmpty();
  }

  /** Booked is booked: an anomaly that cannot be written now is logged, and the next one will say it. */
  private Future<Void> callbackMissing(String source, NotifyEvent payment) {
    String kind = AnomalyKind.CALLBACK_MISSING.code();
    String platform = payment.platform().code();
    String orderNo = booking.siteOrderNo(payment.orderNo());
    String detail = "order " + orderNo + " (trade " + payment.tradeNo() + ") was paid, but no " + platform
        + " notification for it reached paynotify: found by " + source + " and booked. "
        + AnomalyKind.CALLBACK_MISSING.action();
    Anomaly anomaly = new Anomaly(kind, platform, orderNo, payment.tradeNo(), payment.amountCents(), detail,
        kind + ":" + platform + ":" + LocalDate.now(BEIJING));
    return db.inTransaction(conn -> outbox.recordAnomaly(conn, anomaly, !payment.testMode()))
        .recover(err -> {
          LOG.warn("callback_missing for {} not recorded now: {}", platform, err.getMessage());
          return Future.succeededFuture();
        });
  }
}
