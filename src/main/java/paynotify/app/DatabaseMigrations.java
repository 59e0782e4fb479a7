package paynotify.app;

import java.sql.SQLException;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import paynotify.app.AppConfig.DatabaseSettings;
import paynotify.store.OrdersTable;

/** Brings the schema up to date with the Flyway scripts in migrations/ (shipped in the jar). */
public final class DatabaseMigrations {
  private DatabaseMigrations() {}

  public static String jdbcUrl(DatabaseSettings db) {
    return "jdbc:mariadb://" + db.host() + ":" + db.port() + "/" + db.name()
        + "?connectTimeout=" + db.connectTimeout().toMillis() + db.security().jdbcParameters();
  }

  /**
   * Migrates, then checks the site's orders table ({@link OrdersTableCheck}).
   *
   * @param orders the site's orders table, as mapped
   * @param source where the settings came from, for the error message
   * @return the number of migrations applied
   */
  public static int migrate(DatabaseSettings db, OrdersTable orders, String source) {
    try {
      return run(db, orders, source);
    } catch (FlywayException | IllegalStateException | SQLException e) {
      throw refused(db, source, e);
    }
  }

  /**
   * Migrates and checks the orders table; a failure to reach the database is thrown as it is, for
   * a caller that waits for a database not up yet. A table that will not do is a {@link ConfigException}.
   */
  static int run(DatabaseSettings db, OrdersTable orders, String source) throws SQLException {
    int applied = MigrationLease.around(db, () -> Flyway.configure()
        .dataSource(jdbcUrl(db), db.user(), db.password())
        .locations("classpath:db/migration")
        // A site database already holds its own tables (orders at least): start our history there.
        .baselineOnMigrate(true)
        .baselineVersion("0")
        .connectRetries(0)
        .load()
        .migrate()
        .migrationsExecuted);
    OrdersTableCheck.check(db, orders, source);
    return applied;
  }

  /** The one line that says why the database cannot be used and which keys to look at. */
  static ConfigException refused(DatabaseSettings db, String source, Throwable e) {
    String security = DatabaseSecurityErrors.advice(e, db.security().tls());
    if (security != null) {
      return new ConfigException(source + ": database: cannot connect to " + db + ": " + security);
    }
    SQLException sql = sqlCause(e);
    String check = switch (sql == null ? 0 : sql.getErrorCode()) {
      case 1049 -> "database.name: create that database first, or name the site's";
      case 1044, 1045, 1698 -> "database.user and its password (PAYNOTIFY_DATABASE_PASSWORD or database.password_file)"
          // MySQL refuses a password encrypted with another server's key as a wrong password
          + (db.security().publicKeyFile() != null ? ", and that database.server_public_key_file is this server's" : "");
      default -> "database.host, port, name, user and password";
    };
    return new ConfigException(source + ": database: cannot migrate " + db + ": " + rootMessage(e)
        + " (check " + check + ")");
  }

  /** The first SQLException in the chain: what the driver or the server said. */
  static SQLException sqlCause(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof SQLException sql) {
        return sql;
      }
    }
    return null;
  }

  private static String rootMessage(Throwable e) {
    Throwable root = sqlCause(e);
    if (root == null) {
      root = e;
      while (root.getCause() != null && root.getCause() != root) {
        root = root.getCause();
      }
    }
    return root.getMessage() == null ? root.toString() : root.getMessage().lines().findFirst().orElse("");
  }
}
