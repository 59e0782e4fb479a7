package paynotify.testsupport;

/**
 * A global variable of the test database server set for a while, as a site's server may be
 * configured (READ COMMITTED by default, {@code innodb_snapshot_isolation} on from MariaDB 11.6),
 * and restored on close. Only sessions opened after the change inherit it.
 */
public final class ServerSetting implements AutoCloseable {
  private final TestDatabase db;
  private final String variable;
  private final String previous;

  private ServerSetting(TestDatabase db, String variable, String value) {
    this.db = db;
    this.variable = variable;
    this.previous = db.string("SELECT @@GLOBAL." + variable);
    db.update("SET GLOBAL " + variable + " = ?", value);
  }

  public static ServerSetting set(TestDatabase db, String variable, String value) {
    return new ServerSetting(db, variable, value);
  }

  /** The server's default isolation level: transaction_isolation on MariaDB 11.1+ and MySQL 8, else tx_isolation. */
  public static ServerSetting isolation(TestDatabase db, String level) {
    return set(db, exists(db, "transaction_isolation") ? "transaction_isolation" : "tx_isolation", level);
  }

  /** Whether this server has the variable at all (innodb_snapshot_isolation: MariaDB 10.6.18+, 11.x). */
  public static boolean exists(TestDatabase db, String variable) {
    return db.string("SELECT COUNT(*) FROM information_schema.GLOBAL_VARIABLES WHERE VARIABLE_NAME = ?",
        variable.toUpperCase()).equals("1");
  }

  @Override
  public void close() {
    // Numbers and booleans (read back as 0/1) are restored as numbers: '0' is no boolean value.
    db.update("SET GLOBAL " + variable + " = ?", previous.matches("-?\\d+") ? Long.valueOf(previous) : previous);
  }
}
