package paynotify.testsupport;

import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import paynotify.server.Pools;
import paynotify.store.Database;

/** A test on the test database through a booking pool of the service's own making, one for the class. */
public abstract class PooledDatabaseTestBase extends DatabaseTestBase {
  protected static Vertx vertx;
  protected static Database pool;

  @BeforeAll
  static void connect() {
    vertx = Vertx.vertx();
    pool = Pools.connect(vertx, db.settings());
  }

  @AfterAll
  static void close() {
    pool.close().await();
    vertx.close().await();
  }
}
