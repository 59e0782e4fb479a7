package paynotify.config;

import io.vertx.config.ConfigRetriever;
import io.vertx.config.ConfigRetrieverOptions;
import io.vertx.config.ConfigStoreOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import paynotify.admin.AdminSettings;
import paynotify.booking.BookingSettings;
import paynotify.forward.ForwardSettings;
import paynotify.http.HttpSettings;
import paynotify.store.Database;
import paynotify.store.KeyPurge;
import paynotify.store.OrdersTable;

/**
 * The validated configuration (conf/application.yaml, overridden by PAYNOTIFY_* environment
 * variables). Built once at start; a problem stops the start with a {@link ConfigException}.
 */
public record AppConfig(
    HttpSettings http,
    int httpInstances,
    DatabaseSettings database,
    ChannelsConfig channels,
    Retention retention,
    BookingSettings booking,
    OrdersTable orders,
    ForwardSettings forward,
    AdminSettings admin,
    RecoveryConfig recovery,
    BillsConfig bills,
    AlertsConfig alerts) {

  /** An admin token shorter than this is guessable by whoever reaches the port (as forward.secret). */
  static final int MIN_ADMIN_TOKEN = 16;

  static final List<String> SECTIONS = List.of("http", "database", "alipay", "wechat_v2", "wechat_v3", "epay",
      "retention", "booking", "orders", "orders.columns", "orders.status_values", "forward", "admin", "stripe",
      "paypal", "xunhupay", "epusdt", "vmq", "recovery", "reconcile", "reconcile.daily", "alerts", "alerts.wecom",
      "alerts.dingtalk", "alerts.feishu", "alerts.telegram", "alerts.serverchan", "alerts.bark", "alerts.smtp",
      "paddle", "tokenpay", "lemonsqueezy", "creem");

  /**
   * Where the database is. {@code host == null} means the embedded MariaDB under
   * {@code embeddedDir}.
   */
  public record DatabaseSettings(String host, int port, String name, String user, String password, int poolSize,
      int maxWaitQueue, Duration connectTimeout, int lockWaitSeconds, Path embeddedDir, DatabaseSecurity security,
      String timeZone) {

    /** Without TLS or a server key (MariaDB, or the embedded server), in Beijing time. */
    public DatabaseSettings(String host, int port, String name, String user, String password, int poolSize,
        int maxWaitQueue, Duration connectTimeout, int lockWaitSeconds, Path embeddedDir) {
      this(host, port, name, user, password, poolSize, maxWaitQueue, connectTimeout, lockWaitSeconds, embeddedDir,
          DatabaseSecurity.NONE, Database.BEIJING);
    }

    public boolean embedded() {
      return host == null;
    }

    /** The JDBC address of these settings (migrations, the commands): TLS and the connect timeout included. */
    public String jdbcUrl() {
      return "jdbc:mariadb://" + host + ":" + port + "/" + name + "?connectTimeout=" + connectTimeout.toMillis()
          + security.jdbcParameters();
    }

    /** The same settings aimed at another server (the embedded one, once it runs). */
    public DatabaseSettings at(String newHost, int newPort) {
      return new DatabaseSettings(newHost, newPort, name, user, password, poolSize, maxWaitQueue, connectTimeout,
          lockWaitSeconds, embeddedDir, security, timeZone);
    }

    /** The same server with a pool of another size. */
    public DatabaseSettings withPool(int size, int waitQueue) {
      return new DatabaseSettings(host, port, name, user, password, size, waitQueue, connectTimeout, lockWaitSeconds,
          embeddedDir, security, timeZone);
    }

    /** The same, failing sooner when no connection can be had (or made). */
    public DatabaseSettings withConnectTimeout(Duration timeout) {
      return new DatabaseSettings(host, port, name, user, password, poolSize, maxWaitQueue, timeout, lockWaitSeconds,
          embeddedDir, security, timeZone);
    }

    @Override
    public String toString() { // never the password
      return (embedded() ? "embedded MariaDB in " + embeddedDir : user + "@" + host + ":" + port) + "/" + name;
    }
  }

  /**
   * How long keys, notify_log rows (refused requests' apart) and delivered events are kept, how often the
   * purge runs, and how many refused requests per endpoint and second leave a row.
   */
  public record Retention(Duration keys, Duration notifyLog, Duration rejected, Duration deliveredEvents,
      Duration purgeInterval, int batchSize, int rejectedRowsPerSecond) {}

  /** Reads {@code file} (YAML) with vertx-config, then validates it. */
  public static Future<AppConfig> load(Vertx vertx, Path file, Map<String, String> env) {
    return yaml(vertx, file).map(json -> from(json, file.toString(), env));
  }

  /**
   * The settings as read before any is checked: {@code file}'s YAML as JSON with the environment's
   * {@code PAYNOTIFY_*} laid over it, as {@link #from} reads them (for {@code paynotify doctor}, which looks at
   * what the start would refuse).
   */
  public static Future<JsonObject> settings(Vertx vertx, Path file, Map<String, String> env) {
    return yaml(vertx, file).map(json -> ConfigReader.withEnv(json, env, SECTIONS));
  }

  private static Future<JsonObject> yaml(Vertx vertx, Path file) {
    if (!Files.isRegularFile(file)) {
      return Future.failedFuture(new ConfigException(file + ": config file not found"));
    }
    ConfigStoreOptions yaml = new ConfigStoreOptions().setType("file").setFormat("yaml")
        .setConfig(new JsonObject().put("path", file.toString()));
    ConfigRetriever retriever = ConfigRetriever.create(vertx, new ConfigRetrieverOptions().addStore(yaml));
    return retriever.getConfig()
        .eventually(retriever::close)
        .recover(err -> Future.failedFuture(new ConfigException(file + ": not valid YAML: " + err.getMessage())));
  }

  public static AppConfig from(JsonObject yaml, String source, Map<String, String> env) {
    ConfigReader c = new ConfigReader(ConfigReader.withEnv(yaml, env, SECTIONS), source);
    AppConfig config = read(c);
    UnknownKeys.warn(yaml, source, c.keysRead()); // the file's keys only: never the environment's
    return config;
  }

  static AppConfig read(ConfigReader c) {
    HttpSettings http = new HttpSettings(
        c.string("http.host", "127.0.0.1"),
        c.integer("http.port", 8080, 0, 65535),
        // Platforms send a few KiB (the largest, WeChat v3 and Stripe events, well under 16): a larger
        // body is refused (413) before any byte of it is decoded.
        c.integer("http.max_body_bytes", 16 * 1024, 1024, 1024 * 1024),
        Duration.ofMillis(c.number("http.request_timeout_ms", 10_000, 100, 120_000)),
        c.bool("http.behind_proxy", false),
        Duration.ofMillis(c.number("http.shutdown_grace_ms", 10_000, 0, 120_000)));
    // One event loop by default: the pools' connections then live on the loop of the requests that use
    // them; with more, a statement's result often crosses to another loop's thread (scripts/bench.sh
    // --instances 2: a fifth more CPU per first delivery, a third more per duplicate).
    int instances = c.integer("http.instances", 1, 1, 64);
    OrdersTable orders = OrdersConfig.read(c);
    ChannelsConfig channels = ChannelsConfig.from(c, Clock.systemUTC(), orders.numbers(), orders.unit());
    OutboundConfig outbound = OutboundConfig.read(c, channels, MerchantKeys.read(c));
    return new AppConfig(http, instances, database(c), channels, retention(c),
        booking(c, orders),
        orders,
        ForwardConfig.read(c),
        admin(c, http),
        RecoveryConfig.read(c, channels, orders, outbound),
        BillsConfig.read(c, outbound),
        AlertsConfig.read(c));
  }

  /**
   * Null when admin.port is 0 (off). Unset, it follows http.port: a second instance on the machine, a copy
   * of the configuration with another http.port, has an admin port of its own without a second key to change.
   */
  private static AdminSettings admin(ConfigReader c, HttpSettings http) {
    boolean follows = c.string("admin.port") == null; // an empty value (PAYNOTIFY_ADMIN_PORT=) is unset too
    int port = follows ? followingPort(c, http) : c.integer("admin.port", 0, 0, 65535);
    if (port == 0) {
      return null;
    }
    if (port == http.port()) {
      throw c.error("admin.port", port + " is http.port: the admin listener (metrics, status) must never be the"
          + " public notify one; take another port, or 0 for off");
    }
    String host = c.string("admin.host", "127.0.0.1");
    String token = adminToken(c);
    if (token == null && !loopback(host)) {
      throw c.error("admin.host", host + " is not a loopback address: the status pages and metrics would be"
          + " anyone's; set admin.token_file (or PAYNOTIFY_ADMIN_TOKEN), or host: 127.0.0.1");
    }
    return new AdminSettings(host, port, token, follows);
  }

  /** http.port + 1; http.port 0 (any free port) and 65535 have no next port to follow. */
  private static int followingPort(ConfigReader c, HttpSettings http) {
    if (http.port() == 0 || http.port() == 65535) {
      throw c.error("admin.port", "unset, it is http.port + 1, and http.port " + http.port() + " has none:"
          + " set admin.port (0: off)");
    }
    return c.integer("admin.port", http.port() + 1, 1, 65535); // unset: the default, recorded as the key's
  }

  /**
   * Null: none (the listener then answers loopback Hosts only). Given but empty or short is refused:
   * an unexpanded variable must not silently mean "no token", and a short one is guessable.
   */
  private static String adminToken(ConfigReader c) {
    String token = c.inlineOrFile("admin.token");
    String key = c.string("admin.token_file") == null ? "admin.token" : "admin.token_file";
    if (token == null && c.given("admin.token")) {
      throw c.error("admin.token", "set but empty (PAYNOTIFY_ADMIN_TOKEN=\"\"?): give the token, or unset it for none");
    }
    if (token != null && token.isEmpty()) { // a file of blanks
      throw c.error(key, c.string(key) + " holds no token (only blanks)");
    }
    if (token != null && token.length() < MIN_ADMIN_TOKEN) {
      throw c.error(key, "the token has " + token.length() + " characters: use at least " + MIN_ADMIN_TOKEN
          + " random ones (e.g. openssl rand -hex 32)");
    }
    return token;
  }

  /** An address only this machine reaches: localhost, 127.0.0.0/8 or ::1 (a name is not resolved). */
  private static boolean loopback(String host) {
    if (host.equalsIgnoreCase("localhost")) {
      return true;
    }
    if (!host.matches("[0-9.]+") && !host.contains(":")) {
      return false; // a name: whatever it resolves to, possibly not loopback
    }
    try {
      return InetAddress.getByName(host).isLoopbackAddress(); // a literal: parsed, never looked up
    } catch (UnknownHostException e) {
      return false;
    }
  }

  private static BookingSettings booking(ConfigReader c, OrdersTable orders) {
    boolean closes = c.bool("booking.trade_closed_closes_order", false);
    if (closes && orders.values().closed() == null) {
      throw c.error("booking.trade_closed_closes_order", "true needs the value a closed order has:"
          + " orders.status_values.closed is empty");
    }
    return new BookingSettings(c.integer("booking.max_attempts", 3, 1, 10), closes);
  }

  private static DatabaseSettings database(ConfigReader c) {
    String host = c.string("database.host");
    String password = c.inlineOrFile("database.password");
    return new DatabaseSettings(
        host,
        c.integer("database.port", 3306, 1, 65535),
        c.string("database.name", "paynotify"),
        c.string("database.user", "root"),
        password == null ? "" : password,
        c.integer("database.pool_size", 8, 1, 100),
        c.integer("database.max_wait_queue", 256, 1, 100_000),
        Duration.ofMillis(c.number("database.connect_timeout_ms", 5_000, 100, 60_000)),
        c.integer("database.lock_wait_timeout_seconds", 5, 1, 50),
        Path.of(c.string("database.embedded.data_dir", "data/mariadb")),
        DatabaseSecurity.from(c),
        timeZone(c));
  }

  /** An offset such as +08:00: zone names need the server's time zone tables, which many servers lack. */
  private static String timeZone(ConfigReader c) {
    String zone = c.string("database.time_zone", Database.BEIJING);
    if (!zone.matches("[+-](0[0-9]|1[0-3]):[0-5][0-9]")) {
      throw c.error("database.time_zone", "'" + zone + "' is not an offset from UTC such as +08:00 or +00:00");
    }
    return zone;
  }

  private static Retention retention(ConfigReader c) {
    long logDays = c.number("retention.notify_log_days", 30, 1, 3650);
    // Anyone can send refused requests: their rows are a sample (rows per second) kept a few days.
    long rejectedDays = c.number("retention.rejected_days", Math.min(3, logDays), 1, 3650);
    if (rejectedDays > logDays) {
      throw c.error("retention.rejected_days", rejectedDays + " is longer than retention.notify_log_days ("
          + logDays + "), which purges every notify_log row");
    }
    return new Retention(
        Duration.ofDays(c.number("retention.idempotent_keys_days", 7, 1, 3650)),
        Duration.ofDays(logDays),
        Duration.ofDays(rejectedDays),
        Duration.ofDays(c.number("retention.forward_events_days", 30, 1, 3650)),
        Duration.ofSeconds(c.number("retention.purge_interval_seconds", 3600, 1, 86_400)),
        c.integer("retention.purge_batch_size", KeyPurge.MAX_BATCH, 1, KeyPurge.MAX_BATCH),
        c.integer("retention.rejected_rows_per_second", 10, 1, 100_000));
  }
}
