package paynotify.alert.watch;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import paynotify.alert.Alert;
import paynotify.alert.Alerts;
import paynotify.store.Database;

/**
 * A watch of rows each told once, by whoever flips its {@code alerted} flag, so a change of hands tells nothing
 * twice: raised once the flips are committed (a rollback tells nothing; the next look retells).
 */
abstract class FlagWatch implements Watch {
  private final Database db;
  private final Alerts alerts;

  FlagWatch(Database db, Alerts alerts) {
    this.db = db;
    this.alerts = alerts;
  }

  /** The rows not told yet. */
  abstract Future<RowSet<Row>> untold(SqlConnection conn);

  /** The row's flag flipped, if no one flipped it before: a row count of 1 when this look did. */
  abstract Future<RowSet<Row>> flip(SqlConnection conn, Row row);

  /** What is said of a row this look flipped; null: nothing, it is not news. */
  abstract Alert told(Row row);

  @Override
  public final Future<Void> look(Instant now) {
    List<Alert> toTell = new ArrayList<>();
    return db.inTransaction(conn -> untold(conn).compose(rows -> {
      List<Row> list = new ArrayList<>();
      rows.forEach(list::add);
      Future<Void> told = Future.succeededFuture();
      for (Row r : list) {
        told = told.compose(v -> flip(conn, r).map(flipped -> {
          Alert alert = flipped.rowCount() == 1 ? told(r) : null;
          if (alert != null) {
            toTell.add(alert);
          }
          return null;
        }));
      }
      return told;
    })).onSuccess(v -> toTell.forEach(alerts::raise));
  }
}
