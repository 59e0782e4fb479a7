package paynotify.store;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;

/** The durable trace every notification leaves: one notify_log row with its outcome. */
public final class NotifyLog {
  /** Bodies are kept up to this size; body_bytes keeps the full length. */
  public static final int MAX_STORED_BODY = 16 * 1024;

  private NotifyLog() {}

  /**
   * Where a notification came from and what it carried.
   *
   * @param endpoint the path it came in by ({@code alipay}, {@code wechat_v2}, ...): notify_log.channel
   *                 holds this, payments and refunds the platform
   */
  public record Trace(String endpoint, String remoteAddress, Buffer body) {}

  /** Writes the row in the caller's transaction (it commits with the booking, or not at all). */
  public static Future<Void> record(SqlConnection conn, Trace trace, String outcome, String idemKey, String detail) {
    Buffer body = trace.body();
    Buffer stored = body.length() > MAX_STORED_BODY ? body.slice(0, MAX_STORED_BODY) : body;
    return conn.preparedQuery(SqlQueries.INSERT_NOTIFY_LOG)
        .execute(Tuple.of(trace.endpoint(), trace.remoteAddress(), outcome, idemKey, bounded(detail),
            body.length(), stored))
        .mapEmpty();
  }

  /** Writes the row in a transaction of its own. */
  public static Future<Void> record(Database db, Trace trace, String outcome, String idemKey, String detail) {
    return db.inTransaction(conn -> record(conn, trace, outcome, idemKey, detail));
  }

  /** detail fits its column (500). */
  static String bounded(String detail) {
    return detail == null || detail.length() <= 500 ? detail : detail.substring(0, 497) + "...";
  }
}
