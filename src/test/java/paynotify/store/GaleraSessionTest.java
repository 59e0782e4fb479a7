package paynotify.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.net.NetClientOptions;
import io.vertx.junit5.VertxExtension;
import io.vertx.mysqlclient.MySQLConnectOptions;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Tuple;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import paynotify.config.AppConfig.DatabaseSettings;
import paynotify.testsupport.GaleraTestBase;
import paynotify.testsupport.TestDatabase;

/**
 * On a Galera node a session reads causally: what another node committed before a read is seen by it.
 * Without that the duplicate pre-check on node 2 could miss a key node 1 has just committed.
 */
@ExtendWith(VertxExtension.class)
class GaleraSessionTest extends GaleraTestBase {
  private static final int ROUNDS = 200;
  @Test
  void aReadOnOneNodeSeesWhatAnotherNodeJustCommitted(Vertx vertx) throws Exception {
    TestDatabase node1 = cluster.database(1);
    node1.reset();
    Database node2 = connect(vertx, cluster.node(2));
    assertThat(node2.inTransaction(conn -> conn.query("SELECT @@wsrep_sync_wait").execute())
        .map(rows -> rows.iterator().next().getInteger(0)).await(10, TimeUnit.SECONDS))
        .as("wsrep_sync_wait of a pooled session on a Galera node").isEqualTo(1);
    int seen = 0;
    for (int i = 0; i < ROUNDS; i++) {
      String key = "galera:causal:" + i;
      node1.update(SqlQueries.INSERT_KEY, key, "fp");
      seen += node2.inTransaction(conn -> conn.preparedQuery(SqlQueries.SELECT_KEY_FINGERPRINT).execute(Tuple.of(key)))
          .await(10, TimeUnit.SECONDS).size();
    }
    assertThat(seen).as("keys committed on node 1 that node 2 read right after").isEqualTo(ROUNDS);
    node2.close().await();
  }

  private static Database connect(Vertx vertx, DatabaseSettings s) {
    return Database.connect(vertx, new MySQLConnectOptions().setHost(s.host()).setPort(s.port())
            .setDatabase(s.name()).setUser(s.user()).setPassword(s.password()),
        new PoolOptions().setMaxSize(1).setConnectionTimeout(5).setConnectionTimeoutUnit(TimeUnit.SECONDS),
        new NetClientOptions(), Database.sessionSetup(5, Database.BEIJING));
  }
}
