package paynotify.booking;

import static paynotify.store.SqlQueries.INSERT_KEY;
import static paynotify.store.SqlQueries.INSERT_PAYMENT;
import static paynotify.store.SqlQueries.LOCK_ORDER;
import static paynotify.store.SqlQueries.MARK_ORDER_PAID;
import static paynotify.store.SqlQueries.SELECT_KEY_FINGERPRINT;
import static paynotify.store.SqlQueries.SELECT_PAYMENT;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import paynotify.booking.PaymentVerdict.OrderRow;
import paynotify.channel.NotifyEvent;
import paynotify.store.Anomalies;
import paynotify.store.Anomalies.Anomaly;
import paynotify.store.DbErrors;
import paynotify.store.NotifyLog;
import paynotify.store.NotifyLog.Trace;

/**
 * Books a payment exactly once, in ONE transaction:
 * <ol>
 *   <li>insert the idempotency key (1062: already booked, or a conflicting copy),
 *   <li>insert the payment (1062 on uk_trade_no: already booked after its key was purged),
 *   <li>move the order unpaid -> paid; 0 rows: judge the locked order (duplicate or anomaly),
 *   <li>write the anomaly, if any, and the notify_log row,
 * </ol>
 * then COMMIT. A repeat is detected by the unique keys, rolled back, and only then looked at.
 */
public final class PaymentBooking {
  private final Pool pool;
  private final TransientRetry retry;

  PaymentBooking(Pool pool, TransientRetry retry) {
    this.pool = pool;
    this.retry = retry;
  }

  /** Which unique key (or order check) said "seen before". */
  private enum Layer { KEY, TRADE, ORDER }

  /** Aborts the transaction (rollback) when a layer finds the event booked before. */
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
    return retry.run(() -> pool.<BookingResult>withTransaction(conn -> bookIn(conn, event, key, fingerprint, trace))
        .recover(err -> err instanceof SeenBefore seen
            ? settleRepeat(event, key, fingerprint, seen.layer, trace)
            : Future.failedFuture(err)));
  }

  private Future<BookingResult> bookIn(SqlConnection conn, NotifyEvent e, String key, String fingerprint,
      Trace trace) {
    return insert(conn, INSERT_KEY, Tuple.of(key, fingerprint), Layer.KEY)
        .compose(v -> insert(conn, INSERT_PAYMENT,
            Tuple.of(e.channel(), e.tradeNo(), e.orderNo(), e.amountCents(), e.paidAt()), Layer.TRADE))
        .compose(v -> conn.preparedQuery(MARK_ORDER_PAID)
            .execute(Tuple.of(e.paidAt(), e.channel(), e.tradeNo(), e.orderNo(), e.amountCents())))
        .compose(updated -> updated.rowCount() == 1
            ? Future.succeededFuture(new BookingResult(Outcome.PROCESSED, "order " + e.orderNo() + " unpaid -> paid"))
            : judgeOrder(conn, e, key))
        .compose(result -> NotifyLog.record(conn, trace, result.outcome().code(), key, result.detail()).map(result));
  }

  private static Future<RowSet<Row>> insert(SqlConnection conn, String sql, Tuple args, Layer layer) {
    return conn.preparedQuery(sql).execute(args)
        .recover(err -> Future.failedFuture(DbErrors.isDuplicateKey(err) ? new SeenBefore(layer) : err));
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

  /** After the rollback: the same event again (duplicate), or other content under its key (conflict). */
  private Future<BookingResult> settleRepeat(NotifyEvent e, String key, String fingerprint, Layer layer,
      Trace trace) {
    Future<String> conflict = switch (layer) {
      case KEY -> pool.preparedQuery(SELECT_KEY_FINGERPRINT).execute(Tuple.of(key)).map(rows -> {
        String booked = single(rows).getString(0);
        return booked.equals(fingerprint) ? null
            : "key " + key + " was booked with other business content (amount or order changed)";
      });
      case TRADE -> pool.preparedQuery(SELECT_PAYMENT).execute(Tuple.of(e.channel(), e.tradeNo())).map(rows -> {
        Row booked = single(rows);
        return booked.getString("order_no").equals(e.orderNo()) && booked.getLong("amount_cents") == e.amountCents()
            ? null
            : "trade " + e.tradeNo() + " was booked for order " + booked.getString("order_no") + ", "
                + booked.getLong("amount_cents") + " cents";
      });
      case ORDER -> Future.succeededFuture(null);
    };
    return conflict.compose(detail -> detail == null
        ? NotifyLog.record(pool, trace, Outcome.DUPLICATE.code(), key, "already booked (" + layer.name().toLowerCase()
            + ")").map(new BookingResult(Outcome.DUPLICATE, "already booked"))
        : recordConflict(e, key, fingerprint, detail, trace));
  }

  private Future<BookingResult> recordConflict(NotifyEvent e, String key, String fingerprint, String detail,
      Trace trace) {
    String kind = AnomalyKind.CONFLICT.code();
    Anomaly anomaly = new Anomaly(kind, e.channel(), e.orderNo(), e.tradeNo(), e.amountCents(), detail,
        kind + ":" + key + ":" + fingerprint.substring(0, 16));
    return pool.withTransaction(conn -> Anomalies.record(conn, anomaly)
        .compose(v -> NotifyLog.record(conn, trace, Outcome.CONFLICT.code(), key, detail)))
        .map(new BookingResult(Outcome.CONFLICT, detail));
  }

  /** The row that a 1062 proved to exist; gone only if purged in between, so simply book again. */
  private static Row single(RowSet<Row> rows) {
    if (rows.size() == 0) {
      throw new TransientRetry.RaceLost("booked row vanished (purged) between 1062 and the read");
    }
    return rows.iterator().next();
  }
}
