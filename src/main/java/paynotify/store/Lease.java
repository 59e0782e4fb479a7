package paynotify.store;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Tuple;
import java.util.function.Function;

/**
 * One instance's hold on a row of paynotify's own tables (the alert watch's, an order's check, a day's close): the
 * row added if it is not there yet, then taken by a conditional UPDATE that matches only while it is free for this
 * instance, so the database decides and the row count says who holds it; what is written while holding it is
 * written only as long as it does. The statements are {@link SqlQueries}', each with its race; the owner is this
 * instance's ({@link LeaseOwner}).
 */
public final class Lease {
  /** How often a statement that lost a race to another transaction (a deadlock, a lock waited out) is run. */
  private static final int ATTEMPTS = 3;

  private final Database db;
  private final TransientRetry retry;
  private final String owner;

  public Lease(Vertx vertx, Database db) {
    this.db = db;
    this.retry = new TransientRetry(vertx, ATTEMPTS);
    this.owner = LeaseOwner.next();
  }

  /** This instance, as the statements' lease_owner. */
  public String owner() {
    return owner;
  }

  /**
   * Whether this instance holds the row now: {@code add} (an INSERT IGNORE of the row, bound to {@code row}), then
   * {@code take} (its conditional UPDATE, bound to what {@code terms} makes of the owner) matching it. Two
   * transactions, each run again when it loses a race: INSERT IGNORE share-locks the row it finds, and two
   * instances each holding that lock while waiting to UPDATE would deadlock (CI saw it); run again all the same
   * (a deadlock on Galera's certification, a lock waited out), the UPDATE then decides.
   */
  public Future<Boolean> take(String add, Tuple row, String take, Function<String, Tuple> terms) {
    return retry.run(() -> db.inTransaction(conn -> conn.preparedQuery(add).execute(row)))
        .compose(added -> retry.run(() -> db.inTransaction(conn -> conn.preparedQuery(take)
            .execute(terms.apply(owner)))))
        .map(taken -> taken.rowCount() == 1);
  }

  /**
   * {@code write} (an UPDATE that matches only while {@code lease_owner} is this owner, bound to what {@code binds}
   * makes of it), run again when it loses a race: whether it still held the row (a lease run out and taken by
   * another instance meanwhile is left to that one).
   */
  public Future<Boolean> whileHeld(String write, Function<String, Tuple> binds) {
    return retry.run(() -> db.inTransaction(conn -> conn.preparedQuery(write).execute(binds.apply(owner))))
        .map(written -> written.rowCount() == 1);
  }
}
