package paynotify.store;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClientOptions;
import io.vertx.mysqlclient.MySQLBuilder;
import io.vertx.mysqlclient.MySQLConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.SqlConnection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connection pool, and the only way to use it: {@link #inTransaction}.
 *
 * <p>Every session runs with {@code autocommit=0}, so that no statement ever commits on its own.
 * That is what makes it safe to pipeline the statements of a booking (send them without waiting
 * for each reply): if one fails half-way, even by a deadlock that ends the transaction, the
 * statements after it run in a new, uncommitted transaction that the ROLLBACK discards. It also
 * saves the BEGIN round trip. In exchange every use must end with COMMIT or ROLLBACK, which
 * {@link #inTransaction} guarantees, so no connection returns to the pool with a transaction open.
 *
 * <p>The session's isolation level and SQL mode are pinned too, never inherited from the
 * server (see {@link #sessionSetup}).
 */
public final class Database {
  private static final Logger LOG = LoggerFactory.getLogger(Database.class);
  /** Strict: a value that does not fit a column is an error, never silently cut. */
  public static final String SQL_MODE =
      "STRICT_ALL_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION";
  /** The platforms' zone, and the sessions' unless {@code database.time_zone} says otherwise. */
  public static final String BEIJING = "+08:00";
  private final CountedPool pool;
  private final GaleraSessions galera;

  private Database(CountedPool pool, GaleraSessions galera) {
    this.pool = pool;
    this.galera = galera;
  }

  /**
   * What every new session runs before it enters the pool.
   *
   * <ul>
   *   <li>REPEATABLE READ, the level every race was first proved at (a refund racing its payment is
   *       decided by the payment's key, which the refund holds, at any level). The statement form works
   *       on MySQL and MariaDB alike (the variable is tx_isolation on one, transaction_isolation on the
   *       other).
   *   <li>Strict mode: a value that does not fit a column is an error, never silently cut.
   *   <li>time_zone: the zone of the site's DATETIME columns ({@code database.time_zone}, Beijing time
   *       by default, as the platforms write theirs): NOW() for the site's ON UPDATE columns and
   *       triggers, our created_at and the retention windows are all in it, whatever the server's zone.
   *   <li>completion_type NO_CHAIN: a COMMIT only commits (a server's RELEASE would end the pooled
   *       session at every COMMIT).
   * </ul>
   *
   * @param lockWaitSeconds how long a statement waits for a row lock before failing with 1205
   *                        (then the booking is retried)
   * @param timeZone        an offset such as +08:00
   */
  public static List<String> sessionSetup(int lockWaitSeconds, String timeZone) {
    return sessionSetup(lockWaitSeconds, timeZone, Isolation.REPEATABLE_READ);
  }

  /**
   * The same, at another isolation level: READ COMMITTED for the forward relay, whose claims must
   * take no gap locks where bookings insert their events.
   */
  public static List<String> sessionSetup(int lockWaitSeconds, String timeZone, Isolation isolation) {
    return List.of(
        "SET SESSION TRANSACTION ISOLATION LEVEL " + isolation.sql(),
        "SET SESSION autocommit = 0, innodb_lock_wait_timeout = " + lockWaitSeconds
            + ", sql_mode = '" + SQL_MODE + "', time_zone = '" + timeZone + "', completion_type = 'NO_CHAIN'");
  }

  /**
   * @param sessionSetup statements run on every new connection ({@link #sessionSetup}); a connection
   *                     on which one fails is discarded, never pooled
   */
  public static Database connect(Vertx vertx, MySQLConnectOptions connect, PoolOptions options, NetClientOptions tcp,
      List<String> sessionSetup) {
    GaleraSessions galera = new GaleraSessions();
    return new Database(pool(vertx, connect, options, tcp, sessionSetup, galera), galera);
  }

  /**
   * A pool whose sessions run {@code sessionSetup}, and what a Galera node needs after it, counted under
   * {@code options}' name.
   */
  static CountedPool pool(Vertx vertx, MySQLConnectOptions connect, PoolOptions options, NetClientOptions tcp,
      List<String> sessionSetup, GaleraSessions galera) {
    connect.setPipeliningLimit(16);
    Pool pool = MySQLBuilder.pool().with(options).with(tcp).connectingTo(connect).using(vertx)
        // Bounded: a setup that never answers (a half-open connection) would hold its pool slot.
        .withConnectHandler(conn -> galera.statements(conn.exceptionHandler(CountedPool.failureLog(options.getName())),
                sessionSetup).compose(all -> setUp(conn, all))
            .timeout(tcp.getConnectTimeout(), TimeUnit.MILLISECONDS)
            .onSuccess(v -> conn.close()) // close() hands the prepared connection to the pool
            .onFailure(err -> discard(conn, err)))
        .build();
    return new CountedPool(pool, options.getName());
  }

  private static Future<Void> setUp(SqlConnection conn, List<String> statements) {
    Future<Void> done = Future.succeededFuture();
    for (String sql : statements) {
      done = done.compose(v -> conn.query(sql).execute().mapEmpty());
    }
    return done;
  }

  /**
   * A session whose setup failed may still autocommit (one SET is atomic: none of its settings took),
   * and its pipelined statements would then commit one by one. The pool offers no way to refuse a
   * connection but its closing, so the server is asked to end this session: the pool then sees the
   * connection closed, and the request that waited for it fails (503, the platform retries).
   */
  private static void discard(SqlConnection conn, Throwable err) {
    LOG.error("database session setup failed, connection discarded (no booking runs on a session we could not "
        + "configure): {}", err.getMessage());
    conn.query("SELECT CONNECTION_ID()").execute()
        .compose(rows -> conn.query("KILL CONNECTION " + rows.iterator().next().getLong(0)).execute())
        .onComplete(killed -> {
          if (killed.succeeded() || !DbErrors.isSessionKilled(killed.cause())) {
            // A proxy that refuses KILL: the connection stays open, unused, until its idle timeout closes it.
            LOG.warn("the discarded session could not be ended ({}): its pool slot stays taken until the connection"
                + " times out", killed.succeeded() ? "KILL answered" : killed.cause().getMessage());
          }
        });
  }

  /**
   * Runs {@code work} on one connection, then COMMIT when its future succeeds, ROLLBACK when it
   * fails (the original failure is returned). The future completes only after the COMMIT did.
   */
  public <T> Future<T> inTransaction(Function<SqlConnection, Future<T>> work) {
    return pool.withConnection(conn -> {
      Future<T> done;
      try {
        done = work.apply(conn);
      } catch (RuntimeException e) {
        done = Future.failedFuture(e);
      }
      return done.transform(ar -> ar.succeeded()
          ? conn.query("COMMIT").execute().map(ar.result())
          : conn.query("ROLLBACK").execute().transform(rolledBack -> Future.<T>failedFuture(ar.cause())));
    });
  }

  /** Whether this pool's sessions are on a node of a Galera cluster ({@link GaleraSessions}). */
  public boolean onGalera() {
    return galera.found();
  }

  /** Whether the database answers now: one round trip on a pooled session. */
  public Future<Void> ping() {
    return inTransaction(conn -> conn.query(SqlQueries.PING).execute()).mapEmpty();
  }

  /** The pool's own count of its connections in use and uses waiting ({@code PoolGauges} publishes them). */
  public CountedPool counts() {
    return pool;
  }

  public Future<Void> close() {
    return pool.close();
  }
}
