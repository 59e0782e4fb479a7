package paynotify.setup.migrate;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import paynotify.config.AppConfig.DatabaseSettings;

/**
 * A JDBC connection to the configured database: the migrations, the start checks and the commands.
 * Here, not in the settings, because DriverManager hands a driver only to a caller of the driver's
 * class loader: in {@code serve} this class is loaded by IsolatedMigrations' loader, with the driver.
 */
public final class Jdbc {
  private Jdbc() {}

  public static Connection open(DatabaseSettings db) throws SQLException {
    return open(db, "");
  }

  /** @param moreParameters appended to the address, each as {@code &name=value} */
  public static Connection open(DatabaseSettings db, String moreParameters) throws SQLException {
    return DriverManager.getConnection(db.jdbcUrl() + moreParameters, db.user(), db.password());
  }
}
