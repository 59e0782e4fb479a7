package paynotify.booking.check;

import static paynotify.store.SqlQueries.OPEN_ANOMALIES_OF_KIND;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;
import paynotify.booking.SiteEvents;
import paynotify.booking.anomaly.Anomaly;
import paynotify.booking.anomaly.Anomalies;
import paynotify.booking.anomaly.AnomalyKind;

/** Anomalies a periodic check recorded (or held back), told to the site with anomaly.created. */
final class OpenAnomalies {
  private OpenAnomalies() {}

  /** anomaly.created for the open ones of {@code kind} at least {@code age} old (those told before add nothing). */
  static Future<Void> tell(SqlConnection conn, SiteEvents outbox, AnomalyKind kind, Duration age) {
    if (!outbox.tells(SiteEvents.ANOMALY_CREATED)) {
      return Future.succeededFuture();
    }
    return conn.preparedQuery(OPEN_ANOMALIES_OF_KIND).execute(Tuple.of(kind.code(), age.toSeconds())).compose(rows -> {
      Future<Void> told = Future.succeededFuture();
      for (Row r : rows) {
        Anomaly a = new Anomaly(r.getString("kind"), r.getString("channel"), r.getString("order_no"),
            r.getString("trade_no"), r.getLong("amount_cents"), r.getString("detail"), r.getString("dedupe_key"));
        told = told.compose(v -> outbox.recordAnomaly(conn, a, true)); // no notification says test money
      }
      return told;
    });
  }
}
