package paynotify.alert.watch;

import static paynotify.store.SqlQueries.ANOMALY_TOLD;
import static paynotify.store.SqlQueries.UNTOLD_ANOMALIES;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import paynotify.alert.Alert;
import paynotify.alert.AlertMessages;
import paynotify.alert.Alerts;
import paynotify.store.Database;

/**
 * New anomalies, whatever process recorded them (a booking, recovery, a reconcile run), as the status page lists
 * them; one over a day old when first seen (alerts just turned on), or resolved already, is marked told without a
 * message.
 */
final class AnomalyWatch extends FlagWatch {
  private static final int ANOMALIES_PER_LOOK = 100;

  private final AlertMessages messages;

  AnomalyWatch(Database db, Alerts alerts, AlertMessages messages) {
    super(db, alerts);
    this.messages = messages;
  }

  @Override
  Future<RowSet<Row>> untold(SqlConnection conn) {
    return conn.preparedQuery(UNTOLD_ANOMALIES).execute(Tuple.of(ANOMALIES_PER_LOOK));
  }

  @Override
  Future<RowSet<Row>> flip(SqlConnection conn, Row row) {
    return conn.preparedQuery(ANOMALY_TOLD).execute(Tuple.of(row.getLong(0)));
  }

  @Override
  Alert told(Row r) {
    return r.getBoolean(7) ? null // over a day old, or resolved already: not news
        : messages.anomaly(r.getString(1), r.getString(2), r.getString(3), r.getString(4), r.getLong(5), r.getString(6));
  }
}
