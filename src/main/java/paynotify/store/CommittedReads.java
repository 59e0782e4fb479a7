package paynotify.store;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClientOptions;
import io.vertx.mysqlclient.MySQLConnectOptions;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.util.List;

/**
 * Reads of what is committed, each a statement of its own (autocommit, READ COMMITTED, read-only
 * sessions), on a pool of their own. For reads that answer cheaply but decide nothing, such as
 * the duplicate pre-check: a booking's transaction then opens no read view before its writes (one
 * statement less than reading in it and ending that view), and a repeat costs one indexed read. On a
 * Galera node they read causally ({@link GaleraSessions}): a key committed on another node is seen.
 */
public final class CommittedReads {
  private final CountedPool pool;

  private CommittedReads(CountedPool pool) {
    this.pool = pool;
  }

  /** What every session of this pool runs first: it can write nothing, and sees only what is committed. */
  public static List<String> sessionSetup(String timeZone) {
    return List.of("SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED, READ ONLY",
        "SET SESSION autocommit = 1, sql_mode = '" + Database.SQL_MODE + "', time_zone = '" + timeZone + "'");
  }

  public static CommittedReads connect(Vertx vertx, MySQLConnectOptions connect, PoolOptions options,
      NetClientOptions tcp, List<String> sessionSetup) {
    return new CommittedReads(Database.pool(vertx, connect, options, tcp, sessionSetup, new GaleraSessions()));
  }

  public Future<RowSet<Row>> execute(String sql, Tuple args) {
    return pool.withConnection(conn -> conn.preparedQuery(sql).execute(args));
  }

  public CountedPool counts() {
    return pool;
  }

  public Future<Void> close() {
    return pool.close();
  }
}
