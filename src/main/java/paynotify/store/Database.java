package paynotify.store;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClientOptions;
import io.vertx.mysqlclient.MySQLBuilder;
import io.vertx.mysqlclient.MySQLConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.SqlConnection;
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
 */
public final class Database {
  private static final Logger LOG = LoggerFactory.getLogger(Database.class);
  private final Pool pool;

  private Database(Pool pool) {
    this.pool = pool;
  }

  /**
   * @param lockWaitSeconds how long a statement waits for a row lock before failing with 1205
   *                        (then the booking is retried)
   */
  public static Database connect(Vertx vertx, MySQLConnectOptions connect, PoolOptions options, NetClientOptions tcp,
      int lockWaitSeconds) {
    connect.setPipeliningLimit(16);
    String session = "SET SESSION autocommit = 0, innodb_lock_wait_timeout = " + lockWaitSeconds;
    Pool pool = MySQLBuilder.pool().with(options).with(tcp).connectingTo(connect).using(vertx)
        // A SET can only fail on a broken connection, which then fails every later statement too.
        .withConnectHandler(conn -> conn.query(session).execute()
            .onFailure(err -> LOG.error("session setup failed: {}", err.getMessage()))
            .onComplete(ar -> conn.close())) // close() hands the prepared connection to the pool
        .build();
    return new Database(pool);
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

  public Future<Void> close() {
    return pool.close();
  }
}
