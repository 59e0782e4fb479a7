package paynotify.booking.anomaly;

import io.vertx.core.Future;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import paynotify.store.SqlQueries;

/**
 * The anomalies table: what needs a human, recorded in the transaction that found it. The site is told of
 * it by {@code booking.SiteEvents#recordAnomaly}, which records it through here.
 */
public final class Anomalies {
  private Anomalies() {}

  /** Records the anomaly and tells the site nothing: {@code SiteEvents#recordAnomaly} tells it. */
  public static Future<Void> recordUntold(SqlConnection conn, Anomaly a) {
    return conn.preparedQuery(SqlQueries.INSERT_ANOMALY)
        .execute(Tuple.of(a.kind(), a.channel(), a.orderNo(), a.tradeNo(), a.amountCents(), a.detail(), a.dedupeKey()))
        .mapEmpty();
  }

  /**
   * Records the anomaly unless a payment of its trade is booked ({@link SqlQueries#RECORD_ANOMALY_UNLESS_BOOKED}):
   * true when recorded now; fails with 1062 when it was recorded before. Tells the site nothing.
   */
  public static Future<Boolean> recordUntoldUnlessBooked(SqlConnection conn, Anomaly a) {
    return conn.preparedQuery(SqlQueries.RECORD_ANOMALY_UNLESS_BOOKED)
        .execute(Tuple.of(a.kind(), a.channel(), a.orderNo(), a.tradeNo(), a.amountCents(), a.detail(), a.dedupeKey())
            .addValue(a.channel()).addValue(a.tradeNo()))
        .map(rows -> rows.rowCount() > 0);
  }
}
