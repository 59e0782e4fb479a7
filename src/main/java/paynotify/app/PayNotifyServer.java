package paynotify.app;

import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClientOptions;
import io.vertx.mysqlclient.MySQLConnectOptions;
import io.vertx.sqlclient.PoolOptions;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import paynotify.app.AppConfig.DatabaseSettings;
import paynotify.booking.EventBooking;
import paynotify.booking.PendingRefundCheck;
import paynotify.http.NotifyVerticle;
import paynotify.store.Database;
import paynotify.store.KeyPurge;
import paynotify.store.RejectedLog;
import paynotify.store.SqlQueries;

/**
 * The running service on one Vert.x instance: the database pool, the notify verticle (one
 * instance per event loop, sharing the port and the pool) and the housekeeping timer.
 */
public final class PayNotifyServer {
  private final Vertx vertx;
  private final Database db;
  private final String deploymentId;
  private final int port;
  private final long housekeepingTimer;
  private final KeyPurge purge;
  private final PendingRefundCheck pendingRefunds;
  private final RejectedLog rejected;

  private PayNotifyServer(Vertx vertx, Database db, String deploymentId, int port, long housekeepingTimer,
      KeyPurge purge, PendingRefundCheck pendingRefunds, RejectedLog rejected) {
    this.vertx = vertx;
    this.db = db;
    this.deploymentId = deploymentId;
    this.port = port;
    this.housekeepingTimer = housekeepingTimer;
    this.purge = purge;
    this.pendingRefunds = pendingRefunds;
    this.rejected = rejected;
  }

  /** Starts on an already migrated database; fails if it does not answer. */
  public static Future<PayNotifyServer> start(Vertx vertx, AppConfig config, DatabaseSettings db) {
    Database database = connect(vertx, db);
    EventBooking booking = new EventBooking(vertx, database, config.booking());
    AtomicReference<NotifyVerticle> first = new AtomicReference<>();
    AppConfig.Retention r = config.retention();
    KeyPurge purge = new KeyPurge(database, r.keys(), r.notifyLog(), r.batchSize());
    PendingRefundCheck pendingRefunds = new PendingRefundCheck(database, r.keys());
    // Refused requests are recorded on a connection of their own: a flood never takes the booking pool.
    RejectedLog rejected = new RejectedLog(vertx, connect(vertx, db.withPool(1, 1)), RejectedLog.CAPACITY,
        RejectedLog.REPORT_PERIOD);
    return database.inTransaction(conn -> conn.query(SqlQueries.PING).execute())
        .recover(err -> Future.failedFuture(new ConfigException(
            "database: " + db + " does not answer: " + err.getMessage())))
        .compose(ok -> vertx.deployVerticle(() -> {
          NotifyVerticle verticle = new NotifyVerticle(config.http(), config.channels().enabled(), config.channels().disabled(), database, booking, rejected);
          first.compareAndSet(null, verticle);
          return verticle;
        }, new DeploymentOptions().setInstances(config.httpInstances())))
        .map(id -> new PayNotifyServer(vertx, database, id, first.get().actualPort(),
            new Housekeeping(purge, pendingRefunds).schedule(vertx, r.purgeInterval()), purge, pendingRefunds, rejected))
        .onFailure(err -> rejected.close().eventually(database::close));
  }

  static Database connect(Vertx vertx, DatabaseSettings db) {
    MySQLConnectOptions connect = new MySQLConnectOptions()
        .setHost(db.host())
        .setPort(db.port())
        .setDatabase(db.name())
        .setUser(db.user())
        .setPassword(db.password())
        .setCharset("utf8mb4")
        .setCachePreparedStatements(true)
        .setUseAffectedRows(true); // rowCount() = rows changed, which is what the races are decided by
    // The defaults (unbounded wait queue, 30 s to get a connection) would let a stalled database
    // pile up requests; bounded, a notification fails fast and the platform retries.
    PoolOptions options = new PoolOptions()
        .setMaxSize(db.poolSize())
        .setMaxWaitQueueSize(db.maxWaitQueue())
        .setConnectionTimeout((int) db.connectTimeout().toMillis())
        .setConnectionTimeoutUnit(TimeUnit.MILLISECONDS)
        .setIdleTimeout(300) // below any server's wait_timeout
        .setIdleTimeoutUnit(TimeUnit.SECONDS)
        .setPoolCleanerPeriod(10_000);
    NetClientOptions tcp = new NetClientOptions().setConnectTimeout((int) db.connectTimeout().toMillis());
    return Database.connect(vertx, connect, options, tcp, Database.sessionSetup(db.lockWaitSeconds()));
  }

  public int port() {
    return port;
  }

  public KeyPurge purge() {
    return purge;
  }

  public PendingRefundCheck pendingRefunds() {
    return pendingRefunds;
  }

  public RejectedLog rejectedLog() {
    return rejected;
  }

  /** Stops taking notifications, then closes the pool (in-flight transactions finish first). */
  public Future<Void> stop() {
    vertx.cancelTimer(housekeepingTimer);
    return vertx.undeploy(deploymentId).eventually(rejected::close).eventually(db::close);
  }
}
