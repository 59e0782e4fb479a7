package paynotify.store;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;

/**
 * Deletes idempotency keys, notify_log rows (refused requests' sooner) and delivered events older than their
 * retention, in batches of at most
 * {@code batchSize} rows per statement until none are left. Asynchronous: it never blocks the
 * event loop, and each short DELETE holds its locks only briefly. An expired key is harmless to
 * lose: uk_trade_no still recognises a re-push of an old payment.
 */
public final class KeyPurge {
  public static final int MAX_BATCH = 1000;
  /**
   * A batch is run again after a deadlock: it is idempotent. On Galera a booking replicated from another
   * node that inserts into the range a batch holds locked aborts the batch (the replicated write wins).
   */
  static final int BATCH_ATTEMPTS = 10;

  private final Database db;
  private final TransientRetry retry;
  private final Duration keyRetention;
  private final Duration logRetention;
  private final Duration rejectedRetention;
  private final Duration eventRetention;
  private final int batchSize;

  /** What one run deleted, and in how many statements. */
  public record Report(long keysDeleted, long logRowsDeleted, long rejectedRowsDeleted, long eventsDeleted,
      int statements) {}

  /**
   * @param rejectedRetention how long refused requests' notify_log rows are kept (at most logRetention's worth)
   * @param eventRetention    how long delivered events (forward_events) are kept
   */
  public KeyPurge(Vertx vertx, Database db, Duration keyRetention, Duration logRetention, Duration rejectedRetention,
      Duration eventRetention, int batchSize) {
    if (batchSize < 1 || batchSize > MAX_BATCH) {
      throw new IllegalArgumentException("batch size must be 1.." + MAX_BATCH);
    }
    this.db = db;
    this.retry = new TransientRetry(vertx, BATCH_ATTEMPTS);
    this.keyRetention = keyRetention;
    this.logRetention = logRetention;
    this.rejectedRetention = rejectedRetention;
    this.eventRetention = eventRetention;
    this.batchSize = batchSize;
  }

  public Future<Report> runOnce() {
    int[] statements = {0};
    return drain(SqlQueries.PURGE_KEYS, keyRetention.toSeconds(), 0, statements)
        .compose(keys -> drain(SqlQueries.PURGE_NOTIFY_LOG, logRetention.toSeconds(), 0, statements)
            .compose(log -> drainRejected(statements)
                .compose(rejected -> drainEvents(0, statements)
                    .map(events -> new Report(keys, log, rejected, events, statements[0])))));
  }

  /** Refused requests' rows up to the newest row past their retention (see LAST_ID_RECEIVED_BEFORE). */
  private Future<Long> drainRejected(int[] statements) {
    return db.inTransaction(conn -> conn.preparedQuery(SqlQueries.LAST_ID_RECEIVED_BEFORE)
            .execute(Tuple.of(rejectedRetention.toSeconds())))
        .compose(last -> {
          statements[0]++;
          return last.size() == 0 ? Future.succeededFuture(0L)
              : drain(SqlQueries.PURGE_REJECTED, last.iterator().next().getLong(0), 0, statements);
        });
  }

  /** Delivered events past retention, a batch at a time, deleted by id (see EXPIRED_DELIVERED_EVENTS). */
  private Future<Long> drainEvents(long sofar, int[] statements) {
    return retry.run(() -> db.inTransaction(conn -> conn.preparedQuery(SqlQueries.EXPIRED_DELIVERED_EVENTS)
        .execute(Tuple.of(eventRetention.toSeconds(), batchSize))
        .compose(expired -> {
          statements[0]++;
          if (expired.size() == 0) {
            return Future.succeededFuture(0);
          }
          Tuple ids = Tuple.tuple();
          expired.forEach(row -> ids.addLong(row.getLong(0)));
          statements[0]++;
          return conn.preparedQuery(SqlQueries.deleteEvents(expired.size())).execute(ids).map(deleted -> expired.size());
        })))
        .compose(n -> n < batchSize ? Future.succeededFuture(sofar + n) : drainEvents(sofar + n, statements));
  }

  /**
   * Deletes with {@code sql} (bound: the retention in seconds, or an id) until a batch comes back short;
   * each batch commits on its own (short locks).
   */
  private Future<Long> drain(String sql, long bound, long sofar, int[] statements) {
    return retry.run(() -> db.inTransaction(conn -> conn.preparedQuery(sql).execute(Tuple.of(bound, batchSize))))
        .compose(result -> {
          statements[0]++;
          long deleted = sofar + result.rowCount();
          return result.rowCount() < batchSize ? Future.succeededFuture(deleted)
              : drain(sql, bound, deleted, statements);
        });
  }

}
