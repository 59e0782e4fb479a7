package paynotify.app;

import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClientOptions;
import io.vertx.mysqlclient.MySQLBuilder;
import io.vertx.mysqlclient.MySQLConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import paynotify.app.AppConfig.DatabaseSettings;
import paynotify.booking.EventBooking;
import paynotify.channel.NotifyChannel;
import paynotify.channel.alipay.AlipayChannel;
import paynotify.channel.alipay.AlipaySignature;
import paynotify.http.NotifyVerticle;
import paynotify.store.KeyPurge;

/**
 * The running service on one Vert.x instance: the database pool, the notify verticle (one
 * instance per event loop, sharing the port and the pool) and the purge timer.
 */
public final class PayNotifyServer {
  private final Vertx vertx;
  private final Pool pool;
  private final String deploymentId;
  private final int port;
  private final long purgeTimer;
  private final KeyPurge purge;

  private PayNotifyServer(Vertx vertx, Pool pool, String deploymentId, int port, long purgeTimer, KeyPurge purge) {
    this.vertx = vertx;
    this.pool = pool;
    this.deploymentId = deploymentId;
    this.port = port;
    this.purgeTimer = purgeTimer;
    this.purge = purge;
  }

  /** Starts on an already migrated database; fails if it does not answer. */
  public static Future<PayNotifyServer> start(Vertx vertx, AppConfig config, DatabaseSettings db) {
    Pool pool = createPool(vertx, db);
    EventBooking booking = new EventBooking(vertx, pool, config.bookingAttempts());
    Map<String, NotifyChannel> channels = new LinkedHashMap<>();
    Map<String, String> disabled = new LinkedHashMap<>();
    if (config.alipay() != null) {
      AppConfig.AlipaySettings a = config.alipay();
      channels.put(AlipayChannel.NAME,
          new AlipayChannel(new AlipaySignature(a.publicKey(), a.algorithm()), a.appId(), a.sellerId()));
    } else {
      disabled.put(AlipayChannel.NAME, AppConfig.ALIPAY_HINT);
    }
    AtomicReference<NotifyVerticle> first = new AtomicReference<>();
    AppConfig.Retention r = config.retention();
    KeyPurge purge = new KeyPurge(pool, r.keys(), r.notifyLog(), r.batchSize());
    return pool.query("SELECT 1").execute()
        .recover(err -> Future.failedFuture(new ConfigException(
            "database: " + db + " does not answer: " + err.getMessage())))
        .compose(ok -> vertx.deployVerticle(() -> {
          NotifyVerticle verticle = new NotifyVerticle(config.http(), channels, disabled, pool, booking);
          first.compareAndSet(null, verticle);
          return verticle;
        }, new DeploymentOptions().setInstances(config.httpInstances())))
        .map(id -> new PayNotifyServer(vertx, pool, id, first.get().actualPort(),
            purge.schedule(vertx, r.purgeInterval()), purge))
        .onFailure(err -> pool.close());
  }

  private static Pool createPool(Vertx vertx, DatabaseSettings db) {
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
    return MySQLBuilder.pool().with(options).with(tcp).connectingTo(connect).using(vertx).build();
  }

  public int port() {
    return port;
  }

  public KeyPurge purge() {
    return purge;
  }

  /** Stops taking notifications, then closes the pool (in-flight transactions finish first). */
  public Future<Void> stop() {
    vertx.cancelTimer(purgeTimer);
    return vertx.undeploy(deploymentId).eventually(pool::close);
  }
}
