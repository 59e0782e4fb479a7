package paynotify.recovery;

import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Tuple;
import java.time.LocalDate;
import java.time.ZoneOffset;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.booking.BookingResult;
import paynotify.booking.EventBooking;
import paynotify.booking.Fingerprint;
import paynotify.booking.Outcome;
import paynotify.booking.SiteEvents;
import paynotify.booking.anomaly.Anomaly;
import paynotify.booking.anomaly.Anomalies;
import paynotify.booking.anomaly.AnomalyKind;
import paynotify.channel.EventKind;
import paynotify.channel.Money;
import paynotify.channel.NotifyEvent;
import paynotify.channel.TradeAnswer;
import paynotify.channel.TradeQuery;
import paynotify.store.Database;
import paynotify.store.NotifyLog.Trace;
import paynotify.store.NotifyLog;
import paynotify.store.OrderNumbers;
import paynotify.store.OrdersTable;
import paynotify.store.SqlQueries;

/**
 * A payment a platform's answer reported, booked exactly as its notification would be: the same event,
 * so the same idempotency key, unique keys and anomaly checks, in the same transaction. A notification
 * arriving later is a duplicate; one racing the query is decided by the keys. Its notify_log row says
 * where it came from: channel {@value #QUERY} (a platform's answer), {@value #BILL} (a row of a day's bill
 * the platform served) or {@value #REPAIR} (repair book), the client's name as its remote address, what the
 * platform said as its body. When it was booked now (no notification had), callbacks are not reaching
 * paynotify: a {@code callback_missing} anomaly, once per platform and day.
 *
 * <p>Every payment found passes here, and some are not booked but an anomaly for a human, once per trade: one
 * paid before its order was created ({@link PaidBeforeOrder}), one the platform says was refunded since, one an
 * unsigned answer reports. Each anomaly names the site's order, as a booking does, not the number the platform
 * was asked with (orders.out_trade_no).
 */
public final class FoundPayment {
  /** notify_log.channel of a booking found by asking. */
  static final String QUERY = "query";
  /** notify_log.channel of a booking found in a fetched bill (reconcile.daily.auto_repair). */
  public static final String BILL = "bill";
  /** notify_log.channel of a booking from a bill row by hand (repair book). */
  public static final String REPAIR = "repair";
  private static final ZoneOffset BEIJING = ZoneOffset.ofHours(8);
  private static final Logger LOG = LoggerFactory.getLogger(FoundPayment.class);

  private final String logChannel;
  private final EventBooking booking;
  private final NotifyLog log;
  private final Database db;
  private final SiteEvents outbox;
  private final OrderNumbers numbers;
  private final PaidBeforeOrder paidBefore;

  /**
   * @param logChannel {@link #QUERY}, {@link #BILL} or {@link #REPAIR}
   * @param createdAt  the site's column of an order's creation time; null when not mapped
   */
  public FoundPayment(String logChannel, EventBooking booking, NotifyLog log, Database db, SiteEvents outbox,
      OrdersTable orders, String createdAt) {
    this.logChannel = logChannel;
    this.booking = booking;
    this.log = log;
    this.db = db;
    this.outbox = outbox;
    this.numbers = orders.numbers();
    this.paidBefore = new PaidBeforeOrder(db, orders, createdAt);
  }

  /**
   * Books {@code payment}, which {@code source} (a client's name) reported in {@code body}: succeeds once it is
   * committed (or found booked before); fails as a notification's booking does. {@code evidence}: booked now,
   * it shows callbacks are not arriving (false when its notification may simply not have come yet). A payment
   * made before its order was created is not booked: {@link Outcome#IGNORED}, a {@code paid_before_order}
   * anomaly saying why.
   */
  public Future<BookingResult> book(String source, NotifyEvent payment, byte[] body, boolean evidence) {
    Trace trace = new Trace(logChannel, source, Buffer.buffer(body == null ? new byte[0] : body));
    return paidBefore.refusal(payment).compose(early -> early != null
        // no key taken: a clock or database.time_zone set wrong would make every genuine notification a duplicate
        ? notBooked(trace, payment, AnomalyKind.PAID_BEFORE_ORDER, early + ": not booked", false)
            .map(new BookingResult(Outcome.IGNORED, "not booked: " + early + " (a paid_before_order anomaly)"))
        : booking.book(payment).transform(booked -> booked(trace, source, payment, evidence, booked)));
  }

  /** Why {@link #book} would not book {@code payment} on its order (paid before it was created); null if it would. */
  public Future<String> paidBeforeItsOrder(NotifyEvent payment) {
    return paidBefore.refusal(payment);
  }

  private Future<BookingResult> booked(Trace trace, String source, NotifyEvent payment, boolean evidence,
      AsyncResult<BookingResult> booked) {
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
        site(payment).orderNo(), result.detail());
    return callbackMissing(source, payment).map(result);
  }

  /**
   * A payment an unsigned answer reported (epay's query): not booked, an anomaly for a human, once per trade.
   * Its notify_log row keeps the answer as received.
   */
  Future<Void> unsigned(TradeQuery query, TradeAnswer answer) {
    NotifyEvent payment = answer.payment();
    return notBooked(trace(query, answer), payment, AnomalyKind.QUERY_SAYS_PAID, query.name() + " says order "
        + site(payment).orderNo() + " is paid (trade " + payment.tradeNo() + "), but its answers are not signed: not"
        + " booked", false);
  }

  /**
   * A payment the platform says was refunded since (WeChat REFUND, Alipay TRADE_CLOSED after it was paid): not
   * booked, as the answer does not say how much went back; an anomaly for a human, once per trade. Its key is taken
   * with the anomaly: the payment's own notification, retried after the refund (WeChat for about 24 h, Alipay 25 h),
   * is then a duplicate, answered success and not booked.
   */
  public Future<Void> refunded(TradeQuery query, TradeAnswer answer) {
    NotifyEvent payment = answer.payment();
    return notBooked(trace(query, answer), payment, AnomalyKind.PAID_THEN_REFUNDED, query.name() + " says order "
        + site(payment).orderNo() + " was paid (trade " + payment.tradeNo() + ", " + Money.format(payment.amountCents())
        + "), then refunded (" + answer.platformStatus() + ")", true);
  }

  private Trace trace(TradeQuery query, TradeAnswer answer) {
    return new Trace(logChannel, query.name(), Buffer.buffer(answer.body() == null ? new byte[0] : answer.body()));
  }

  /**
   * {@code payment} not booked: its notify_log row (outcome anomaly), a WARN, and the anomaly, once per trade. With
   * {@code takeKey}, the anomaly's transaction takes the payment's idempotency key as its booking would (the same
   * key, and the fingerprint of the payment under the site's number, as {@link EventBooking} books it): its
   * notification is then a duplicate. A key there already (booked meanwhile, or taken before) is left as it is, and
   * the anomaly says so.
   */
  private Future<Void> notBooked(Trace trace, NotifyEvent payment, AnomalyKind kind, String why, boolean takeKey) {
    NotifyEvent site = site(payment);
    log.record(trace, Outcome.ANOMALY.code(), payment.idempotencyKey(), kind.code() + ": " + why);
    LOG.warn("{}; an anomaly ({}) to check", why, kind.code());
    return db.inTransaction(conn -> (takeKey ? conn.preparedQuery(SqlQueries.TAKE_KEY)
            .execute(Tuple.of(site.idempotencyKey(), Fingerprint.of(site))).map(taken -> taken.rowCount() == 1)
            : Future.succeededFuture(true))
        .compose(keyTaken -> outbox.recordAnomaly(conn, new Anomaly(kind.code(), payment.platform().code(),
            site.orderNo(), payment.tradeNo(), payment.amountCents(), why + (!takeKey ? ""
                : keyTaken ? ": not booked, nor will its notification be"
                : ": its notification booked it meanwhile (the site may have delivered it)") + ". " + kind.action(),
            kind.code() + ":" + payment.idempotencyKey()), !payment.testMode()))).mapEmpty();
  }

  /** {@code payment} under the site's order number; as the platform wrote it when that is not the site's. */
  private NotifyEvent site(NotifyEvent payment) {
    NotifyEvent site = numbers.toSite(payment);
    return site != null ? site : payment;
  }

  /** Booked is booked: an anomaly that cannot be written now is logged, and the next one will say it. */
  private Future<Void> callbackMissing(String source, NotifyEvent payment) {
    String kind = AnomalyKind.CALLBACK_MISSING.code();
    String platform = payment.platform().code();
    String orderNo = site(payment).orderNo();
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
