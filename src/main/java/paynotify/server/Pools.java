package paynotify.server;

import io.vertx.core.Vertx;
import io.vertx.core.net.NetClientOptions;
import io.vertx.mysqlclient.MySQLConnectOptions;
import io.vertx.sqlclient.PoolOptions;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import paynotify.config.AppConfig.DatabaseSettings;
import paynotify.store.CommittedReads;
import paynotify.store.Database;
import paynotify.store.Isolation;
import paynotify.store.NotifyLog;
import paynotify.store.RejectedLog;
import paynotify.store.Stores;

/**
 * The service's connection pools, each bounded and each with its session pinned: the server builds
 * them at start, the commands (status, repair) the ones they need.
 */
public final class Pools {
  /**
   * The status pool: /health, /status, /status.json and the metrics' database gauges. Two connections
   * (the report's snapshot and a ping beside it), few waiting and not for long: a flood of those
   * requests fails on this pool alone (503 from /health or the admin listener), never a booking.
   */
  private static final int STATUS_POOL = 2;
  private static final int STATUS_WAIT_QUEUE = 32;
  private static final Duration STATUS_WAIT = Duration.ofSeconds(2);

  private Pools() {}

  /**
   * The booking pool, the pre-check's, the logs', which write notify_log on connections of their
   * own, and the status pool: neither a flood of refused requests, nor the log's writes, nor anyone
   * polling /health or /status ever takes a booking's connection.
   *
   * @param rejectedRowsPerSecond refused requests recorded per endpoint and second at most
   */
  public static Stores stores(Vertx vertx, DatabaseSettings db, int rejectedRowsPerSecond) {
    // each log writes one batch at a time
    Database logPool = connect(vertx, db.withPool(2, 2), "notify-log", Isolation.REPEATABLE_READ);
    return new Stores(connect(vertx, db), committedReads(vertx, db),
        new NotifyLog(vertx, logPool, "notification(s)", NotifyLog.CAPACITY, NotifyLog.MAX_QUEUED_BYTES,
            NotifyLog.REPORT_PERIOD),
        new RejectedLog(vertx, logPool, NotifyLog.CAPACITY, rejectedRowsPerSecond, NotifyLog.REPORT_PERIOD), logPool,
        statusPool(vertx, db));
  }

  /** REPEATABLE READ: the status report is one snapshot, its counts agree with its lists. */
  private static Database statusPool(Vertx vertx, DatabaseSettings db) {
    Duration wait = db.connectTimeout().compareTo(STATUS_WAIT) < 0 ? db.connectTimeout() : STATUS_WAIT;
    return connect(vertx, db.withPool(STATUS_POOL, STATUS_WAIT_QUEUE).withConnectTimeout(wait), "status",
        Isolation.REPEATABLE_READ);
  }

  public static Database connect(Vertx vertx, DatabaseSettings db) {
    return connect(vertx, db, "booking", Isolation.REPEATABLE_READ);
  }

  /**
   * @param name the pool's in the metrics, each pool its own: paynotify_db_pool_* ({@code pool}, our count) and
   *     vertx_pool_* ({@code pool_name}, times only: PoolGauges)
   */
  public static Database connect(Vertx vertx, DatabaseSettings db, String name, Isolation isolation) {
    return Database.connect(vertx, connectOptions(db), poolOptions(db, name, db.poolSize()), tcp(db),
        Database.sessionSetup(db.lockWaitSeconds(), db.timeZone(), isolation));
  }

  /** Where a repeat's key is read: reads of what is committed, never in a booking's transaction. */
  private static CommittedReads committedReads(Vertx vertx, DatabaseSettings db) {
    return CommittedReads.connect(vertx, connectOptions(db),
        poolOptions(db, "committed-reads", Math.max(2, db.poolSize() / 2)), tcp(db),
        CommittedReads.sessionSetup(db.timeZone()));
  }

  private static MySQLConnectOptions connectOptions(DatabaseSettings db) {
    MySQLConnectOptions connect = new MySQLConnectOptions()
        .setHost(db.host())
        .setPort(db.port())
        .setDatabase(db.name())
        .setUser(db.user())
        .setPassword(db.password())
        .setCharset("utf8mb4")
        .setCachePreparedStatements(true)
        .setUseAffectedRows(true); // rowCount() = rows changed, which is what the races are decided by
    db.security().applyTo(connect);
    return connect;
  }

  /**
   * The defaults (unbounded wait queue, 30 s to get a connection) would let a stalled database
   * pile up requests; bounded, a notification fails fast and the platform retries.
   */
  private static PoolOptions poolOptions(DatabaseSettings db, String name, int poolSize) {
    return new PoolOptions()
        .setName(name)
        .setMaxSize(poolSize)
        .setMaxWaitQueueSize(db.maxWaitQueue())
        .setConnectionTimeout((int) db.connectTimeout().toMillis())
        .setConnectionTimeoutUnit(TimeUnit.MILLISECONDS)
        .setIdleTimeout(300) // below any server's wait_timeout
        .setIdleTimeoutUnit(TimeUnit.SECONDS)
        .setPoolCleanerPeriod(10_000);
  }

  /**
   * The idle timeout, past the pool's own, only closes what the pool cannot: a connection left unused
   * by a failed session setup, or a half-open one.
   */
  private static NetClientOptions tcp(DatabaseSettings db) {
    return new NetClientOptions().setConnectTimeout((int) db.connectTimeout().toMillis())
        .setIdleTimeout(360).setIdleTimeoutUnit(TimeUnit.SECONDS);
  }
}
