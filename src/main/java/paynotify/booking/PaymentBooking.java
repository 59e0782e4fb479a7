package paynotify.booking;

import static paynotify.store.SqlQueries.INSERT_KEY;
import static paynotify.store.SqlQueries.INSERT_PAYMENT;
import static paynotify.store.SqlQueries.LOCK_ORDER;
import static paynotify.store.SqlQueries.MARK_ORDER_PAID;
import static paynotify.store.SqlQueries.SELECT_KEY_FINGERPRINT;
import static paynotify.store.SqlQueries.SELECT_PAYMENT;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import paynotify.booking.PaymentVerdict.OrderRow;
import paynotify.channel.NotifyEvent;
import paynotify.store.Anomalies;
import paynotify.store.Anomalies.Anomaly;
import paynotify.store.Database;
import paynotify.store.DbErrors;
import paynotify.store.NotifyLog;
import paynotify.store.NotifyLog.Trace;

/**
 * Books a payment exactly once, in ONE transaction:
 * <ol>
 *   <li>a committed key with the same fingerprint is proof of a committed booking: duplicate
 *       (a different fingerprint: conflict). This read only answers repeats cheaply; it decides
 *       no race,
 *   <li>insert the key, insert the payment, move the order unpaid -> paid, sent together. The
 *       unique keys decide races: a concurrent copy waits on the key row and gets 1062 once the
 *       first commits (uk_trade_no does the same after the key was purged),
 *   <li>0 rows on the order: judge the locked order (duplicate, or an anomaly booked with the
 *       payment because the money is real),
 *   <li>the notify_log row, then COMMIT ({@link Database#inTransaction}); any failure: ROLLBACK.
 * </ol>
 */
public final class PaymentBooking {
  private final Database db;
  private final TransientRetry retry;

  PaymentBooking(Database db, TransientRetry retry) {
    this.db = db;
    this.retry = retry;
  }

  /** Which unique key (or order check) said "seen before". */
  private enum Layer { KEY, TRADE, ORDER }

  /** Aborts the transaction (rollback) when a layer finds the event booked by someone else. */
  private static final class SeenBefore extends RuntimeException {
    final Layer layer;

    SeenBefore(Layer layer) {
      super(layer.name(), null, false, false);
      this.layer = layer;
    }
  }

  public Future<BookingResult> book(NotifyEvent event, Trace trace) {
    String key = event.idempotencyKey();
    String fingerprint = Fingerprint.of(event);
    return retry.run(() -> db.inTransaction(conn -> bookIn(conn, event, key, fingerprint, trace))
        .recover(err -> err instanceof SeenBefore seen
            ? db.inTransaction(conn -> settleRepeat(conn, event, key, fingerprint, seen.layer, trace))
            : Future.failedFuture(err)));
  }

  private Future<BookingResult> bookIn(SqlConnection conn, NotifyEvent e, String key, String fingerprint,
      Trace trace) {
    return conn.preparedQuery(SELECT_KEY_FINGERPRINT).execute(Tuple.of(key)).compose(booked -> {
      if (booked.size() > 0) {
        return settle(conn, e, key, fingerprint, Layer.KEY,
            sameOrConflict(booked.iterator().next().getString(0), fingerprint, key), trace);
      }
      // Pipelined: one flight; each reply still comes back (and is judged) on its own.
      Future<RowSet<Row>> keyRow = conn.preparedQuery(INSERT_KEY).execute(Tuple.of(key, fingerprint));
      Future<RowSet<Row>> paymentRow = conn.preparedQuery(INSERT_PAYMENT)
          .execute(Tuple.of(e.channel(), e.tradeNo(), e.orderNo(), e.amountCents(), e.paidAt()));
      Future<RowSet<Row>> order = conn.preparedQuery(MARK_ORDER_PAID)
          .execute(Tuple.of(e.paidAt(), e.channel(), e.tradeNo(), e.orderNo(), e.amountCents()));
      return Future.join(keyRow, paymentRow, order)
          .transform(all -> firstFailure(keyRow, paymentRow, order))
          .compose(v -> order.result().rowCount() == 1
              ? Future.succeededFuture(new BookingResult(Outcome.PROCESSED, "order " + e.orderNo() + " unpaid -> paid"))
              : judgeOrder(conn, e, key))
          .compose(result -> NotifyLog.record(conn, trace, result.outcome().code(), key, result.detail()).map(result));
    });
  }

  /** The failure that decides, in statement order: a 1062 on a unique key means "booked before". */
  private static Future<Void> firstFailure(Future<?> key, Future<?> payment, Future<?> order) {
    if (key.failed()) {
      return seenBeforeOr(key.cause(), Layer.KEY);
    }
    if (payment.failed()) {
      return seenBeforeOr(payment.cause(), Layer.TRADE);
    }
    return order.failed() ? Future.failedFuture(order.cause()) : Future.succeededFuture();
  }

  private static Future<Void> seenBeforeOr(Throwable err, Layer layer) {
    return Future.failedFuture(DbErrors.isDuplicateKey(err) ? new SeenBefore(layer) : err);
  }

  /** The order did not move: an anomaly, booked with the payment (the money is real), or a duplicate. */
  private static Future<BookingResult> judgeOrder(SqlConnection conn, NotifyEvent e, String key) {
    return conn.preparedQuery(LOCK_ORDER).execute(Tuple.of(e.orderNo())).compose(rows -> {
      OrderRow order = null;
      for (Row r : rows) {
        order = new OrderRow(r.getString("status"), r.getLong("amount_cents"), r.getString("channel"),
            r.getString("trade_no"));
      }
      PaymentVerdict verdict = PaymentVerdict.judge(order, e);
      if (verdict.isDuplicate()) {
        return Future.failedFuture(new SeenBefore(Layer.ORDER));
      }
      String kind = verdict.anomaly().code();
      Anomaly anomaly = new Anomaly(kind, e.channel(), e.orderNo(), e.tradeNo(), e.amountCents(),
          verdict.detail(), kind + ":" + key);
      return Anomalies.record(conn, anomaly)
          .map(new BookingResult(Outcome.ANOMALY, kind + ": " + verdict.detail()));
    });
  }

  /** After the rollback of an attempt that found the event booked by another transaction. */
  private static Future<BookingResult> settleRepeat(SqlConnection conn, NotifyEvent e, String key, String fingerprint,
      Layer layer, Trace trace) {
    Future<String> conflict = switch (layer) {
      case KEY -> conn.preparedQuery(SELECT_KEY_FINGERPRINT).execute(Tuple.of(key))
          .map(rows -> sameOrConflict(single(rows).getString(0), fingerprint, key));
      case TRADE -> conn.preparedQuery(SELECT_PAYMENT).execute(Tuple.of(e.channel(), e.tradeNo())).map(rows -> {
        Row booked = single(rows);
        return booked.getString("order_no").equals(e.orderNo()) && booked.getLong("amount_cents") == e.amountCents()
            ? null
            : "trade " + e.tradeNo() + " was booked for order " + booked.getString("order_no") + ", "
                + booked.getLong("amount_cents") + " cents";
      });
      case ORDER -> Future.succeededFuture(null);
    };
    return conflict.compose(detail -> settle(conn, e, key, fingerprint, layer, detail, trace));
  }

  /** null when the booked content is this event's, else what differs. */
  private static String sameOrConflict(String bookedFingerprint, String fingerprint, String key) {
    return bookedFingerprint.equals(fingerprint) ? null
        : "key " + key + " was booked with other business content (amount or order changed)";
  }

  /** Records a repeat in the current transaction: a duplicate, or a conflict (anomaly, booked nothing). */
  private static Future<BookingResult> settle(SqlConnection conn, NotifyEvent e, String key, String fingerprint,
      Layer layer, String conflict, Trace trace) {
    if (conflict == null) {
      String detail = "already booked (found by " + layer.name().toLowerCase(java.util.Locale.ROOT) + ")";
      return NotifyLog.record(conn, trace, Outcome.DUPLICATE.code(), key, detail)
          .map(new BookingResult(Outcome.DUPLICATE, detail));
    }
    String kind = AnomalyKind.CONFLICT.code();
    Anomaly anomaly = new Anomaly(kind, e.channel(), e.orderNo(), e.tradeNo(), e.amountCents(), conflict,
        kind + ":" + key + ":" + fingerprint.substring(0, 16));
    return Anomalies.record(conn, anomaly)
        .compose(v -> NotifyLog.record(conn, trace, Outcome.CONFLICT.code(), key, conflict))
        .map(new BookingResult(Outcome.CONFLICT, conflict));
  }

  /** The row that a 1062 proved to exist; gone only if purged in between, so simply book again. */
  private static Row single(RowSet<Row> rows) {
    if (rows.size() == 0) {
      throw new TransientRetry.RaceLost("booked row vanished (purged) between 1062 and the read");
    }
    return rows.iterator().next();
  }
}
