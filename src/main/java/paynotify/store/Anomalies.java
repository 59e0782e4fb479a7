package paynotify.store;

import io.vertx.core.Future;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;

/** The anomalies table: what needs a human. */
public final class Anomalies {
  private Anomalies() {}

  /**
   * One finding. {@code dedupeKey} names the finding itself, so that recording it again (a
   * redelivery, a re-run) adds no row.
   */
  public record Anomaly(String kind, String channel, String orderNo, String tradeNo, Long amountCents,
      String detail, String dedupeKey) {}

  public static Future<Void> record(SqlConnection conn, Anomaly a) {
    return conn.preparedQuery(SqlQueries.INSERT_ANOMALY)
        .execute(Tuple.of(a.kind(), a.channel(), a.orderNo(), a.tradeNo(), a.amountCents(), a.detail(), a.dedupeKey()))
        .mapEmpty();
  }
}
