package paynotify.booking;

import static paynotify.store.SqlQueries.CLAIM_KEY_FROM_REFUNDS;
import static paynotify.store.SqlQueries.INSERT_KEY;
import static paynotify.store.SqlQueries.REFUNDS_WAITING;
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
import paynotify.store.SqlQueries;
import paynotify.store.TransientRetry;

/**
 * The ONE transaction every payment and refund is booked in:
 * <ol>
 *   <li>insert the idempotency key and, sent with it without waiting, the event's own writes
 *       ({@link Writes}). Unique keys decide races: a concurrent copy waits on the key row and
 *       gets 1062 once the first commits; the second-layer keys (uk_trade_no, uk_refund_no) do the
 *       same after the key was purged,
 *   <li>COMMIT ({@link Database#inTransaction}); any failure: ROLLBACK.
 * </ol>
 * A repeat found by a unique key is rolled back, and only then looked at: a committed key with the
 * same fingerprint is proof of a committed booking, or of a payment found refunded at the platform
 * that must not be booked (recovery's paid_then_refunded): duplicate (another fingerprint: conflict).
 * A payment's key held by refunds that came first ({@link SqlQueries#REFUNDS_WAITING}) is no repeat:
 * the payment is booked again, claiming that key, and settles them.
 *
 * <p>A first delivery reads nothing before it: only a key this process saw committed
 * ({@link BookedKeys}), a repeat, is looked up first ({@link CommittedReads}, outside the transaction),
 * so that a replay flood of a genuine message costs one indexed read each, not a booking connection.
 * When that read cannot answer, the repeat is answered 503 ({@link RepeatNotChecked}). The
 * transaction opens no read view before its locking statements: with innodb_snapshot_isolation
 * (MariaDB 11.6+) a view older than a row they lock makes them fail with 1020, a retry per copy in a storm.
 */
final class BookingTransaction {
  /** What one kind of event writes, and how a repeat of it is told from a conflict. */
  interface Writes {
    /**
     * Sends the event's statements; they reach the database right after the key insert. A
     * second-layer unique key that fires fails the future with {@link SeenBefore}.
     *
     * @param refundsWaiting the key was held by refunds that came before this payment
     */
    Future<BookingResult> apply(SqlConnection conn, NotifyEvent e, String key, boolean refundsWaiting);

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

  /** Whether {@code key} is one this process saw committed. */
  boolean seenBooked(String key) {
    return bookedKeys.contains(key);
  }

  Future<BookingResult> book(NotifyEvent event, Writes writes) {
    String key = event.idempotencyKey();
    String fingerprint = Fingerprint.of(event);
    Future<BookingResult> booked = !bookedKeys.contains(key) ? transact(event, key, fingerprint, writes, false)
        : reads.execute(SELECT_KEY_FINGERPRINT, Tuple.of(key)).transform(pre -> {
          if (pre.failed()) {
            // The read cannot answer (its pool's queue full, a timeout, the database gone). The key was seen
            // committed: 503 now, not a booking connection (a replay flood would take them all).
            return Future.failedFuture(new RepeatNotChecked(key, pre.cause()));
          }
          String committed = pre.result().size() > 0 ? pre.result().iterator().next().getString(0) : null;
          if (committed == null || committed.equals(REFUNDS_WAITING)) { // its key purged since, or held for refunds
            return transact(event, key, fingerprint, writes, committed != null);
          }
          return settle(event, key, fingerprint, Layer.KEY, sameOrConflict(committed, fingerprint, key));
        });
    return booked.onSuccess(result -> bookedKeys.add(key)); // committed now, or found committed before
  }

  private Future<BookingResult> transact(NotifyEvent event, String key, String fingerprint, Writes writes,
      boolean refundsWaiting) {
    return retry.run(() -> once(event, key, fingerprint, writes, refundsWaiting));
  }

  /** One attempt, and what a repeat it found is; a transient failure is left to the one retry around it. */
  private Future<BookingResult> once(NotifyEvent event, String key, String fingerprint, Writes writes,
      boolean refundsWaiting) {
    return db.inTransaction(conn -> attempt(conn, event, key, fingerprint, writes, refundsWaiting))
        .recover(err -> err instanceof SeenBefore seen
            ? repeat(event, key, fingerprint, seen.layer, writes, refundsWaiting) : Future.failedFuture(err));
  }

  /** An insert whose duplicate-key error means "booked before, found by {@code layer}". */
  static Future<RowSet<Row>> insert(SqlConnection conn, String sql, Tuple args, Layer layer) {
    return conn.preparedQuery(sql).execute(args)
        .recover(err -> Future.failedFuture(DbErrors.isDuplicateKey(err) ? new SeenBefore(layer) : err));
  }

  /** The key inserted, or claimed from the refunds that held it (none claimed: another copy did, a repeat). */
  private Future<BookingResult> attempt(SqlConnection conn, NotifyEvent e, String key, String fingerprint,
      Writes writes, boolean refundsWaiting) {
    Future<RowSet<Row>> keyRow = !refundsWaiting ? insert(conn, INSERT_KEY, Tuple.of(key, fingerprint), Layer.KEY)
        : conn.preparedQuery(CLAIM_KEY_FROM_REFUNDS).execute(Tuple.of(fingerprint, key)).compose(claimed ->
            claimed.rowCount() == 1 ? Future.succeededFuture(claimed) : Future.failedFuture(new SeenBefore(Layer.KEY)));
    Future<BookingResult> written = writes.apply(conn, e, key, refundsWaiting);
    return Future.join(keyRow, written)
        .transform(all -> keyRow.failed() ? Future.<BookingResult>failedFuture(keyRow.cause()) : written);
  }

  /**
   * After the rollback of an attempt that found the event booked by another transaction, or its key
   * held by refunds: then booked again, claiming the key (once: a claim that finds it taken is a repeat).
   */
  private Future<BookingResult> repeat(NotifyEvent e, String key, String fingerprint, Layer layer, Writes writes,
      boolean claimed) {
    if (layer != Layer.KEY) {
      return db.inTransaction(conn -> writes.difference(conn, e))
          .compose(conflict -> settle(e, key, fingerprint, layer, conflict));
    }
    return reads.execute(SELECT_KEY_FINGERPRINT, Tuple.of(key)).compose(rows -> {
      String booked = Rows.single(rows).getString(0);
      if (!booked.equals(REFUNDS_WAITING)) {
        return settle(e, key, fingerprint, layer, sameOrConflict(booked, fingerprint, key));
      }
      return !claimed ? once(e, key, fingerprint, writes, true) : Future.failedFuture(new IllegalStateException(
          "key " + key + " still reads as held for refunds after another booking took it: not booked now"));
    });
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
