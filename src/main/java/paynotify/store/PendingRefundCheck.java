package paynotify.store;

import io.vertx.core.Future;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;

/**
 * Refunds still waiting for their payment after the retention: the payment notification was
 * lost, or the refund belongs to a trade this site never booked. Each becomes one anomaly
 * (recording it again adds nothing); the refund stays pending, so a late payment still settles it.
 */
public final class PendingRefundCheck {
  private final Database db;
  private final Duration age;

  public PendingRefundCheck(Database db, Duration age) {
    this.db = db;
    this.age = age;
  }

  /** @return how many new anomalies were recorded */
  public Future<Integer> runOnce() {
    return db.inTransaction(conn -> conn.preparedQuery(SqlQueries.FLAG_STALE_PENDING_REFUNDS)
            .execute(Tuple.of(age.toSeconds())))
        .map(result -> result.rowCount());
  }
}
