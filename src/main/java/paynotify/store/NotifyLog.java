package paynotify.store;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

/** The durable trace every notification leaves: one notify_log row with its outcome. */
public final class NotifyLog {
  /** Bodies are kept up to this size; body_bytes keeps the full length. */
  public static final int MAX_STORED_BODY = 16 * 1024;

  private NotifyLog() {}

  /** Where a notification came from and what it carried. */
  public record Trace(String channel, String remoteAddress, Buffer body) {}

  /** Writes the row through {@code client}: the pool, or the booking transaction's connection. */
  public static Future<Void> record(SqlClient client, Trace trace, String outcome, String idemKey, String detail) {
    Buffer body = trace.body();
    Buffer stored = body.length() > MAX_STORED_BODY ? body.slice(0, MAX_STORED_BODY) : body;
    return client.preparedQuery(SqlQueries.INSERT_NOTIFY_LOG)
        .execute(Tuple.of(trace.channel(), trace.remoteAddress(), outcome, idemKey, bounded(detail),
            body.length(), stored))
        .mapEmpty();
  }

  private static String bounded(String detail) {
    return detail == null || detail.length() <= 500 ? detail : detail.substring(0, 497) + "...";
  }
}
