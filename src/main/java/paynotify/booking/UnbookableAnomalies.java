package paynotify.booking;

import static paynotify.store.SqlQueries.RECORD_PAYMENT_WITHOUT_ORDER;
import static paynotify.store.SqlQueries.RESOLVE_WITHOUT_ORDER;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Tuple;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.Set;
import paynotify.booking.anomaly.Anomaly;
import paynotify.booking.anomaly.Anomalies;
import paynotify.booking.anomaly.AnomalyKind;
import paynotify.channel.EventKind;
import paynotify.channel.NotifyEvent;
import paynotify.channel.Platform;
import paynotify.channel.UnbookableNotification.Problem;
import paynotify.channel.UnbookableNotification;
import paynotify.store.Database;
import paynotify.store.DbErrors;
import paynotify.store.TransientRetry;

/**
 * A genuine notification booking cannot follow ({@link UnbookableNotification}) becomes an anomaly that
 * says what a human should do, committed before the platform is answered: the anomaly is the durable
 * record. A redelivery finds it recorded (its dedupe key names what happened) and adds nothing.
 */
final class UnbookableAnomalies {
  /**
   * Payments that name no order but whose trade another delivery may book: recorded only while it is not booked, nor
   * held for a human under its payment's key (paid_then_refunded).
   */
  private static final Set<Problem> UNLESS_BOOKED = EnumSet.of(Problem.INTENT_WITHOUT_ORDER,
      Problem.LISTED_WITHOUT_ORDER);

  private final Database db;
  private final TransientRetry retry;
  private final SiteEvents outbox;

  UnbookableAnomalies(Database db, TransientRetry retry, SiteEvents outbox) {
    this.db = db;
    this.retry = retry;
    this.outbox = outbox;
  }

  /**
   * @param orderNo the order it names, under the site's number where it is written with orders.out_trade_no
   * @param body    what the platform sent, which names it when it carries no platform id
   */
  Future<BookingResult> record(UnbookableNotification u, String orderNo, Buffer body) {
    AnomalyKind kind = kind(u.problem());
    // Without a platform id, the body names it: a platform's retry sends the same bytes.
    String reference = u.reference() != null ? u.reference()
        : "body:" + Fingerprint.sha256Hex(body.toString(StandardCharsets.ISO_8859_1)).substring(0, 32);
    String detail = Anomaly.cut(u.getMessage(), Anomaly.DETAIL_LENGTH);
    Anomaly a = new Anomaly(kind.code(), u.platform().code(), orderNo, u.tradeNo(), u.amountCents(), detail,
        dedupeKey(kind, u.platform(), reference));
    BookingResult recorded = new BookingResult(Outcome.ANOMALY, kind.code() + ": " + detail);
    if (!UNLESS_BOOKED.contains(u.problem())) {
      // an unbookable notification carries no test-money mark: told as live
      return retry.run(() -> db.inTransaction(conn -> outbox.recordAnomaly(conn, a, true))).map(recorded);
    }
    return retry.run(() -> db.inTransaction(conn -> conn.preparedQuery(RECORD_PAYMENT_WITHOUT_ORDER)
            .execute(Tuple.of(a.kind(), a.channel(), a.tradeNo(), a.amountCents(), a.detail(), a.dedupeKey(),
                NotifyEvent.key(u.platform(), EventKind.PAYMENT, u.tradeNo()), a.channel(), a.tradeNo()))
            .map(rows -> rows.rowCount() > 0 ? recorded : new BookingResult(Outcome.IGNORED, detail + ": trade "
                + u.tradeNo() + " is booked (by a notification naming its order), or held for a human"))))
        .recover(err -> DbErrors.isDuplicateKey(err) ? Future.succeededFuture(recorded) // recorded before
            : Future.failedFuture(err));
  }

  /**
   * After {@code payment} was booked: the payment_without_order its PaymentIntent left while it waited for
   * its Session is resolved now, not only at the next periodic check, and so is a booking_failed that recovery
   * left for the trade (told "check the order first": now it is booked). Booked is booked: a failure here only
   * leaves it to that check.
   */
  Future<BookingResult> resolveWaiting(NotifyEvent payment, BookingResult booked) {
    if (payment.platform() != Platform.STRIPE || booked.outcome() == Outcome.DUPLICATE) {
      return Future.succeededFuture(booked);
    }
    String waiting = dedupeKey(AnomalyKind.PAYMENT_WITHOUT_ORDER, payment.platform(), payment.tradeNo());
    String givenUp = dedupeKey(AnomalyKind.BOOKING_FAILED, payment.platform(), payment.tradeNo());
    return db.inTransaction(conn -> conn.preparedQuery(RESOLVE_WITHOUT_ORDER).execute(Tuple.of(waiting, givenUp)))
        .map(booked).otherwise(booked);
  }

  /** Names what happened, so that a redelivery records nothing more (a PaymentIntent's: its trade). */
  private static String dedupeKey(AnomalyKind kind, Platform platform, String reference) {
    return kind.code() + ":" + platform.code() + ":" + reference;
  }

  private static AnomalyKind kind(Problem problem) {
    return switch (problem) {
      case UNREADABLE -> AnomalyKind.UNREADABLE_NOTIFICATION;
      case PAYMENT_WITHOUT_ORDER, INTENT_WITHOUT_ORDER, LISTED_WITHOUT_ORDER -> AnomalyKind.PAYMENT_WITHOUT_ORDER;
      case UNBOOKED_PAYMENT -> AnomalyKind.UNBOOKED_PAYMENT;
      case PRICE_SHIFT -> AnomalyKind.PRICE_SHIFT;
      case AMBIGUOUS_PAYMENT -> AnomalyKind.AMBIGUOUS_PAYMENT;
      case UNKNOWN_ORDER -> AnomalyKind.UNKNOWN_ORDER;
      case CHARGEBACK_REVERSED -> AnomalyKind.CHARGEBACK_REVERSED;
      case DISPUTE -> AnomalyKind.DISPUTE;
      case REFUND_FAILED -> AnomalyKind.REFUND_FAILED;
      case BOOKING_FAILED -> AnomalyKind.BOOKING_FAILED;
      case UNBOOKED_REFUND -> AnomalyKind.UNBOOKED_REFUND;
      case NOT_OUR_NUMBER -> AnomalyKind.NOT_OUR_NUMBER;
    };
  }
}
