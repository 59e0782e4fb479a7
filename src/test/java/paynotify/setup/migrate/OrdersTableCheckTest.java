package paynotify.setup.migrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import org.junit.jupiter.api.Test;
import paynotify.config.ConfigException;
import paynotify.setup.Schema;
import paynotify.store.OrdersTable;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.TestDatabase;

/** The site's own orders table, checked at start: its order number must be UNIQUE on its own. */
class OrdersTableCheckTest extends DatabaseTestBase {
  @Test
  void aSiteTableWhoseOrderNumberIsNotUniqueStopsTheStart() {
    TestDatabase site = db.scratch(TestDatabase.NAME + "_site");
    site.update("CREATE TABLE orders (id BIGINT AUTO_INCREMENT PRIMARY KEY, order_no VARCHAR(64) NOT NULL,"
        + " amount_cents BIGINT NOT NULL, status VARCHAR(24) NOT NULL DEFAULT 'unpaid', paid_at DATETIME(3),"
        + " channel VARCHAR(16), trade_no VARCHAR(64), UNIQUE KEY uk_no_status (order_no, status), KEY (order_no))");
    try {
      assertThatThrownBy(() -> Schema.migrate(site.settings(), OrdersTable.byDefault(), Set.of(), "conf/application.yaml"))
          .isInstanceOf(ConfigException.class)
          .hasMessageStartingWith("conf/application.yaml: orders.columns.order_no: table orders of root@")
          .hasMessageContaining("has no UNIQUE key on order_no alone")
          .hasMessageContaining("ALTER TABLE orders ADD UNIQUE KEY uk_order_no (order_no)");

      site.update("ALTER TABLE orders ADD UNIQUE KEY uk_order_no (order_no)");
      assertThat(Schema.migrate(site.settings(), OrdersTable.byDefault(), Set.of(), "conf/application.yaml")).isZero();
    } finally {
      site.drop();
    }
  }
}
