package paynotify.store;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.VertxException;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlConnection;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A pool's connections lent one use at a time, counted by us, and never held by a connection that died.
 *
 * <p>Two things Vert.x 5.0.7 does not do when MariaDB dies mid-transaction (seen killing it under load,
 * DatabaseKilledUnderLoadTest): the statements queued behind the one in flight may never complete, so the
 * transaction's future waited until the request timeout (10 s) and its connection stayed lent; and its own pool
 * figures (vertx_pool_in_use, vertx_pool_queue_pending) kept counting uses and waits that had ended (in use 4 and
 * 525 waiting at rest). Here a use fails with {@link ConnectionLost} the moment its connection closes, and the
 * figures {@link #inUse} and {@link #waiting} are counted where the use begins and ends. Cost per use: four atomic
 * counter updates (waiting and in use, each up and down), one promise, a close handler set and cleared and an
 * exception handler set on the connection; no statement, no round trip.
 */
public final class CountedPool {
  private static final Logger LOG = LoggerFactory.getLogger(CountedPool.class);

  private final Pool pool;
  private final String name;
  private final AtomicInteger waiting = new AtomicInteger();
  private final AtomicInteger inUse = new AtomicInteger();
  private final Handler<Throwable> failureLog;

  public CountedPool(Pool pool, String name) {
    this.pool = pool;
    this.name = name;
    this.failureLog = failureLog(name);
  }

  /** The connection closed (the server died, or the network) while a use of it had not ended: its outcome is unknown. */
  public static final class ConnectionLost extends VertxException {
    public ConnectionLost(String pool) {
      super("the database connection closed during its use (pool " + pool + "): what it did is unknown", true);
    }
  }

  /**
   * Runs {@code work} on a connection of the pool and gives the connection back when its future completes, or
   * fails at once with {@link ConnectionLost} when the connection closes first.
   */
  public <T> Future<T> withConnection(Function<SqlConnection, Future<T>> work) {
    waiting.incrementAndGet();
    return pool.getConnection().transform(got -> {
      waiting.decrementAndGet();
      return got.succeeded() ? use(got.result(), work) : Future.failedFuture(got.cause());
    });
  }

  private <T> Future<T> use(SqlConnection conn, Function<SqlConnection, Future<T>> work) {
    inUse.incrementAndGet();
    Promise<T> ended = Promise.promise();
    conn.closeHandler(closed -> ended.tryFail(new ConnectionLost(name)));
    // Without a handler Vert.x prints the connection's failure (a reset when the server dies) as a bare stack
    // trace on stderr, without time or logger.
    conn.exceptionHandler(failureLog);
    Future<T> done;
    try {
      done = work.apply(conn);
    } catch (Throwable e) { // an Error too: the use must end, or inUse stays counted for good
      done = Future.failedFuture(e);
    }
    done.onComplete(ar -> {
      if (ar.succeeded()) {
        ended.tryComplete(ar.result());
      } else {
        ended.tryFail(ar.cause());
      }
    });
    return ended.future().onComplete(ar -> {
      inUse.decrementAndGet();
      conn.closeHandler(null);
      conn.close(); // back to the pool, or, closed, out of it
    });
  }

  /** A connection's failures logged, not printed (see {@link #use}): also for the pool's connect handler. */
  static Handler<Throwable> failureLog(String pool) {
    return err -> LOG.warn("database connection of pool {} failed: {}", pool, err.toString());
  }

  /** Uses that have a connection now. */
  public int inUse() {
    return inUse.get();
  }

  /** Uses waiting for a connection now (the pool's wait queue, and connections being made). */
  public int waiting() {
    return waiting.get();
  }

  public String name() {
    return name;
  }

  public Future<Void> close() {
    return pool.close();
  }
}
