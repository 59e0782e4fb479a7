package paynotify.cli;

import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import paynotify.config.AppConfig.DatabaseSettings;
import paynotify.config.AppConfig;
import paynotify.config.ConfigException;
import paynotify.config.ToolUser;
import paynotify.setup.EmbeddedDatabase;
import paynotify.setup.Schema;
import paynotify.setup.migrate.Jdbc;
import paynotify.store.Database;

/**
 * The database, for the command-line tools: the configured server, or the embedded one (the
 * running service's, found by the port it recorded; else started for the command's duration).
 */
final class CliDatabase implements AutoCloseable {
  private final AppConfig config;
  private final DatabaseSettings settings;
  private final EmbeddedDatabase started;

  private CliDatabase(AppConfig config, DatabaseSettings settings, EmbeddedDatabase started) {
    this.config = config;
    this.settings = settings;
    this.started = started;
  }

  static CliDatabase open(Path configFile) {
    Vertx vertx = Vertx.vertx();
    AppConfig config;
    try {
      config = AppConfig.load(vertx, configFile, System.getenv()).await();
    } finally {
      vertx.close().await();
    }
    return open(configFile, config);
  }

  /** The database of {@code config}, read from {@code configFile}. */
  static CliDatabase open(Path configFile, AppConfig config) {
    ToolUser.refuseRoot(config, configFile);
    DatabaseSettings db = config.database();
    EmbeddedDatabase started = null;
    if (db.embedded()) {
      Integer port = EmbeddedDatabase.runningPort(db.embeddedDir());
      if (port != null && answers(db.at("127.0.0.1", port))) {
        db = db.at("127.0.0.1", port);
      } else {
        try {
          started = EmbeddedDatabase.start(db.embeddedDir(), db.name());
        } catch (Exception | NoClassDefFoundError e) {
          throw new ConfigException(configFile + ": database.host: empty means the embedded MariaDB, which did not"
              + " start (" + e.getMessage() + "); set database.host to your MySQL/MariaDB server");
        }
        db = db.at("127.0.0.1", started.port());
      }
    }
    Schema.migrate(db, config.orders(), config.channels().platforms(), configFile.toString());
    return new CliDatabase(config, db, started);
  }

  private static boolean answers(DatabaseSettings db) {
    try {
      reach(db);
      return true;
    } catch (SQLException e) {
      return false;
    }
  }

  /** Connects to {@code db} and lets go: throws what the driver or the server said when it cannot. */
  static void reach(DatabaseSettings db) throws SQLException {
    try (Connection ignored = Jdbc.open(db)) {
      // answered
    }
  }

  AppConfig config() {
    return config;
  }

  DatabaseSettings settings() {
    return settings;
  }

  /**
   * A new JDBC connection; batches are sent as multi-row statements. Its session is pinned like the
   * service's (isolation, strict sql_mode), never the server's defaults.
   */
  Connection connect() throws SQLException {
    Connection conn = Jdbc.open(settings, "&rewriteBatchedStatements=true");
    try (Statement session = conn.createStatement()) {
      conn.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
      session.execute("SET SESSION sql_mode = '" + Database.SQL_MODE + "', time_zone = '" + settings.timeZone() + "'");
    } catch (SQLException e) {
      conn.close();
      throw e;
    }
    return conn;
  }

  @Override
  public void close() throws Exception {
    if (started != null) {
      started.stop();
    }
  }

}
