package paynotify.recovery;

import static paynotify.store.SqlQueries.ADD_STRIPE_CURSOR;
import static paynotify.store.SqlQueries.MOVE_STRIPE_CURSOR;
import static paynotify.store.SqlQueries.STRIPE_CURSOR;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import paynotify.store.Database;

/**
 * Where the reading of Stripe's undelivered events has got to (stripe_events_cursor), in the database so that
 * every instance goes on from it. Stripe lists newest first: a {@link Walk} goes down a window of the events'
 * {@code created}, a few pages a sweep.
 */
final class MissedEventsCursor {
  /**
   * A walk down [{@code from}, {@code to}) (Unix seconds, Stripe's {@code created}): every event in
   * [{@code below}, {@code to}) has been taken, and every one before {@code from} by an earlier walk;
   * {@code version}: the row's it comes from.
   */
  record Walk(long from, long below, long to, long version) {
    /** Nothing of it is left that is not older than {@code oldest} (max_age). */
    boolean over(long oldest) {
      return below <= Math.max(from, oldest);
    }

    /** The walk after this one: what was created from its end to {@code end}. */
    Walk next(long end) {
      long to = Math.max(this.to, end);
      return new Walk(this.to, to, to, version);
    }

    /** Taken down to {@code below} (never back up). */
    Walk takenDownTo(long below) {
      return new Walk(from, Math.min(this.below, below), to, version);
    }

    /** Taken to its bottom: the next walk starts at its end. */
    Walk done() {
      return new Walk(to, to, to, version);
    }
  }

  private final Database db;

  MissedEventsCursor(Database db) {
    this.db = db;
  }

  Future<Walk> read() {
    return db.inTransaction(conn -> conn.query(ADD_STRIPE_CURSOR).execute()
        .compose(added -> conn.query(STRIPE_CURSOR).execute())
        .map(rows -> {
          Row r = rows.iterator().next();
          return new Walk(r.getLong(0), r.getLong(1), r.getLong(2), r.getLong(3));
        }));
  }

  /**
   * Writes {@code walk} over the row it came from (its version): the row now, or null when another instance
   * moved it meanwhile (that one is walking: this one stops).
   */
  Future<Walk> move(Walk walk) {
    return db.inTransaction(conn -> conn.preparedQuery(MOVE_STRIPE_CURSOR)
        .execute(Tuple.of(walk.from(), walk.below(), walk.to(), walk.version())))
        .map(rows -> rows.rowCount() == 1 ? new Walk(walk.from(), walk.below(), walk.to(), walk.version() + 1) : null);
  }
}
