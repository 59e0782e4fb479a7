package paynotify.app;

import java.sql.SQLException;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.output.MigrateResult;
import paynotify.app.AppConfig.DatabaseSettings;

/** Brings the schema up to date with the Flyway scripts in migrations/ (shipped in the jar). */
public final class DatabaseMigrations {
  private DatabaseMigrations() {}

  public static String jdbcUrl(DatabaseSettings db) {
    return "jdbc:mariadb://" + db.host() + ":" + db.port() + "/" + db.name()
        + "?connectTimeout=" + db.connectTimeout().toMillis();
  }

  /**
   * Migrates, then checks the site's orders table ({@link OrdersTableCheck}).
   *
   * @param source where the settings came from, for the error message
   * @return the number of migrations applied
   */
  public static int migrate(DatabaseSettings db, String source) {
    Flyway flyway = Flyway.configure()
        .dataSource(jdbcUrl(db), db.user(), db.password())
        .locations("classpath:db/migration")
        // A site database already holds its own tables (orders at least): start our history there.
        .baselineOnMigrate(true)
        .baselineVersion("0")
        .connectRetries(0)
        .load();
    try {
      MigrateResult result = flyway.migrate();
      OrdersTableCheck.check(db, source);
      return result.migrationsExecuted;
    } catch (FlywayException e) {
      throw new ConfigException(source + ": database: cannot migrate " + db + ": " + rootMessage(e)
          + " (check database.host, port, name, user and password)");
    }
  }

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
      if (root instanceof SQLException) {
        break;
      }
    }
    return root.getMessage() == null ? root.toString() : root.getMessage().lines().findFirst().orElse("");
  }
}
