package paynotify.setup.migrate;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.config.AppConfig.DatabaseSettings;
import paynotify.store.GaleraSessions;
import paynotify.store.SqlQueries;

/**
 * One instance at a time migrates a Galera cluster. Flyway's lock cannot do it there: under wsrep_on it
 * leaves GET_LOCK (local to a node) for a locking read of its history table, which is local to a node
 * too. Instances started at once on two nodes would both migrate, and the loser dies of a deadlock
 * half-way with a failed migration in the history. A row write is different: it is certified in one
 * order across the cluster. So the instance whose lease row commits first migrates; the others wait
 * until it lets go, then run Flyway and find nothing left to do. The lease runs out when its holder
 * dies ({@link #TERM}); while held it is renewed.
 *
 * <p>A single server needs none of this (Flyway's GET_LOCK works there): nothing is written there.
 */
final class MigrationLease {
  private static final Logger LOG = LoggerFactory.getLogger(MigrationLease.class);
  static final Duration TERM = Duration.ofSeconds(60);
  private static final Duration POLL = Duration.ofMillis(500);

  private MigrationLease() {}

  /** Runs {@code migrate}, holding the lease on a Galera cluster. */
  static <T> T around(DatabaseSettings db, Supplier<T> migrate) throws SQLException {
    try (Connection conn = Jdbc.open(db)) {
      if (!isGalera(conn)) {
        return migrate.get();
      }
      try (Statement s = conn.createStatement()) {
        s.execute(GaleraSessions.CAUSAL_READS); // the holder read is the one another node just wrote
        s.execute(SqlQueries.CREATE_MIGRATION_LEASE);
      }
      String owner = ProcessHandle.current().pid() + ":" + UUID.randomUUID();
      take(conn, owner);
      ScheduledExecutorService renewer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "migration-lease");
        t.setDaemon(true);
        return t;
      });
      renewer.scheduleAtFixedRate(() -> renew(conn, owner), TERM.toSeconds() / 3, TERM.toSeconds() / 3,
          TimeUnit.SECONDS);
      try {
        return migrate.get();
      } finally {
        renewer.shutdownNow();
        // a renewal under way ends first: both hold this class's lock
        update(conn, SqlQueries.RELEASE_MIGRATION_LEASE, owner);
        awaitEnd(renewer); // its thread runs this class's code: serve's migration loader is unloaded after
      }
    }
  }

  private static void awaitEnd(ScheduledExecutorService renewer) {
    try {
      renewer.awaitTermination(POLL.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static boolean isGalera(Connection conn) throws SQLException {
    try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery(GaleraSessions.DETECT)) {
      return rs.next() && GaleraSessions.isOn(rs.getString(2));
    }
  }

  /** Waits until this owner holds the lease. */
  private static void take(Connection conn, String owner) throws SQLException {
    boolean told = false;
    while (true) {
      try {
        update(conn, SqlQueries.TAKE_MIGRATION_LEASE, owner, TERM.toSeconds());
      } catch (SQLException e) {
        if (e.getErrorCode() != 1213) { // two takes certified at once: one lost, the next round decides
          throw e;
        }
      }
      String holder = holder(conn);
      if (owner.equals(holder)) {
        return;
      }
      if (!told) {
        LOG.info("another instance ({}) migrates the database (Galera: migration_lease); waiting for it", holder);
        told = true;
      }
      try {
        Thread.sleep(POLL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for the migration lease", e);
      }
    }
  }

  private static String holder(Connection conn) throws SQLException {
    try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery(SqlQueries.MIGRATION_LEASE_HOLDER)) {
      return rs.next() ? rs.getString(1) : null;
    }
  }

  private static synchronized void renew(Connection conn, String owner) {
    try {
      update(conn, SqlQueries.RENEW_MIGRATION_LEASE, TERM.toSeconds(), owner);
    } catch (SQLException e) {
      LOG.warn("migration lease not renewed (another instance may take it over in {} s): {}", TERM.toSeconds(),
          e.getMessage());
    }
  }

  private static synchronized void update(Connection conn, String sql, Object... args) throws SQLException {
    try (PreparedStatement ps = conn.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        ps.setObject(i + 1, args[i]);
      }
      ps.executeUpdate();
    }
  }
}
