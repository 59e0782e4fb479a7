package paynotify.reconcile;

import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * The statements of reconciliation and of the duplicate audit, read together as SQL. They read our
 * tables and write only the session's temporary tables, so they decide no race; findings are recorded
 * with {@code SqlQueries.INSERT_ANOMALY} (Report).
 */
final class ReconcileSql {
  private ReconcileSql() {}

  /** Rows per batch: bill rows inserted, trade ids looked up, findings recorded, rows fetched. */
  static final int BATCH = 1000;

  /** Binds {@code values} in order and adds the row to the statement's batch. */
  static void bind(PreparedStatement insert, Object... values) throws SQLException {
    set(insert, values);
    insert.addBatch();
  }

  /**
   * Binds {@code values} in order. Strings and longs by their own setters: setObject tries the
   * driver's codecs one by one, which a million-row bill pays a million times.
   */
  static void set(PreparedStatement statement, Object... values) throws SQLException {
    for (int i = 0; i < values.length; i++) {
      if (values[i] instanceof String text) {
        statement.setString(i + 1, text);
      } else if (values[i] instanceof Long number) {
        statement.setLong(i + 1, number);
      } else {
        statement.setObject(i + 1, values[i]);
      }
    }
  }

  // The bill's payment rows, in the session only (the database, not this process, holds a large
  // bill). No key: rows are appended in bill order, and sorted once, by the merge.
  static final String DROP_BILL_TABLES = "DROP TEMPORARY TABLE IF EXISTS bill_payments, bill_refunds";

  static final String CREATE_BILL_PAYMENTS =
      "CREATE TEMPORARY TABLE bill_payments (line BIGINT NOT NULL, trade_no VARCHAR(64) COLLATE utf8mb4_bin NOT NULL,"
          + " order_no VARCHAR(64) NULL, amount_cents BIGINT NOT NULL, at DATETIME NOT NULL) DEFAULT CHARSET=utf8mb4";

  static final String INSERT_BILL_PAYMENT =
      "INSERT INTO bill_payments (line, trade_no, order_no, amount_cents, at) VALUES (?, ?, ?, ?, ?)";

  static final String CREATE_BILL_REFUNDS =
      "CREATE TEMPORARY TABLE bill_refunds (refund_no VARCHAR(64) COLLATE utf8mb4_bin NOT NULL,"
          + " out_refund_no VARCHAR(64) NULL, trade_no VARCHAR(64) COLLATE utf8mb4_bin NOT NULL,"
          + " order_no VARCHAR(64) COLLATE utf8mb4_bin NULL, amount_cents BIGINT NOT NULL, at DATETIME NOT NULL,"
          + " line BIGINT NOT NULL, KEY (trade_no, refund_no)) DEFAULT CHARSET=utf8mb4";

  static final String INSERT_BILL_REFUND =
      "INSERT INTO bill_refunds (refund_no, out_refund_no, trade_no, order_no, amount_cents, at, line)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?)";

  // Both sides of the merge (TradeMerge), each in trade order: the bill's payments, and what is
  // booked in the bill's channel and window, read in the order it lies (near time order) and then
  // sorted. Walking uk_trade_no for the order instead would be a random row read per trade.
  static final String BILL_PAYMENTS_BY_TRADE =
      "SELECT line, trade_no, order_no, amount_cents, at FROM bill_payments ORDER BY trade_no, line";

  static final String BOOKED_IN_WINDOW_BY_TRADE =
      "SELECT trade_no, order_no, amount_cents, paid_at FROM payments IGNORE INDEX FOR ORDER BY (uk_trade_no)"
          + " WHERE channel = ? AND paid_at >= ? AND paid_at < ? ORDER BY trade_no";

  // A bill row whose trade has no booking in the window: what was booked for it, any day.
  static String bookedTrades(int ids) {
    return "SELECT trade_no, order_no, amount_cents FROM payments WHERE channel = ? AND trade_no IN ("
        + "?, ".repeat(ids - 1) + "?)";
  }

  static final String DROP_BILL_SIDE = "DROP TEMPORARY TABLE IF EXISTS bill_side";

  static final String CREATE_BILL_SIDE =
      "CREATE TEMPORARY TABLE bill_side (line BIGINT NOT NULL, trade_no VARCHAR(64) NOT NULL,"
          + " order_no VARCHAR(64) NULL, amount_cents BIGINT NOT NULL, local_order_no VARCHAR(64) NULL,"
          + " local_cents BIGINT NULL, at DATETIME NOT NULL, order_known BOOLEAN NOT NULL) DEFAULT CHARSET=utf8mb4";

  static final String INSERT_BILL_SIDE =
      "INSERT INTO bill_side (line, trade_no, order_no, amount_cents, local_order_no, local_cents, at, order_known)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)";

  // Paid there but not booked here (local_cents NULL: a lost notification), or booked for another
  // amount than the platform's trade total.
  static final String BILL_SIDE =
      "SELECT trade_no, order_no, amount_cents, at, local_order_no, local_cents, order_known FROM bill_side"
          + " ORDER BY line";

  // A refund is named by its trade and its number together: Alipay's out_biz_no is unique only
  // within its trade (sites number each trade's refunds 1, 2, ...).
  // Refunded there, and not booked here (local_cents NULL) or booked for another amount. Alipay's
  // notifications carry the trade's refunded total (cumulative): a refund's own amount is its
  // total less the largest total booked before it on the same trade.
  static final String BILL_REFUNDS =
      "SELECT b.refund_no, b.out_refund_no, b.trade_no, b.order_no, b.amount_cents, b.at,"
          + " r.amount_cents - IF(r.cumulative, (SELECT COALESCE(MAX(e.amount_cents), 0) FROM refunds e"
          + " WHERE e.channel = r.channel AND e.trade_no = r.trade_no AND e.cumulative"
          + " AND e.amount_cents < r.amount_cents), 0) AS local_cents"
          + " FROM bill_refunds b LEFT JOIN refunds r ON r.channel = ? AND r.trade_no = b.trade_no"
          + " AND r.refund_no = b.refund_no"
          + " HAVING local_cents IS NULL OR local_cents <> b.amount_cents ORDER BY b.line";

  // Refunded here within the window (refund time known), not on the bill.
  static final String REFUND_MISSING_PLATFORM =
      "SELECT r.refund_no, r.trade_no, r.order_no, r.amount_cents, r.refunded_at FROM refunds r"
          + " LEFT JOIN bill_refunds b ON b.trade_no = r.trade_no AND b.refund_no = r.refund_no"
          + " WHERE r.channel = ? AND r.refunded_at >= ? AND r.refunded_at < ? AND b.refund_no IS NULL"
          + " ORDER BY r.refunded_at";

  // The duplicate audit finds the few candidates on an index (covering, no row reads) into a
  // session table first, then reads the rows of those only.
  private static final String TRADES_BOOKED_TWICE =
      "SELECT channel, trade_no FROM payments GROUP BY channel, trade_no HAVING COUNT(*) > 1";

  private static final String ORDERS_PAID_TWICE = "SELECT order_no FROM payments GROUP BY order_no HAVING COUNT(*) > 1";

  static final String DROP_AUDIT_TABLES = "DROP TEMPORARY TABLE IF EXISTS audit_trades, audit_orders";

  private static final String INTO_AUDIT_TRADES =
      "CREATE TEMPORARY TABLE audit_trades (PRIMARY KEY (channel, trade_no)) ";

  private static final String INTO_AUDIT_ORDERS = "CREATE TEMPORARY TABLE audit_orders (PRIMARY KEY (order_no)) ";

  // `audit`: the whole table.
  static final String AUDIT_TRADES = INTO_AUDIT_TRADES + TRADES_BOOKED_TWICE;

  static final String AUDIT_ORDERS = INTO_AUDIT_ORDERS + ORDERS_PAID_TWICE;

  // Inside `reconcile`: only the candidates with a payment of the bill's channel in its window (an
  // order's other payment may be of any day or channel). A double payment is then reported with the
  // bills that hold it, and a later bill comes out clean: one old finding must not keep every
  // daily reconcile exiting 1, or the cron alert could never go quiet.
  private static final String PAID_IN_WINDOW = " AND p.channel = ? AND p.paid_at >= ? AND p.paid_at < ?)";

  static final String AUDIT_TRADES_IN_WINDOW = INTO_AUDIT_TRADES + "SELECT d.channel, d.trade_no FROM ("
      + TRADES_BOOKED_TWICE + ") d WHERE EXISTS (SELECT 1 FROM payments p WHERE p.channel = d.channel"
      + " AND p.trade_no = d.trade_no" + PAID_IN_WINDOW;

  static final String AUDIT_ORDERS_IN_WINDOW = INTO_AUDIT_ORDERS + "SELECT d.order_no FROM (" + ORDERS_PAID_TWICE
      + ") d WHERE EXISTS (SELECT 1 FROM payments p WHERE p.order_no = d.order_no" + PAID_IN_WINDOW;

  // The same trade booked more than once: uk_trade_no forbids it, so only a table that lost the key has it.
  static final String DUPLICATE_TRADE =
      "SELECT p.channel, p.trade_no, MIN(p.order_no), COUNT(*) FROM audit_trades d"
          + " JOIN payments p ON p.channel = d.channel AND p.trade_no = d.trade_no"
          + " GROUP BY p.channel, p.trade_no ORDER BY p.channel, p.trade_no";

  // One order paid by two different trades: the buyer paid twice and needs a refund.
  static final String ORDER_PAID_TWICE =
      "SELECT p.order_no, GROUP_CONCAT(DISTINCT CONCAT(p.channel, ':', p.trade_no) ORDER BY p.channel, p.trade_no"
          + " SEPARATOR ' ') FROM audit_orders d JOIN payments p ON p.order_no = d.order_no"
          + " GROUP BY p.order_no HAVING COUNT(DISTINCT p.channel, p.trade_no) > 1 ORDER BY p.order_no";
}
