package paynotify.booking;

import static paynotify.store.SqlQueries.INSERT_KEY;
import static paynotify.store.SqlQueries.SELECT_KEY_FINGERPRINT;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.util.Locale;
import paynotify.channel.NotifyEvent;
import paynotify.store.Anomalies.Anomaly;
import paynotify.store.Database;
import paynotify.store.DbErrors;
import paynotify.store.NotifyLog;
import paynotify.store.NotifyLog.Trace;

/**
 * The ONE transaction every payment and refund is booked in:
 * <ol>
 *   <li>a committed key with the same fingerprint is proof of a committed booking: duplicate
 *       (another fingerprint: conflict). This read only answers repeats cheaply; it decides no race,
 *   <li>insert the idempotency key and, sent with it without waiting, the event's own writes
 *       ({@link Writes}). Unique keys decide races: a concurrent copy waits on the key row and
 *       gets 1062 once the first commits; the second-layer keys (uk_trade_no, uk_refund_no) do the
 *       same after the key was purged,
 *   <li>the notify_log row, then COMMIT ({@link Database#inTransaction}); any failure: ROLLBACK.
 * </ol>
 * A repeat found by a unique key is rolled back, and only then looked at.
 */
final class BookingTransaction {
  /** What one kind of event writes, and how a repeat of it is told from a conflict. */
  interface Writes {
    /**
     * Sends the event's statements; they reach the database right after the key insert. A
     * second-layer unique key that fires fails the future with {@link SeenBefore}.
     */
    Future<BookingResult> apply(SqlConnection conn, NotifyEvent e, String key);

    /** For a repeat that the second layer found: what differs from what was booked, or null. */
    Future<String> difference(SqlConnection conn, NotifyEvent e);
  }

  /** Aborts the transaction (rollback) when a layer finds the event booked by someone else. */
  static final class SeenBefore extends RuntimeException {
    final Layer layer;

    SeenBefore(Layer layer) {
      super(layer.name(), null, false, false);
      this.layer = layer;
    }
  }

  private final Database db;
  private final TransientRetry retry;
  private final ForwardOutbox outbox;

  BookingTransaction(Database db, TransientRetry retry, ForwardOutbox outbox) {
    this.db = db;
    this.retry = retry;
    this.outbox = outbox;
  }

  Future<BookingResult> book(NotifyEvent event, Trace trace, Writes writes) {
    String key = event.idempotencyKey();
    String fingerprint = Fingerprint.of(event);
    return retry.run(() -> db.inTransaction(conn -> attempt(conn, event, key, fingerprint, trace, writes))
        .recover(err -> err instanceof SeenBefore seen
            ? db.inTransaction(conn -> repeat(conn, event, key, fingerprint, seen.layer, trace, writes))
            : Future.failedFuture(err)));
  }

  /** An insert whose duplicate-key error means "booked before, found by {@code layer}". */
  static Future<RowSet<Row>> insert(SqlConnection conn, String sql, Tuple args, Layer layer) {
    return conn.preparedQuery(sql).execute(args)
        .recover(err -> Future.failedFuture(DbErrors.isDuplicateKey(err) ? new SeenBefore(layer) : err));
  }

  private Future<BookingResult> attempt(SqlConnection conn, NotifyEvent e, String key, String fingerprint,
      Trace trace, Writes writes) {
    Future<RowSet<Row>> precheck = conn.preparedQuery(SELECT_KEY_FINGERPRINT).execute(Tuple.of(key));
    // Sent with it, unawaited: ends the read view that plain SELECT opened. The writes' locking reads
    // must see rows committed since, and with innodb_snapshot_isolation (MariaDB 11.6+) a read view
    // older than such a row makes them fail with 1020 instead: a retry storm under concurrent copies.
    Future<RowSet<Row>> endReadView = conn.query("COMMIT").execute();
    return Future.all(precheck, endReadView).compose(done -> precheck).compose(booked -> {
      if (booked.size() > 0) {
        return settle(conn, e, key, fingerprint, Layer.KEY, sameOrConflict(booked.iterator().next().getString(0),
            fingerprint, key), trace);
      }
      Future<RowSet<Row>> keyRow = insert(conn, INSERT_KEY, Tuple.of(key, fingerprint), Layer.KEY);
      Future<BookingResult> written = writes.apply(conn, e, key);
      return Future.join(keyRow, written)
          .transform(all -> keyRow.failed() ? Future.<BookingResult>failedFuture(keyRow.cause()) : written)
          .compose(result -> NotifyLog.record(conn, trace, result.outcome().code(), key, result.detail()).map(result));
    });
  }

  /** After the rollback of an attempt that found the event booked by another transaction. */
  private Future<BookingResult> repeat(SqlConnection conn, NotifyEvent e, String key, String fingerprint,
      Layer layer, Trace trace, Writes writes) {
    Future<String> difference = layer == Layer.KEY
        ? conn.preparedQuery(SELECT_KEY_FINGERPRINT).execute(Tuple.of(key))
            .map(rows -> sameOrConflict(Rows.single(rows).getString(0), fingerprint, key))
        : writes.difference(conn, e);
    return difference.compose(conflict -> settle(conn, e, key, fingerprint, layer, conflict, trace));
  }

  private static String sameOrConflict(String bookedFingerprint, String fingerprint, String key) {
    return bookedFingerprint.equals(fingerprint) ? null
        : "key " + key + " was booked with other business content (amount, order or trade changed)";
  }

  /** Records a repeat in the current transaction: a duplicate, or a conflict (anomaly, booked nothing). */
  private Future<BookingResult> settle(SqlConnection conn, NotifyEvent e, String key, String fingerprint,
      Layer layer, String conflict, Trace trace) {
    if (conflict == null) {
      String detail = "already booked (found by " + layer.name().toLowerCase(Locale.ROOT) + ")";
      return NotifyLog.record(conn, trace, Outcome.DUPLICATE.code(), key, detail)
          .map(new BookingResult(Outcome.DUPLICATE, detail));
    }
    String kind = AnomalyKind.CONFLICT.code();
    Anomaly anomaly = new Anomaly(kind, e.channel(), e.orderNo(), e.tradeNo(), e.amountCents(), conflict,
        kind + ":" + key + ":" + fingerprint.substring(0, 16));
    return outbox.recordAnomaly(conn, anomaly)
        .compose(v -> NotifyLog.record(conn, trace, Outcome.CONFLICT.code(), key, conflict))
        .map(new BookingResult(Outcome.CONFLICT, conflict));
  }
}
