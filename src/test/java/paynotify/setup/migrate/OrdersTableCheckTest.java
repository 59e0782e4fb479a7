package paynotify.setup.migrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import paynotify.config.AppConfig;
import paynotify.config.ConfigException;
import paynotify.setup.Schema;
import paynotify.store.OrdersTable;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.SiteTable;
import paynotify.testsupport.TestDatabase;

/**
 * The site's own orders table, checked at start: its order number must be UNIQUE on its own, and the
 * mapped creation time a column of a time.
 */
class OrdersTableCheckTest extends DatabaseTestBase {
  private static final String SOURCE = "conf/application.yaml";

  @Test
  void aSiteTableWhoseOrderNumberIsNotUniqueStopsTheStart() {
    TestDatabase site = db.scratch(TestDatabase.NAME + "_site");
    site.update("CREATE TABLE orders (id BIGINT AUTO_INCREMENT PRIMARY KEY, order_no VARCHAR(64) NOT NULL,"
        + " amount_cents BIGINT NOT NULL, status VARCHAR(24) NOT NULL DEFAULT 'unpaid', paid_at DATETIME(3),"
        + " channel VARCHAR(16), trade_no VARCHAR(64), created_at DATETIME(3),"
        + " UNIQUE KEY uk_no_status (order_no, status), KEY (order_no))");
    try {
      assertThatThrownBy(() -> Schema.migrate(site.settings(), OrdersTable.byDefault(), Set.of(), SOURCE))
          .isInstanceOf(ConfigException.class)
          .hasMessageStartingWith("conf/application.yaml: orders.columns.order_no: table orders of root@")
          .hasMessageContaining("has no UNIQUE key on order_no alone")
          .hasMessageContaining("ALTER TABLE orders ADD UNIQUE KEY uk_order_no (order_no)");

      site.update("ALTER TABLE orders ADD UNIQUE KEY uk_order_no (order_no)");
      assertThat(Schema.migrate(site.settings(), OrdersTable.byDefault(), Set.of(), SOURCE)).isZero();
    } finally {
      site.drop();
    }
  }

  /**
   * Review of issue 40 (S1): the default orders.columns.created_at is asked by repair book, auto_repair, check and
   * Stripe's missed events, recovery on or not. A site's table without it would fail each of them (1054), an
   * epoch INT or a DATE would compare as nonsense: the start names the key, the table and what to set.
   */
  @Test
  void theMappedCreationTimeMustBeAColumnOfATime() {
    TestDatabase site = db.scratch(TestDatabase.NAME + "_site");
    site.update("CREATE TABLE orders (id BIGINT AUTO_INCREMENT PRIMARY KEY, order_no VARCHAR(64) NOT NULL,"
        + " amount_cents BIGINT NOT NULL, status VARCHAR(24) NOT NULL DEFAULT 'unpaid', paid_at DATETIME(3),"
        + " channel VARCHAR(16), trade_no VARCHAR(64), UNIQUE KEY uk_order_no (order_no))");
    try {
      assertThatThrownBy(() -> Schema.migrate(site.settings(), OrdersTable.byDefault(), Set.of(), SOURCE))
          .isInstanceOf(ConfigException.class)
          .hasMessageStartingWith("conf/application.yaml: orders.columns.created_at: table orders has no column"
              + " created_at (it has id, order_no, amount_cents, status, paid_at, channel, trade_no): set"
              + " orders.columns.created_at to the column that holds an order's creation time (DATETIME or"
              + " TIMESTAMP), or to \"\" when the table has none");

      site.update("ALTER TABLE orders ADD COLUMN created_at INT UNSIGNED NOT NULL DEFAULT 0"); // seconds since 1970
      assertThatThrownBy(() -> Schema.migrate(site.settings(), OrdersTable.byDefault(), Set.of(), SOURCE))
          .isInstanceOf(ConfigException.class)
          .hasMessageStartingWith("conf/application.yaml: orders.columns.created_at: column orders.created_at is int")
          .hasMessageContaining("not DATETIME or TIMESTAMP").hasMessageContaining("or to \"\" when the table has none");

      site.update("ALTER TABLE orders MODIFY created_at DATE NULL"); // the day without its time
      assertThatThrownBy(() -> Schema.migrate(site.settings(), OrdersTable.byDefault(), Set.of(), SOURCE))
          .isInstanceOf(ConfigException.class)
          .hasMessageStartingWith("conf/application.yaml: orders.columns.created_at: column orders.created_at is date,")
          .hasMessageContaining("not DATETIME or TIMESTAMP");

      site.update("ALTER TABLE orders MODIFY created_at TIMESTAMP NULL");
      assertThat(Schema.migrate(site.settings(), OrdersTable.byDefault(), Set.of(), SOURCE)).isZero();

      site.update("ALTER TABLE orders DROP COLUMN created_at");
      OrdersTable withoutCreationTime = AppConfig.from(new JsonObject("{\"orders\": {\"columns\": {\"created_at\":"
          + " \"\"}}}"), SOURCE, Map.of()).orders();
      assertThat(Schema.migrate(site.settings(), withoutCreationTime, Set.of(), SOURCE)).as("\"\": not checked")
          .isZero();
    } finally {
      site.drop();
    }
  }

  /** The demo table (V1: DATETIME(3)) and dujiaoka's as its install.sql makes it (TIMESTAMP), default mapping. */
  @Test
  void theDemoTableAndDujiaokasStartUnderTheDefaultCreationTime() {
    assertThat(Schema.migrate(db.settings(), OrdersTable.byDefault(), Set.of(), SOURCE)).isZero();
    SiteTable dujiaoka = SiteTable.dujiaoka(db);
    dujiaoka.create();
    try {
      OrdersTable orders = AppConfig.from(dujiaoka.overrides(), SOURCE, Map.of()).orders(); // created_at by default
      assertThat(Schema.migrate(db.settings(), orders, Set.of(), SOURCE)).isZero();
    } finally {
      dujiaoka.drop();
    }
  }
}
