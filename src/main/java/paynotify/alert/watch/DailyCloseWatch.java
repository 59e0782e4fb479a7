package paynotify.alert.watch;

import static paynotify.store.SqlQueries.DAILY_CLOSE_TOLD;
import static paynotify.store.SqlQueries.UNTOLD_DAILY_CLOSES;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import paynotify.alert.Alert;
import paynotify.alert.AlertMessages;
import paynotify.alert.Alerts;
import paynotify.store.Database;

/** Daily closes over: each day's summary, or why no bill was fetched and the command to run once that is fixed. */
final class DailyCloseWatch extends FlagWatch {
  private final AlertMessages messages;

  DailyCloseWatch(Database db, Alerts alerts, AlertMessages messages) {
    super(db, alerts);
    this.messages = messages;
  }

  @Override
  Future<RowSet<Row>> untold(SqlConnection conn) {
    return conn.query(UNTOLD_DAILY_CLOSES).execute();
  }

  @Override
  Future<RowSet<Row>> flip(SqlConnection conn, Row row) {
    return conn.preparedQuery(DAILY_CLOSE_TOLD).execute(Tuple.of(row.getString(0), row.getLocalDate(1)));
  }

  @Override
  Alert told(Row r) {
    return messages.dailyClose(r.getString(0), r.getLocalDate(1), r.getString(2), r.getString(3));
  }
}
