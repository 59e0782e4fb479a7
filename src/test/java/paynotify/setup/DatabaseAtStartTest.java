package paynotify.setup;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import paynotify.cli.ExitCode;
import paynotify.config.AppConfig.DatabaseSettings;
import paynotify.testsupport.ChannelFixture;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.Http;
import paynotify.testsupport.ServiceProcess;
import paynotify.testsupport.TcpRelay;

/**
 * A database that does not answer yet at start (MariaDB still booting after a reboot) is waited
 * for in a real process: 503 meanwhile, then migrate and serve without a restart. A database that
 * answers but refuses the settings is a configuration error: exit 2 and one line.
 */
class DatabaseAtStartTest extends DatabaseTestBase {
  /** A database of its own, created empty, so that the process really migrates it once it is reached. */
  private static final String LATE = "paynotify_late";
  private static final ChannelFixture alipay = ChannelFixture.alipay();

  @TempDir
  Path dir;

  @AfterEach
  void dropWhatTheTestsMade() {
    db.update("DROP DATABASE IF EXISTS " + LATE);
    if (!db.isEmbedded()) {
      db.update("DROP USER IF EXISTS 'paynotify_probe'@'%'");
    }
  }

  @Test
  void databaseThatComesUpLateIsWaitedFor() throws Exception {
    db.update("DROP DATABASE IF EXISTS " + LATE);
    db.update("CREATE DATABASE " + LATE + " CHARACTER SET utf8mb4");
    DatabaseSettings real = db.settings();
    int dbPort = ServiceProcess.freePort(); // nothing listens there until the relay opens
    DatabaseSettings late = settings("127.0.0.1", dbPort, LATE, real.user(), real.password());
    try (ServiceProcess service = ServiceProcess.start(late, new JsonObject(), dir)) {
      service.awaitHealth(503, Duration.ofSeconds(30));
      assertThat(service.awaitLogLine("does not answer", Duration.ofSeconds(30)))
          .contains("root@127.0.0.1:" + dbPort, "Connection refused", "check that MariaDB/MySQL runs", "database.port");
      Http.Reply refused = Http.send(service.port(), alipay.payment("LATE1", "2026113022001400000000000001", 100, 0));
      assertThat(refused.status()).isEqualTo(503);
      assertThat(refused.body()).isEqualTo("fail");

      try (TcpRelay relay = TcpRelay.open(dbPort, real.host(), real.port())) {
        Duration toHealthy = service.awaitHealth(200, Duration.ofSeconds(45));
        System.out.printf("database reachable -> /health 200 in %d ms%n", toHealthy.toMillis());
        assertThat(db.count("SELECT COUNT(*) FROM " + LATE + ".flyway_schema_history WHERE success")).isPositive();

        db.update("INSERT INTO " + LATE + ".orders (order_no, amount_cents) VALUES ('LATE1', 100)");
        Http.Reply booked = Http.send(service.port(), alipay.payment("LATE1", "2026113022001400000000000001", 100, 1));
        assertThat(alipay.success()).accepts(booked);
        assertThat(db.string("SELECT status FROM " + LATE + ".orders WHERE order_no = 'LATE1'")).isEqualTo("paid");

        service.terminate();
        service.exitCode(Duration.ofSeconds(30));
      }
    }
  }

  @Test
  void unknownDatabaseStopsTheStart() throws Exception {
    DatabaseSettings real = db.settings();
    assertThat(refusedAtStart(settings(real.host(), real.port(), "paynotify_no_such_db", real.user(), real.password())))
        .contains("Unknown database 'paynotify_no_such_db'", "check database.name");
  }

  @Test
  void wrongPasswordStopsTheStart() throws Exception {
    try {
      db.update("CREATE USER IF NOT EXISTS 'paynotify_probe'@'%' IDENTIFIED BY 'the-right-one'");
    } catch (IllegalStateException e) {
      // The embedded MariaDB runs with --skip-grant-tables (any password passes): the external server checks.
      Assumptions.assumeFalse(String.valueOf(e.getCause().getMessage()).contains("skip-grant-tables"));
      throw e;
    }
    DatabaseSettings real = db.settings();
    assertThat(refusedAtStart(settings(real.host(), real.port(), real.name(), "paynotify_probe", "not-the-right-one")))
        .contains("Access denied", "check database.user and its password");
  }

  /**
   * Flyway's refusal (a history that does not match the scripts) is an answer, not a database still
   * booting: exit 2, though Flyway's exception is of the class loader serve migrates in, not ours.
   */
  @Test
  void aHistoryFlywayRefusesStopsTheStart() throws Exception {
    DatabaseSettings real = db.settings();
    DatabaseSettings late = settings(real.host(), real.port(), LATE, real.user(), real.password());
    db.update("CREATE DATABASE " + LATE);
    Schema.migrate(late, paynotify.store.OrdersTable.byDefault(), Set.of(), "test");
    db.update("UPDATE " + LATE + ".flyway_schema_history SET checksum = checksum + 1 WHERE version = '1'");
    assertThat(refusedAtStart(late)).contains("cannot migrate", "Validate failed");
  }

  /**
   * Flyway and the JDBC driver serve only the start: once the service books, none of their classes is
   * loaded (IsolatedMigrations), after a start that had to wait and try again.
   */
  @Test
  void flywayAndTheDriverAreUnloadedOnceServing() throws Exception {
    DatabaseSettings real = db.settings();
    int dbPort = ServiceProcess.freePort();
    try (ServiceProcess service = ServiceProcess.start(settings("127.0.0.1", dbPort, real.name(), real.user(),
        real.password()), new JsonObject(), dir)) {
      service.awaitLogLine("does not answer (attempt 2)", Duration.ofSeconds(30));
      try (TcpRelay relay = TcpRelay.open(dbPort, real.host(), real.port())) {
        service.awaitHealth(200, Duration.ofSeconds(45));
        service.awaitLogLine("ready (", Duration.ofSeconds(10));
        // One more full collection first: the service's own (IsolatedMigrations) may meet a worker still
        // unwinding on a loaded machine (seen once in four full runs); held by anything, the classes stay.
        String jcmdPath = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
        Process gc = new ProcessBuilder(jcmdPath, Long.toString(service.pid()), "GC.run").redirectErrorStream(true)
            .start();
        assertThat(gc.waitFor()).as(new String(gc.getInputStream().readAllBytes())).isZero();
        Process jcmd = new ProcessBuilder(jcmdPath,
            Long.toString(service.pid()), "VM.class_hierarchy").redirectErrorStream(true).start();
        String classes = new String(jcmd.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(jcmd.waitFor()).as(classes).isZero();
        assertThat(classes).contains("paynotify.cli.ServeCommand", "io.vertx.mysqlclient")
            .doesNotContain("org.flywaydb.", "org.mariadb.jdbc.", "paynotify.setup.migrate.");
      }
    }
  }

  /** Exit 2 at once with one line on the database: no waiting for a server that answered no. */
  private String refusedAtStart(DatabaseSettings settings) throws Exception {
    try (ServiceProcess service = ServiceProcess.start(settings, new JsonObject(), dir)) {
      assertThat(service.exitCode(Duration.ofSeconds(60))).isEqualTo(ExitCode.UNUSABLE);
      assertThat(service.lastErrorLine()).startsWith("paynotify: " + dir.resolve("application.yaml") + ": database: ");
      return service.lastErrorLine();
    }
  }

  private static DatabaseSettings settings(String host, int port, String name, String user, String password) {
    return new DatabaseSettings(host, port, name, user, password, 8, 256, Duration.ofSeconds(1), 5, null);
  }
}
