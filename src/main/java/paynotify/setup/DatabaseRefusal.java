package paynotify.setup;

import java.sql.SQLException;
import paynotify.config.AppConfig.DatabaseSettings;
import paynotify.config.ConfigException;

/**
 * Why the database cannot be used, in one line that names the keys to look at. Apart from
 * DatabaseMigrations: serve reads its failures here without loading Flyway (IsolatedMigrations).
 */
final class DatabaseRefusal {
  private DatabaseRefusal() {}

  /** The one line that says why the database cannot be used and which keys to look at. */
  static ConfigException of(DatabaseSettings db, String source, Throwable e) {
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
