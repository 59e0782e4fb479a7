package paynotify.app;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import paynotify.app.AppConfig.DatabaseSettings;

/**
 * The site's orders table, checked at start for what exactly-once needs of it: an order number
 * that is a UNIQUE key on its own. Without one, one payment would mark every row with that number
 * paid (the booking refuses such a payment, but the site should hear of it before a buyer pays).
 */
final class OrdersTableCheck {
  // A unique index whose only column is order_no (a unique (order_no, x) allows repeated numbers).
  private static final String UNIQUE_ORDER_NO =
      "SELECT COUNT(*) FROM information_schema.STATISTICS s"
          + " WHERE s.TABLE_SCHEMA = DATABASE() AND s.TABLE_NAME = 'orders' AND s.NON_UNIQUE = 0"
          + " AND s.COLUMN_NAME = 'order_no' AND s.SEQ_IN_INDEX = 1"
          + " AND NOT EXISTS (SELECT 1 FROM information_schema.STATISTICS t WHERE t.TABLE_SCHEMA = s.TABLE_SCHEMA"
          + "   AND t.TABLE_NAME = s.TABLE_NAME AND t.INDEX_NAME = s.INDEX_NAME AND t.SEQ_IN_INDEX = 2)";

  private OrdersTableCheck() {}

  /**
   * @param source where the settings came from, for the message
   * @throws ConfigException when the table will not do
   */
  static void check(DatabaseSettings db, String source) {
    try (Connection c = DriverManager.getConnection(DatabaseMigrations.jdbcUrl(db), db.user(), db.password());
        ResultSet rs = c.createStatement().executeQuery(UNIQUE_ORDER_NO)) {
      rs.next();
      if (rs.getLong(1) == 0) {
        throw new ConfigException(source + ": database: table orders of " + db + " has no UNIQUE key on order_no"
            + " alone, so one payment could mark several orders paid; find repeated numbers with SELECT order_no"
            + " FROM orders GROUP BY order_no HAVING COUNT(*) > 1, then ALTER TABLE orders ADD UNIQUE KEY"
            + " uk_order_no (order_no)");
      }
    } catch (SQLException e) { // the cause tells a database not up yet from one that refuses
      throw new IllegalStateException("cannot read the orders table: " + e.getMessage(), e);
    }
  }
}
