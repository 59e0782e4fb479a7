package paynotify.booking;

import static paynotify.store.SqlQueries.INSERT_KEY;
import static paynotify.store.SqlQueries.SELECT_KEY_FINGERPRINT;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.util.Locale;
import paynotify.booking.anomaly.Anomaly;
import paynotify.booking.anomaly.Anomalies;
import paynotify.booking.anomaly.AnomalyKind;
import paynotify.channel.NotifyEvent;
import paynotify.store.CommittedReads;
import paynotify.store.Database;
import paynotify.store.DbErrors;
import paynotify.store.TransientRetry;

/**
 * The ONE transaction every payment and refund is booked in, and the read before it:
 * <ol>
 *   <li>a committed key with the same fingerprint is proof of a committed booking, or of a payment
 *       found refunded at the platform that must not be booked (recovery's paid_then_refunded):
 *       duplicate (another fingerprint: conflict). This read ({@link CommittedReads}, outside the
 *       transaction) only answers repeats cheaply; it decides no race. When it cannot answer, a key
 *       this process saw committed ({@link BookedKeys}) is answered 503 ({@link RepeatNotChecked}),
 *       any other goes on,
 *   <li>insert the idempotency key and, sent with it without waiting, the event's own writes
 *       ({@link Writes}). Unique keys decide races: a concurrent copy waits on the key row and
 *       gets 1062 once the first commits; the second-layer keys (uk_trade_no, uk_refund_no) do the
 *       same after the key was purged,
 *   <li>COMMIT ({@link Database#inTransaction}); any failure: ROLLBACK.
 * </ol>
 * A repeat found by a unique key is rolled back, and only then looked at. The transaction opens
 * no read view before its locking statements: with innodb_snapshot_isolation (MariaDB 11.6+) a
 * view older than a row they lock makes them fail with 1020, a retry per copy in a storm.
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
  private final CommittedReads reads;
  private final TransientRetry retry;
  private final SiteEvents outbox;
  private final BookedKeys bookedKeys = new BookedKeys();

  BookingTransaction(Database db, CommittedReads reads, TransientRetry retry, SiteEvents outbox) {
    this.db = db;
    this.reads = reads;
    this.retry = retry;
    this.outbox = outbox;
  }

  Future<BookingResult> book(NotifyEvent event, Writes writes) {
    String key = event.idempotencyKey();
    String fingerprint = Fingerprint.of(event);
    Future<String> booked = reads.execute(SELECT_KEY_FINGERPRINT, Tuple.of(key))
        .map(rows -> rows.size() > 0 ? rows.iterator().next().getString(0) : null);
    return booked.transform(pre -> {
      if (pre.failed()) {
        // The pre-check cannot answer (its pool's queue full, a timeout, the database gone). A key seen
        // committed is a repeat: 503 now, not a booking connection (a replay flood of a genuine message
        // would take them all). Any other may be a first delivery: the transaction decides.
        return bookedKeys.contains(key) ? Future.failedFuture(new RepeatNotChecked(key, pre.cause()))
            : transact(event, key, fingerprint, writes);
      }
      return pre.result() != null
          ? settle(event, key, fingerprint, Layer.KEY, sameOrConflict(pre.result(), fingerprint, key))
          : transact(event, key, fingerprint, writes);
    }).onSuccess(result -> bookedKeys.add(key)); // committed now, or found committed before
  }

  private Future<BookingResult> transact(NotifyEvent event, String key, String fingerprint, Writes writes) {
    return retry.run(() -> db.inTransaction(conn -> attempt(conn, event, key, fingerprint, writes))
        .recover(err -> err instanceof SeenBefore seen ? repeat(event, key, fingerprint, seen.layer, writes)
            : Future.failedFuture(err)));
  }

  /** An insert whose duplicate-key error means "booked before, found by {@code layer}". */
  static Future<RowSet<Row>> insert(SqlConnection conn, String sql, Tuple args, Layer layer) {
    return conn.preparedQuery(sql).execute(args)
        .recover(err -> Future.failedFuture(DbErrors.isDuplicateKey(err) ? new SeenBefore(layer) : err));
  }

  private Future<BookingResult> attempt(SqlConnection conn, NotifyEvent e, String key, String fingerprint,
      Writes writes) {
    Future<RowSet<Row>> keyRow = insert(conn, INSERT_KEY, Tuple.of(key, fingerprint), Layer.KEY);
    Future<BookingResult> written = writes.apply(conn, e, key);
    return Future.join(keyRow, written)
        .transform(all -> keyRow.failed() ? Future.<BookingResult>failedFuture(keyRow.cause()) : written);
  }

  /** After the rollback of an attempt that found the event booked by another transaction. */
  private Future<BookingResult> repeat(NotifyEvent e, String key, String fingerprint, Layer layer, Writes writes) {
    Future<String> difference = layer == Layer.KEY
        ? reads.execute(SELECT_KEY_FINGERPRINT, Tuple.of(key))
            .map(rows -> sameOrConflict(Rows.single(rows).getString(0), fingerprint, key))
        : db.inTransaction(conn -> writes.difference(conn, e));
    return difference.compose(conflict -> settle(e, key, fingerprint, layer, conflict));
  }

  private static String sameOrConflict(String bookedFingerprint, String fingerprint, String key) {
    return bookedFingerprint.equals(fingerprint) ? null
        : "key " + key + " was booked with other business content (amount, order or trade changed)";
  }

  /** A repeat: a duplicate (nothing to write), or a conflict (an anomaly, booked nothing else). */
  private Future<BookingResult> settle(NotifyEvent e, String key, String fingerprint, Layer layer, String conflict) {
    if (conflict == null) {
      return Future.succeededFuture(new BookingResult(Outcome.DUPLICATE,
          "already booked (found by " + layer.name().toLowerCase(Locale.ROOT) + ")"));
    }
    String kind = AnomalyKind.CONFLICT.code();
    Anomaly anomaly = new Anomaly(kind, e.platform().code(), e.orderNo(), e.tradeNo(), e.amountCents(), conflict,
        kind + ":" + key + ":" + fingerprint.substring(0, 16));
    return retry.run(() -> db.inTransaction(conn -> outbox.recordAnomaly(conn, anomaly, !e.testMode())))
        .map(new BookingResult(Outcome.CONFLICT, conflict));
  }
}
