package paynotify.setup.migrate;

import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import org.flywaydb.core.Flyway;
import paynotify.channel.Platform;
import paynotify.config.AppConfig.DatabaseSettings;
import paynotify.config.ConfigException;
import paynotify.store.OrdersTable;

/** Brings the schema up to date with the Flyway scripts in migrations/ (shipped in the jar). */
public final class DatabaseMigrations {
  private DatabaseMigrations() {}

  /**
   * Migrates and checks the orders table; a failure to reach the database is thrown as it is, for
   * a caller that waits for a database not up yet. A table that will not do is a {@link ConfigException}.
   */
  public static int run(DatabaseSettings db, OrdersTable orders, Set<Platform> platforms, String source)
      throws SQLException {
    int applied = MigrationLease.around(db, () -> Flyway.configure(DatabaseMigrations.class.getClassLoader())
        .dataSource(db.jdbcUrl(), db.user(), db.password())
        .locations("classpath:db/migration")
        // A site database already holds its own tables (orders at least): start our history there.
        .baselineOnMigrate(true)
        .baselineVersion("0")
        .placeholders(Map.of("time_zone", db.timeZone())) // the sessions' zone, for V10's move to UTC
        .connectRetries(0)
        .load()
        .migrate()
        .migrationsExecuted);
    OrdersTableCheck.check(db, orders, platforms, source);
    return applied;
  }

  /**
   * {@link #run} in {@code setup.IsolatedMigrations}' class loader: the driver is registered first (its loader
   * is new, DriverManager knows only the drivers of loaders before it) and deregistered after, so that
   * DriverManager holds nothing of the loader that is dropped. Public: IsolatedMigrations calls it from
   * the application's loader, another runtime package than this class's there.
   */
  public static int runAndRelease(DatabaseSettings db, OrdersTable orders, Set<Platform> platforms, String source)
      throws SQLException {
    ClassLoader own = DatabaseMigrations.class.getClassLoader();
    try {
      Class.forName("org.mariadb.jdbc.Driver", true, own);
      return run(db, orders, platforms, source);
    } catch (ClassNotFoundException e) {
      throw new ConfigException("the MariaDB JDBC driver is missing from the class path: the installation is"
          + " incomplete; build it again (mvn -DskipTests package) and copy target/lib");
    } finally {
      for (Driver driver : Collections.list(DriverManager.getDrivers())) {
        if (driver.getClass().getClassLoader() == own) {
          DriverManager.deregisterDriver(driver);
        }
      }
    }
  }
}
