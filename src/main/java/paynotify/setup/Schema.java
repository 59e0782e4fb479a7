package paynotify.setup;

import java.sql.SQLException;
import java.util.Set;
import org.flywaydb.core.api.FlywayException;
import paynotify.channel.Platform;
import paynotify.config.AppConfig.DatabaseSettings;
import paynotify.config.ConfigException;
import paynotify.setup.migrate.DatabaseMigrations;
import paynotify.store.OrdersTable;

/**
 * The schema brought up to date in this class loader, for the commands (and the tests): a short-lived
 * process keeps nothing of Flyway for long. {@code serve} uses {@link IsolatedMigrations} instead.
 */
public final class Schema {
  private Schema() {}

  /**
   * Migrates, then checks the site's orders table.
   *
   * @param orders the site's orders table, as mapped
   * @param platforms those of the enabled channels, whose trade numbers go into the orders table
   * @param source where the settings came from, for the error message
   * @return the number of migrations applied
   * @throws ConfigException the one line of {@link DatabaseRefusal} when the database cannot be used
   */
  public static int migrate(DatabaseSettings db, OrdersTable orders, Set<Platform> platforms, String source) {
    try {
      return DatabaseMigrations.run(db, orders, platforms, source);
    } catch (FlywayException | IllegalStateException | SQLException e) {
      throw DatabaseRefusal.of(db, source, e);
    }
  }
}
