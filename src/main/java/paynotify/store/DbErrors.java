package paynotify.store;

import io.vertx.sqlclient.ClosedConnectionException;
import io.vertx.sqlclient.DatabaseException;
import java.util.regex.Pattern;

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

  /** ENOSPC as the server words it: "No space left on device", "errno: 28", "Errcode: 28", "Got error 28 ...". */
  private static final Pattern NO_SPACE =
      Pattern.compile("No space left on device|(?:errno: |Errcode: |error )28(?![0-9])", Pattern.CASE_INSENSITIVE);

  private DbErrors() {}

  /**
   * The end of a session we killed ourselves: the server answers the KILL with 1927 ("Connection was
   * killed", MariaDB) or 1317 (query interrupted, MySQL), or just closes the connection.
   */
  public static boolean isSessionKilled(Throwable err) {
    return err instanceof DatabaseException db ? db.getErrorCode() == 1927 || db.getErrorCode() == 1317
        : err instanceof ClosedConnectionException;
  }

  /**
   * The database could not be reached, or its connection died during the statement (the server down or restarting,
   * the network): not a refusal by itself, but while the database refuses writes, a notification lost to it is one
   * more the owner may have to look for.
   */
  public static boolean isUnreachable(Throwable err) {
    for (Throwable t = err; t != null; t = t.getCause()) {
      if (t instanceof java.net.ConnectException || t instanceof ClosedConnectionException
          || t instanceof CountedPool.ConnectionLost) {
        return true;
      }
    }
    return false;
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

  /**
   * Why the database refuses to write, when {@code err} says it does ("disk full (1114)"), for the owner; null
   * for anything else (a bad statement, a lost race, a dead server). A full disk: 1114 (table full), 1021 (disk
   * full, waiting), 3 (error writing file), or errno 28 (ENOSPC) in the text of 1030 (storage engine), 1026 (error
   * writing file), 1180 (error during COMMIT), 1878 (temporary file write) or of an error that is no server's
   * answer (those codes with another errno are no full disk); read-only: 1290 (read_only, --read-only), 1836
   * (innodb_read_only), 1792 (a read-only transaction: transaction_read_only, tx_read_only); 1040 (too many
   * connections); out of memory: 1037, 1041.
   */
  public static String refusal(Throwable err) {
    if (err instanceof DatabaseException db) {
      int code = db.getErrorCode();
      return switch (code) {
        case 1114, 1021, 3 -> "disk full (" + code + ")";
        case 1030, 1026, 1180, 1878 -> noSpace(db) ? "disk full (" + code + ")" : null;
        case 1290, 1836, 1792 -> "read-only (" + code + ")";
        case 1040 -> "too many connections (1040)";
        case 1037, 1041 -> "out of memory (" + code + ")";
        default -> null;
      };
    }
    return err != null && noSpace(err) ? "disk full (no space left on device)" : null;
  }

  private static boolean noSpace(Throwable err) {
    return NO_SPACE.matcher(String.valueOf(err.getMessage())).find();
  }
}
