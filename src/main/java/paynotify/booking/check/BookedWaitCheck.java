package paynotify.booking.check;

import static paynotify.store.SqlQueries.RESOLVE_CONFIRMED_WAITS;

import io.vertx.core.Future;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import paynotify.booking.anomaly.AnomalyKind;
import paynotify.store.Database;

/**
 * The periodic look at signed payments that wait for their platform's confirmation (awaiting_confirmation,
 * confirm_before_book) whose trade is booked: the booking that books a waiting trade resolves its wait as it commits,
 * but not a booking certified on another Galera node beside the wait's insert, nor one whose resolving failed after
 * its commit (logged). Such a wait is resolved here, not left to tell the owner to change a key for nothing; one whose
 * trade was booked for another order or amount than its notification said stays open: that is for a human.
 */
public final class BookedWaitCheck {
  private final Database db;

  public BookedWaitCheck(Database db) {
    this.db = db;
  }

  /** The number of waits resolved. */
  public Future<Integer> runOnce() {
    return db.inTransaction(conn -> conn.preparedQuery(RESOLVE_CONFIRMED_WAITS)
        .execute(Tuple.of("its trade was booked: nothing is waiting", AnomalyKind.AWAITING_CONFIRMATION.code()))
        .map(RowSet::rowCount));
  }
}
