package paynotify.store;

import io.vertx.sqlclient.DatabaseException;

/** MySQL/MariaDB error codes the booking decides on. */
public final class DbErrors {
  public static final int DUPLICATE_KEY = 1062;
  public static final int LOCK_WAIT_TIMEOUT = 1205;
  public static final int DEADLOCK = 1213;

  private DbErrors() {}

  public static boolean isDuplicateKey(Throwable err) {
    return err instanceof DatabaseException db && db.getErrorCode() == DUPLICATE_KEY;
  }

  /** Errors after which the same transaction, run again, may well succeed. */
  public static boolean isTransient(Throwable err) {
    return err instanceof DatabaseException db
        && (db.getErrorCode() == DEADLOCK || db.getErrorCode() == LOCK_WAIT_TIMEOUT);
  }
}
