package paynotify.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClientOptions;
import io.vertx.junit5.VertxExtension;
import io.vertx.mysqlclient.MySQLConnectOptions;
import io.vertx.sqlclient.PoolOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.ServerSetting;

/** Every pooled session is the one we configured, whatever the server's defaults; one we could not configure is never used. */
@ExtendWith(VertxExtension.class)
class SessionSetupTest extends DatabaseTestBase {
  @Test
  void sessionsArePinnedWhateverTheServerDefaults(Vertx vertx) throws Exception {
    try (ServerSetting rc = ServerSetting.isolation(db, "READ-COMMITTED");
        ServerSetting lax = ServerSetting.set(db, "sql_mode", "");
        ServerSetting utc = ServerSetting.set(db, "time_zone", "+00:00")) {
      Database pool = connect(vertx, Database.sessionSetup(5, Database.BEIJING));
      String session = pool.inTransaction(conn -> conn.query(
              "SELECT CONCAT_WS(' ', @@autocommit + 0, @@innodb_lock_wait_timeout, @@time_zone, @@sql_mode) AS s,"
                  + " (SELECT COUNT(*) FROM information_schema.SESSION_VARIABLES"
                  + "  WHERE VARIABLE_NAME IN ('TX_ISOLATION', 'TRANSACTION_ISOLATION')"
                  + "  AND VARIABLE_VALUE = 'REPEATABLE-READ') AS rr").execute()
          .map(rows -> rows.iterator().next().getString("s") + " rr=" + (rows.iterator().next().getLong("rr") > 0)))
          .await(10, TimeUnit.SECONDS);
      assertThat(session).startsWith("0 5 +08:00 STRICT_ALL_TABLES").endsWith("rr=true");
      pool.close();
    }
  }

  /** Causal reads are a Galera node's (GaleraSessionTest): a single server's sessions are left as they were. */
  @Test
  void aSingleServerGetsNoGaleraSetting(Vertx vertx) throws Exception {
    Database pool = connect(vertx, Database.sessionSetup(5, Database.BEIJING));
    List<String> syncWait = pool.inTransaction(conn -> conn.query("SHOW VARIABLES LIKE 'wsrep_sync_wait'").execute())
        .map(rows -> {
          List<String> values = new ArrayList<>();
          rows.forEach(row -> values.add(row.getString(1)));
          return values;
        })
        .await(10, TimeUnit.SECONDS);
    assertThat(syncWait).as("wsrep_sync_wait where the server has it").isSubsetOf("0");
    pool.close();
  }

  @Test
  void aSessionWhoseSetupFailedNeverRunsABooking(Vertx vertx) {
    // The second statement fails, so the first one's autocommit=0 never took (one SET is atomic).
    List<String> failing = new ArrayList<>();
    failing.add("SET SESSION autocommit = 0, paynotify_no_such_variable = 1");
    Database pool = connect(vertx, failing);

    // Were the session pooled anyway, the INSERT would commit on its own and survive the ROLLBACK.
    // Three times on a pool of one: the session is ended, so its slot is free for the next attempt
    // (held, the second attempt would wait for it and time out instead).
    for (int i = 0; i < 3; i++) {
      Future<Object> attempt = pool.inTransaction(conn -> conn
          .query("INSERT INTO orders (order_no, amount_cents) VALUES ('S1', 100)").execute()
          .compose(inserted -> Future.failedFuture("the booking fails after its first statement")));
      assertThatThrownBy(() -> attempt.await(10, TimeUnit.SECONDS)).hasMessage("Connection was closed");
    }
    assertThat(db.count("SELECT COUNT(*) FROM orders WHERE order_no = 'S1'")).isZero();
    pool.close();
  }

  private static Database connect(Vertx vertx, List<String> sessionSetup) {
    var s = db.settings();
    return Database.connect(vertx, new MySQLConnectOptions().setHost(s.host()).setPort(s.port())
            .setDatabase(s.name()).setUser(s.user()).setPassword(s.password()),
        new PoolOptions().setMaxSize(1).setConnectionTimeout(5).setConnectionTimeoutUnit(TimeUnit.SECONDS),
        new NetClientOptions(), sessionSetup);
  }
}
