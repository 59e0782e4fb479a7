package paynotify.app;

import io.vertx.core.Vertx;
import java.net.BindException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.app.AppConfig.DatabaseSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Starts the service: config, (embedded) database, migrations, HTTP. */
@Command(name = "serve", mixinStandardHelpOptions = true,
    description = "Start the notify service (Ctrl-C or SIGTERM stops it).")
final class ServeCommand implements Callable<Integer> {
  private static final Logger LOG = LoggerFactory.getLogger(ServeCommand.class);
  /** Exit code for a configuration or environment problem the operator must fix. */
  static final int CONFIG_ERROR = 2;

  @Option(names = "--config", defaultValue = "conf/application.yaml",
      description = "YAML configuration file (default: ${DEFAULT-VALUE}).")
  Path config;

  private EmbeddedDatabase embedded;

  @Override
  public Integer call() throws InterruptedException {
    Vertx vertx = Vertx.vertx();
    PayNotifyServer server;
    try {
      AppConfig app = AppConfig.load(vertx, config, System.getenv()).await();
      DatabaseSettings db = startDatabase(app.database());
      int applied = DatabaseMigrations.migrate(db, config.toString());
      LOG.info("database {} ready ({} migrations applied)", db, applied);
      server = PayNotifyServer.start(vertx, app, db).await();
      String paths = app.channels().enabled().stream().map(ch -> ch.path()).collect(Collectors.joining(", "));
      LOG.info("paynotify listening on http://{}:{} ({})", app.http().host(), server.port(),
          paths.isEmpty() ? "no channel configured yet" : paths);
      app.channels().disabled().forEach((path, hint) -> LOG.info("{} is off: {}", path, hint));
    } catch (ConfigException e) {
      return stopWith(vertx, e.getMessage());
    } catch (RuntimeException e) {
      if (e.getCause() instanceof BindException || e instanceof io.vertx.core.VertxException
          && String.valueOf(e.getMessage()).contains("Address already in use")) {
        return stopWith(vertx, config + ": http.port: the port is already in use (" + e.getMessage() + ")");
      }
      throw e;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      LOG.info("stopping: finishing requests in flight");
      try {
        server.stop().timeout(10, TimeUnit.SECONDS).await();
      } catch (RuntimeException e) {
        LOG.warn("requests still in flight after 10 s were cut off: {}", e.getMessage());
      }
      vertx.close().await();
      stopEmbedded();
      stopped.countDown();
    }, "paynotify-shutdown"));
    stopped.await();
    return 0;
  }

  private DatabaseSettings startDatabase(DatabaseSettings db) {
    if (!db.embedded()) {
      return db;
    }
    LOG.info("database.host is empty: starting the embedded MariaDB in {} (first start unpacks it)",
        db.embeddedDir().toAbsolutePath());
    try {
      embedded = EmbeddedDatabase.start(db.embeddedDir(), db.name());
    } catch (NoClassDefFoundError e) {
      throw new ConfigException(config + ": database.host: empty means the embedded MariaDB, which is not "
          + "installed here (target/embedded-db); set database.host to your MySQL/MariaDB server");
    } catch (Exception e) {
      throw new ConfigException(config + ": database.embedded.data_dir: the embedded MariaDB did not start in "
          + db.embeddedDir().toAbsolutePath() + ": " + e.getMessage());
    }
    return db.at("127.0.0.1", embedded.port());
  }

  private int stopWith(Vertx vertx, String message) {
    System.err.println("paynotify: " + message);
    vertx.close();
    stopEmbedded();
    return CONFIG_ERROR;
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
