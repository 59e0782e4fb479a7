package paynotify.booking;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClientOptions;
import io.vertx.junit5.VertxExtension;
import io.vertx.mysqlclient.MySQLConnectOptions;
import io.vertx.sqlclient.DatabaseException;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import paynotify.booking.BookingTransaction.SeenBefore;
import paynotify.store.Database;
import paynotify.store.DbErrors;
import paynotify.store.SqlQueries;
import paynotify.store.TransientRetry;
import paynotify.testsupport.GaleraTestBase;
import paynotify.testsupport.TestDatabase;

/**
 * Two nodes insert the same key: the one whose write set is certified second loses, not with 1062 but
 * with 1213 at COMMIT (its insert went through: the row was not on its node yet). The booking's retry
 * runs it again, and then the key is there: 1062, a duplicate, answered as one.
 */
@ExtendWith(VertxExtension.class)
class GaleraCommitConflictTest extends GaleraTestBase {
  private static final String KEY = "alipay:pay:GALERA-COMMIT-1";
  @Test
  void aKeyThatLosesCertificationAtCommitIsRetriedAndFoundADuplicate(Vertx vertx) throws Exception {
    TestDatabase node1 = cluster.database(1);
    node1.reset();
    Database node2 = Database.connect(vertx, new MySQLConnectOptions().setHost("127.0.0.1")
            .setPort(cluster.node(2).port()).setDatabase(TestDatabase.NAME).setUser("root"),
        new PoolOptions().setMaxSize(1), new NetClientOptions(), Database.sessionSetup(5, Database.BEIJING));
    AtomicInteger attempts = new AtomicInteger();
    List<String> firstAttempt = new ArrayList<>();

    Future<String> outcome = new TransientRetry(vertx, 3).run(() -> {
      int attempt = attempts.incrementAndGet();
      return node2.inTransaction(conn -> BookingTransaction.insert(conn, SqlQueries.INSERT_KEY, Tuple.of(KEY, "fp"),
                  Layer.KEY)
              // While ours is inserted and uncommitted on node 2, node 1 commits the same key.
              .compose(ours -> attempt > 1 ? Future.succeededFuture()
                  : vertx.executeBlocking(() -> node1.update(SqlQueries.INSERT_KEY, KEY, "fp")))
              .onSuccess(v -> firstAttempt.add("work done, then COMMIT"))
              .map("booked"))
          .onFailure(err -> {
            if (attempt == 1) {
              firstAttempt.add(err instanceof DatabaseException db ? "failed " + db.getErrorCode() : err.toString());
            }
          });
    }).recover(err -> err instanceof SeenBefore seen ? Future.succeededFuture("duplicate (" + seen.layer + ")")
        : Future.failedFuture(err));

    assertThat(outcome.await(30, TimeUnit.SECONDS)).isEqualTo("duplicate (KEY)");
    assertThat(firstAttempt).as("the first attempt").containsExactly("work done, then COMMIT",
        "failed " + DbErrors.DEADLOCK);
    assertThat(attempts).hasValue(2);
    assertThat(node1.count("SELECT COUNT(*) FROM idempotent_keys WHERE idem_key = ?", KEY)).isEqualTo(1);
    node2.close().await();
  }
}
