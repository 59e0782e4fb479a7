package paynotify.recovery;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.time.LocalDate;
import java.time.ZoneOffset;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.booking.Anomalies;
import paynotify.booking.Anomalies.Anomaly;
import paynotify.booking.AnomalyKind;
import paynotify.booking.BookingResult;
import paynotify.booking.EventBooking;
import paynotify.booking.Outcome;
import paynotify.booking.SiteEvents;
import paynotify.channel.EventKind;
import paynotify.channel.NotifyEvent;
import paynotify.gateway.TradeAnswer;
import paynotify.gateway.TradeQuery;
import paynotify.store.Database;
import paynotify.store.NotifyLog;
import paynotify.store.NotifyLog.Trace;

/**
 * A payment a platform's answer reported, booked exactly as its notification would be: the same event,
 * so the same idempotency key, unique keys and anomaly checks, in the same transaction. A notification
 * arriving later is a duplicate; one racing the query is decided by the keys. Its notify_log row says
 * where it came from: channel {@value #QUERY} (a platform's answer) or {@value #BILL} (a row of a day's bill
 * the platform served), the client's name as its remote address, what the platform said as its body. When
 * it was booked now (no notification had), callbacks are not reaching paynotify: a {@code callback_missing}
 * anomaly, once per platform and day.
 */
final class FoundPayment {
  /** notify_log.channel of a booking found by asking. */
  static final String QUERY = "query";
  /** notify_log.channel of a booking found in a fetched bill (reconcile.daily.auto_repair). */
  static final String BILL = "bill";
  private static final ZoneOffset BEIJING = ZoneOffset.ofHours(8);
  private static final Logger LOG = LoggerFactory.getLogger(FoundPayment.class);

  private final String logChannel;
  private final EventBooking booking;
  private final NotifyLog log;
  private final Database db;
  private final SiteEvents outbox;

  /** @param logChannel {@link #QUERY} or {@link #BILL} */
  FoundPayment(String logChannel, EventBooking booking, NotifyLog log, Database db, SiteEvents outbox) {
    this.logChannel = logChannel;
    this.booking = booking;
    this.log = log;
    this.db = db;
    this.outbox = outbox;
  }

  /**
   * Books {@code payment}, which {@code source} (a client's name) reported in {@code body}: succeeds once it is
   * committed (or found booked before); fails as a notification's booking does. {@code evidence}: booked now,
   * it shows callbacks are not arriving (false when its notification may simply not have come yet).
   */
  Future<BookingResult> book(String source, NotifyEvent payment, byte[] body, boolean evidence) {
    Trace trace = new Trace(logChannel, source, Buffer.buffer(body == null ? new byte[0] : body));
    return booking.book(payment).transform(booked -> {
      if (booked.failed()) {
        log.record(trace, Outcome.ERROR.code(), payment.idempotencyKey(), booked.cause().toString());
        return Future.failedFuture(booked.cause());
      }
      BookingResult result = booked.result();
      log.record(trace, result.outcome().code(), payment.idempotencyKey(), result.detail());
      boolean missed = evidence && payment.kind() == EventKind.PAYMENT
          && (result.outcome() == Outcome.PROCESSED || result.outcome() == Outcome.ANOMALY);
      if (!missed) {
        return Future.succeededFuture(result);
      }
      LOG.warn("{} order {}: paid at the platform, no notification came; found so and booked: {}", source,
          payment.orderNo(), result.detail());
      return callbackMissing(source, payment).map(result);
    });
  }

  /**
   * A payment an unsigned answer reported (epay's query): not booked, an anomaly for a human, once per trade.
   * Its notify_log row keeps the answer as received.
   */
  Future<Void> unsigned(TradeQuery query, TradeAnswer answer) {
    NotifyEvent payment = answer.payment();
    AnomalyKind kind = AnomalyKind.QUERY_SAYS_PAID;
    log.record(new Trace(logChannel, query.name(), Buffer.buffer(answer.body() == null ? new byte[0] : answer.body())),
        Outcome.ANOMALY.code(), payment.idempotencyKey(), kind.code());
    LOG.warn("{} says order {} is paid (trade {}), but its answer is not signed: not booked, an anomaly to check",
        query.name(), payment.orderNo(), payment.tradeNo());
    String detail = query.name() + " says order " + payment.orderNo() + " is paid (trade " + payment.tradeNo()
        + "), but its answers are not signed: not booked. " + kind.action();
    Anomaly anomaly = new Anomaly(kind.code(), payment.platform().code(), payment.orderNo(), payment.tradeNo(),
        payment.amountCents(), detail, kind.code() + ":" + payment.idempotencyKey());
    return db.inTransaction(conn -> Anomalies.record(conn, anomaly, true, outbox)).mapEmpty();
  }

  /** Booked is booked: an anomaly that cannot be written now is logged, and the next one will say it. */
  private Future<Void> callbackMissing(String source, NotifyEvent payment) {
    String kind = AnomalyKind.CALLBACK_MISSING.code();
    String platform = payment.platform().code();
    String detail = "order " + payment.orderNo() + " (trade " + payment.tradeNo() + ") was paid, but no " + platform
        + " notification for it reached paynotify: found by " + source + " and booked. "
        + AnomalyKind.CALLBACK_MISSING.action();
    Anomaly anomaly = new Anomaly(kind, platform, payment.orderNo(), payment.tradeNo(), payment.amountCents(), detail,
        kind + ":" + platform + ":" + LocalDate.now(BEIJING));
    return db.inTransaction(conn -> Anomalies.record(conn, anomaly, !payment.testMode(), outbox))
        .recover(err -> {
          LOG.warn("callback_missing for {} not recorded now: {}", platform, err.getMessage());
          return Future.succeededFuture();
        });
  }
}
