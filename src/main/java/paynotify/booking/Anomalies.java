package paynotify.booking;

import io.vertx.core.Future;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import paynotify.store.SqlQueries;

/**
 * The anomalies table: what needs a human, recorded in the transaction that found it, and the site
 * told of it ({@link SiteEvents#anomalyCreated}) when it asked to be.
 */
public final class Anomalies {
  private Anomalies() {}

  /**
   * One finding. {@code dedupeKey} names the finding itself, so that recording it again (a
   * redelivery, a re-run) adds no row.
   *
   * @param channel the {@code Platform} code of the trade concerned, or the part that found it ({@code forward})
   */
  public record Anomaly(String kind, String channel, String orderNo, String tradeNo, Long amountCents,
      String detail, String dedupeKey) {}

  /**
   * Records the anomaly and has the site told of it, once like the anomaly itself (same dedupe key).
   *
   * @param livemode false when a test-mode notification's booking found it
   */
  public static Future<Void> record(SqlConnection conn, Anomaly a, boolean livemode, SiteEvents site) {
    return Future.all(recordUntold(conn, a), site.anomalyCreated(conn, a, livemode)).mapEmpty();
  }

  /** Records the anomaly, and tells the site nothing (forward_failed: never tell of not telling). */
  public static Future<Void> recordUntold(SqlConnection conn, Anomaly a) {
    return conn.preparedQuery(SqlQueries.INSERT_ANOMALY)
        .execute(Tuple.of(a.kind(), a.channel(), a.orderNo(), a.tradeNo(), a.amountCents(), a.detail(), a.dedupeKey()))
        .mapEmpty();
  }
}
