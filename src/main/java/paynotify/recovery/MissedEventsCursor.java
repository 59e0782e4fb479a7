package paynotify.recovery;

import static paynotify.store.SqlQueries.ADD_MISSED_EVENTS_CURSOR;
import static paynotify.store.SqlQueries.MISSED_EVENTS_CURSOR;
import static paynotify.store.SqlQueries.MOVE_MISSED_EVENTS_CURSOR;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import paynotify.channel.Platform;
import paynotify.store.Database;

/**
 * Where the reading of a platform's undelivered events has got to (missed_events_cursor, its platform's row), in the
 * database so that every instance goes on from it. The platforms list newest first: a {@link Walk} goes down a window
 * of the events' times, a few pages a sweep.
 */
final class MissedEventsCursor {
  /**
   * A walk down [{@code from}, {@code to}) (Unix seconds, the platform's clock): every event in
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
  private final String platform;

  MissedEventsCursor(Database db, Platform platform) {
    this.db = db;
    this.platform = platform.code();
  }

  Future<Walk> read() {
    return db.inTransaction(conn -> conn.preparedQuery(ADD_MISSED_EVENTS_CURSOR).execute(Tuple.of(platform))
        .compose(added -> conn.preparedQuery(MISSED_EVENTS_CURSOR).execute(Tuple.of(platform)))
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
    return db.inTransaction(conn -> conn.preparedQuery(MOVE_MISSED_EVENTS_CURSOR)
        .execute(Tuple.of(walk.from(), walk.below(), walk.to(), platform, walk.version())))
        .map(rows -> rows.rowCount() == 1 ? new Walk(walk.from(), walk.below(), walk.to(), walk.version() + 1) : null);
  }
}
