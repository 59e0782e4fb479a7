package paynotify.store;

import io.vertx.core.Future;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;

/**
 * Deletes idempotency keys and notify_log rows older than their retention, in batches of at most
 * {@code batchSize} rows per statement until none are left. Asynchronous: it never blocks the
 * event loop, and each short DELETE holds its locks only briefly. An expired key is harmless to
 * lose: uk_trade_no still recognises a re-push of an old payment.
 */
public final class KeyPurge {
  public static final int MAX_BATCH = 1000;

  private final Database db;
  private final Duration keyRetention;
  private final Duration logRetention;
  private final int batchSize;

  /** What one run deleted, and in how many statements. */
  public record Report(long keysDeleted, long logRowsDeleted, int statements) {}

  public KeyPurge(Database db, Duration keyRetention, Duration logRetention, int batchSize) {
    if (batchSize < 1 || batchSize > MAX_BATCH) {
      throw new IllegalArgumentException("batch size must be 1.." + MAX_BATCH);
    }
    this.db = db;
    this.keyRetention = keyRetention;
    this.logRetention = logRetention;
    this.batchSize = batchSize;
  }

  public Future<Report> runOnce() {
    return drain(SqlQueries.PURGE_KEYS, keyRetention, new Report(0, 0, 0), true)
        .compose(r -> drain(SqlQueries.PURGE_NOTIFY_LOG, logRetention, r, false));
  }

  private Future<Report> drain(String sql, Duration retention, Report sofar, boolean keys) {
    // Each batch commits on its own: locks are held for one short statement only.
    return db.inTransaction(conn -> conn.preparedQuery(sql).execute(Tuple.of(retention.toSeconds(), batchSize)))
        .compose(result -> {
          int deleted = result.rowCount();
          Report next = keys
              ? new Report(sofar.keysDeleted() + deleted, sofar.logRowsDeleted(), sofar.statements() + 1)
              : new Report(sofar.keysDeleted(), sofar.logRowsDeleted() + deleted, sofar.statements() + 1);
          return deleted < batchSize ? Future.succeededFuture(next) : drain(sql, retention, next, keys);
        });
  }
}
