package paynotify.store;

import io.vertx.sqlclient.ClosedConnectionException;
import io.vertx.sqlclient.DatabaseException;

/** MySQL/MariaDB error codes the booking decides on. */
public final class DbErrors {
  public static final int DUPLICATE_KEY = 1062;
  public static final int LOCK_WAIT_TIMEOUT = 1205;
  public static final int DEADLOCK = 1213;
  /**
   * "Record has changed since last read": with innodb_snapshot_isolation (on by default from
   * MariaDB 11.6) a locking read of a row committed after the transaction's read view was made.
   */
  public static final int SNAPSHOT_CONFLICT = 1020;

  private DbErrors() {}

  /**
   * The end of a session we killed ourselves: the server answers the KILL with 1927 ("Connection was
   * killed", MariaDB) or 1317 (query interrupted, MySQL), or just closes the connection.
   */
  public static boolean isSessionKilled(Throwable err) {
    return err instanceof DatabaseException db ? db.getErrorCode() == 1927 || db.getErrorCode() == 1317
        : err instanceof ClosedConnectionException;
  }

  public static boolean isDuplicateKey(Throwable err) {
    return err instanceof DatabaseException db && db.getErrorCode() == DUPLICATE_KEY;
  }

  /** Errors after which the same transaction, run again, may well succeed. */
  public static boolean isTransient(Throwable err) {
    return err instanceof DatabaseException db
        && (db.getErrorCode() == DEADLOCK || db.getErrorCode() == LOCK_WAIT_TIMEOUT
            || db.getErrorCode() == SNAPSHOT_CONFLICT);
  }
}
