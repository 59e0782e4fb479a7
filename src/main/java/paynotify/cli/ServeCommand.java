package paynotify.cli;

import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.admin.Monitoring;
import paynotify.config.AppConfig.DatabaseSettings;
import paynotify.config.AppConfig;
import paynotify.config.ConfigException;
import paynotify.crypto.RsaSignatureCheck;
import paynotify.server.PayNotifyServer;
import paynotify.server.PortInUse;
import paynotify.setup.DatabaseWait;
import paynotify.setup.EmbeddedDatabase;
import paynotify.setup.IsolatedMigrations;
import paynotify.store.OrdersTable;
import picocli.CommandLine.Command;

/** Starts the service: config, (embedded) database, HTTP, then (waiting for the database) migrations. */
@Command(name = "serve", mixinStandardHelpOptions = true,
    description = "Start the notify service (Ctrl-C or SIGTERM stops it).")
final class ServeCommand extends CommandSupport {
  private static final Logger LOG = LoggerFactory.getLogger(ServeCommand.class);

  private EmbeddedDatabase embedded;

  /** Runs until stopped (exit 0); a configuration error stops the start with one line (exit 2). */
  @Override
  int run() throws Exception {
    AppConfig app = loadConfig();
    // With admin on, Vert.x reports its pools, HTTP server and the JVM to the /metrics registry.
    Monitoring monitoring = Monitoring.start(app.admin());
    Vertx vertx = monitoring.vertx();
    PayNotifyServer server;
    DatabaseSettings db;
    Duration grace;
    OrdersTable orders;
    try {
      orders = app.orders();
      grace = app.http().shutdownGrace();
      db = startDatabase(app.database());
      // Listening before the database answers: the platforms get 503 and retry, not a refused connection.
      // Main handed down: the daily close runs its reconcile as a process of its own, and no room below names cli
      server = PayNotifyServer.listen(monitoring, app, db, Main.class).await();
      String paths = app.channels().enabled().stream().map(ch -> ch.path()).collect(Collectors.joining(", "));
      LOG.info("paynotify listening on http://{}:{} ({})", app.http().host(), server.port(),
          paths.isEmpty() ? "no channel configured yet" : paths);
      app.channels().disabled().forEach((path, hint) -> LOG.info("{} is off: {}", path, hint));
      LOG.info("RSA signatures checked by {}", RsaSignatureCheck.engine());
      LOG.info(app.admin() == null ? "admin listener off (admin.port 0)" : "admin listener on http://"
          + app.admin().host() + ":" + server.adminPort() + " (/metrics, /status, /status.json; "
          + (app.admin().token() == null ? "no token: loopback Host only)" : "token required)"));
      warnIfRoot(app.database());
    } catch (Exception e) { // await() rethrows a bind failure as it is: a checked BindException
      vertx.close();
      stopEmbedded();
      if (PortInUse.taken(e)) { // the admin listener's is a ConfigException already
        throw PortInUse.http(config, app.http(), e);
      }
      throw e;
    }
    AtomicBoolean stopping = new AtomicBoolean();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      if (stopping.compareAndSet(false, true)) {
        LOG.info("stopping: no new connections, finishing requests in flight (at most {} ms)", grace.toMillis());
        stop(vertx, server, grace);
      }
      stopped.countDown();
    }, "paynotify-shutdown"));
    try {
      int applied = new DatabaseWait(vertx, db, config.toString())
          .until(() -> vertx.executeBlocking(() -> IsolatedMigrations.run(db, orders, app.channels().platforms(),
                  config.toString()), false)
              .compose(n -> server.open().map(n)))
          .await();
      LOG.info("database {} ready ({} migrations applied): booking notifications", db, applied);
    } catch (ConfigException e) {
      if (stopping.compareAndSet(false, true)) { // else SIGTERM came first: the hook stops
        stop(vertx, server, grace);
        throw e;
      }
    }
    stopped.await();
    return 0;
  }

  /**
   * root can read and change every database of the server, the site's users and grants included: a
   * service that parses what anyone sends should hold only what it needs. The embedded MariaDB (a
   * trial on loopback) has no other user.
   */
  private static void warnIfRoot(DatabaseSettings db) {
    if (!db.embedded() && "root".equals(db.user())) {
      LOG.warn("database.user is root: create a user with the grants of docs/integration.md (\"Install and start\")"
          + " and set database.user to it");
    }
  }

  /** The configuration, read with a Vert.x of its own: the service's is built from it (metrics or not). */
  private AppConfig loadConfig() {
    Vertx reader = Vertx.vertx();
    try {
      return AppConfig.load(reader, config, System.getenv()).await();
    } finally {
      reader.close().await();
    }
  }

  /** The HTTP server drains within {@code grace} (then cuts), then the pool closes: a bound either way. */
  private void stop(Vertx vertx, PayNotifyServer server, Duration grace) {
    try {
      server.stop().timeout(grace.toMillis() + 5_000, TimeUnit.MILLISECONDS).await();
    } catch (RuntimeException e) {
      LOG.warn("stop did not finish cleanly: {}", e.getMessage());
    }
    vertx.close().await();
    stopEmbedded();
  }

  private DatabaseSettings startDatabase(DatabaseSettings db) {
    if (!db.embedded()) {
      return db;
    }
    LOG.info("database.host is empty: starting the embedded MariaDB in {} (first start unpacks it)",
        db.embeddedDir().toAbsolutePath());
    try {
      embedded = EmbeddedDatabase.start(db.embeddedDir(), db.name());
    } catch (EmbeddedDatabase.InUse e) {
      throw new ConfigException(config + ": database.embedded.data_dir: " + e.getMessage() + ": give this one a"
          + " data_dir of its own, or both the site's database (database.host); README, \"A second instance on this"
          + " machine\"");
    } catch (EmbeddedDatabase.LeftRunning e) {
      throw new ConfigException(config + ": database.embedded.data_dir: " + e.getMessage());
    } catch (NoClassDefFoundError e) {
      throw new ConfigException(config + ": database.host: empty means the embedded MariaDB, which a release does not"
          + " carry (a clone's target/embedded-db, for trials); set database.host to your MySQL/MariaDB server");
    } catch (Exception e) {
      throw new ConfigException(config + ": database.embedded.data_dir: the embedded MariaDB did not start in "
          + db.embeddedDir().toAbsolutePath() + ": " + e.getMessage());
    }
    return db.at("127.0.0.1", embedded.port());
  }

  private void stopEmbedded() {
    if (embedded != null) {
      try {
        embedded.stop();
      } catch (Exception e) {
        LOG.warn("embedded MariaDB did not stop cleanly: {}", e.getMessage());
      }
    }
  }
}
