package paynotify.booking;

import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import paynotify.store.TransientRetry;

/** Reading the rows that a unique key proved to exist. */
final class Rows {
  private Rows() {}

  /** The row a 1062 proved to exist; gone only if purged in between, so simply book again. */
  static Row single(RowSet<Row> rows) {
    if (rows.size() == 0) {
      throw new TransientRetry.RaceLost("booked row vanished (purged) between 1062 and the read");
    }
    return rows.iterator().next();
  }

  /** The first row, or null. */
  static Row first(RowSet<Row> rows) {
    return rows.size() == 0 ? null : rows.iterator().next();
  }
}
