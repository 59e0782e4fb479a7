package paynotify.store;

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
