package paynotify.setup;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.DatabaseException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.config.AppConfig.DatabaseSettings;
import paynotify.config.ConfigException;

/**
 * Waits at start for a database that does not answer yet (after a reboot MariaDB may come up
 * after us): tries again after 1 s, 2 s, 4 s ... at most 30 s apart, one log line per attempt
 * that says what to check. A server that answers and refuses (access denied, unknown database, a
 * schema Flyway cannot migrate) is a configuration error: waiting would not fix it.
 */
public final class DatabaseWait {
  private static final Logger LOG = LoggerFactory.getLogger(DatabaseWait.class);
  static final Duration FIRST_DELAY = Duration.ofSeconds(1);
  static final Duration MAX_DELAY = Duration.ofSeconds(30);
  private static final String FLYWAY_EXCEPTION = "org.flywaydb.core.api.FlywayException";

  private final Vertx vertx;
  private final DatabaseSettings db;
  private final String source;

  /** @param source where the settings came from, for the error message */
  public DatabaseWait(Vertx vertx, DatabaseSettings db, String source) {
    this.vertx = vertx;
    this.db = db;
    this.source = source;
  }

  /**
   * Runs {@code attempt} until it succeeds; fails with a {@link ConfigException} as soon as the
   * database refuses the settings.
   */
  public <T> Future<T> until(Supplier<Future<T>> attempt) {
    return tryAgain(attempt, 1, FIRST_DELAY);
  }

  private <T> Future<T> tryAgain(Supplier<Future<T>> attempt, int n, Duration delay) {
    return attempt.get().recover(err -> {
      if (!notUpYet(err)) {
        return Future.failedFuture(err instanceof ConfigException ? err : DatabaseRefusal.of(db, source, err));
      }
      SQLException said = DatabaseRefusal.sqlCause(err);
      LOG.warn("database {} does not answer (attempt {}): {}; check that MariaDB/MySQL runs and accepts "
              + "connections on {}:{} (database.host, database.port); trying again in {} s, "
              + "/health and notifications answer 503 until then",
          db, n, said == null ? err.toString() : said.getMessage(), db.host(), db.port(), delay.toSeconds());
      Duration next = delay.multipliedBy(2).compareTo(MAX_DELAY) > 0 ? MAX_DELAY : delay.multipliedBy(2);
      return vertx.timer(delay.toMillis()).compose(t -> tryAgain(attempt, n + 1, next));
    });
  }

  /**
   * A failure to reach the server (refused, timed out, no route, the server starting or full) as
   * opposed to an answer from it. The driver marks the former with SQL state class 08.
   */
  static boolean notUpYet(Throwable err) {
    // TLS or the server key: the JDBC refusal says 08000, but only a setting changes it. (The server's "Bad
    // handshake" to a TLS request is an answer, below, whatever database.tls.)
    if (DatabaseSecurityErrors.advice(err, false) != null) {
      return false;
    }
    for (Throwable t = err; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof SQLException sql) {
        return sql.getSQLState() != null && sql.getSQLState().startsWith("08");
      }
      if (t instanceof DatabaseException || t instanceof ConfigException) {
        return false; // the server answered with an error
      }
    }
    // Flyway's own refusals (a failed validation, a broken migration) carry no SQLException. By name:
    // Flyway's classes are IsolatedMigrations' loader's, not this class's.
    for (Class<?> c = err.getClass(); c != null; c = c.getSuperclass()) {
      if (c.getName().equals(FLYWAY_EXCEPTION)) {
        return false;
      }
    }
    return true;
  }
}
