package paynotify.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClientOptions;
import io.vertx.junit5.VertxExtension;
import io.vertx.mysqlclient.MySQLConnectOptions;
import io.vertx.sqlclient.PoolOptions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import paynotify.testsupport.DatabaseTestBase;

/**
 * A connection that dies during its use (the server killed it, or died) ends the use at once and leaves the
 * pool's figures at 0: on Vert.x alone the transaction waited for statements that never completed.
 */
@ExtendWith(VertxExtension.class)
class CountedPoolTest extends DatabaseTestBase {
  private static final long SLEEP_SECONDS = 5;

  @Test
  void aConnectionKilledDuringItsUseFailsTheUseAtOnceAndLeavesNoCount(Vertx vertx) throws Exception {
    Database pool = connect(vertx);
    Promise<Long> session = Promise.promise();
    Future<Object> use = pool.inTransaction(conn -> conn.query("SELECT CONNECTION_ID()").execute()
        .compose(rows -> {
          session.complete(rows.iterator().next().getLong(0));
          return conn.query("SELECT SLEEP(" + SLEEP_SECONDS + ")").execute().map(slept -> (Object) slept);
        }));
    long id = session.future().await(10, TimeUnit.SECONDS);
    assertThat(pool.counts().inUse()).as("in use during the sleep").isEqualTo(1);
    Thread.sleep(200); // the SLEEP is running on the server
    long killedAt = System.nanoTime();
    db.update("KILL " + id); // the connection, not only its query

    assertThatThrownBy(() -> use.await(SLEEP_SECONDS - 1, TimeUnit.SECONDS))
        .satisfies(e -> assertThat(e instanceof CountedPool.ConnectionLost || DbErrors.isSessionKilled(e))
            .as("failed as the connection's loss: %s", e).isTrue());
    long failedAfterMs = (System.nanoTime() - killedAt) / 1_000_000;
    System.out.printf("the use failed %d ms after KILL: %s%n", failedAfterMs, use.cause());
    assertThat(failedAfterMs).as("ms from KILL to the use's failure").isLessThan(2000);
    assertThat(pool.counts().inUse()).as("in use after").isZero();
    assertThat(pool.counts().waiting()).as("waiting after").isZero();
    pool.close().await(10, TimeUnit.SECONDS);
  }

  /** Work that throws an Error (a StackOverflowError, an assertion) still ends its use: the count does not stay up. */
  @Test
  void workThatThrowsAnErrorEndsItsUse(Vertx vertx) throws Exception {
    Database pool = connect(vertx);
    Future<Object> use = pool.counts().withConnection(conn -> {
      throw new AssertionError("thrown by the work");
    });
    assertThatThrownBy(() -> use.await(10, TimeUnit.SECONDS)).hasMessage("thrown by the work");
    assertThat(pool.counts().inUse()).as("in use after").isZero();
    assertThat(pool.counts().waiting()).as("waiting after").isZero();
    pool.close().await(10, TimeUnit.SECONDS);
  }

  private static Database connect(Vertx vertx) {
    var s = db.settings();
    return Database.connect(vertx, new MySQLConnectOptions().setHost(s.host()).setPort(s.port())
            .setDatabase(s.name()).setUser(s.user()).setPassword(s.password()),
        new PoolOptions().setMaxSize(1).setName("killed").setConnectionTimeout(5)
            .setConnectionTimeoutUnit(TimeUnit.SECONDS),
        new NetClientOptions(), Database.sessionSetup(5, Database.BEIJING));
  }
}
