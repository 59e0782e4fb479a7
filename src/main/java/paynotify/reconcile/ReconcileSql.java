package paynotify.reconcile;

/** The statements of reconciliation and of the duplicate audit, read together as SQL. */
final class ReconcileSql {
  private ReconcileSql() {}

  // The bill's rows, in the session only: the database, not this process, holds a large bill.
  static final String CREATE_BILL_ROWS =
      "CREATE TEMPORARY TABLE bill_rows ("
          + " line BIGINT NOT NULL, refund BOOLEAN NOT NULL,"
          + " trade_no VARCHAR(64) COLLATE utf8mb4_bin NOT NULL, order_no VARCHAR(64) COLLATE utf8mb4_bin NULL,"
          + " refund_no VARCHAR(64) COLLATE utf8mb4_bin NULL, out_refund_no VARCHAR(64) NULL,"
          + " amount_cents BIGINT NOT NULL, at DATETIME NOT NULL,"
          + " KEY (refund, trade_no), KEY (refund_no)) DEFAULT CHARSET=utf8mb4";

  static final String INSERT_BILL_ROW =
      "INSERT INTO bill_rows (line, refund, trade_no, order_no, refund_no, out_refund_no, amount_cents, at)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)";

  // Paid on the platform, not booked here: a lost notification.
  static final String MISSING_LOCAL =
      "SELECT b.trade_no, b.order_no, b.amount_cents, b.at, o.id IS NOT NULL AS order_known FROM bill_rows b"
          + " LEFT JOIN payments p ON p.channel = ? AND p.trade_no = b.trade_no"
          + " LEFT JOIN orders o ON o.order_no = b.order_no"
          + " WHERE NOT b.refund AND p.id IS NULL ORDER BY b.line";

  // Booked for another amount than the platform's trade total (订单金额 / 订单金额).
  static final String AMOUNT_MISMATCH =
      "SELECT b.trade_no, p.order_no, b.amount_cents, p.amount_cents AS local_cents, b.at FROM bill_rows b"
          + " JOIN payments p ON p.channel = ? AND p.trade_no = b.trade_no"
          + " WHERE NOT b.refund AND p.amount_cents <> b.amount_cents ORDER BY b.line";

  // Booked here, in this bill's channel and window only, and not on the bill.
  static final String MISSING_PLATFORM =
      "SELECT p.trade_no, p.order_no, p.amount_cents, p.paid_at FROM payments p"
          + " WHERE p.channel = ? AND p.paid_at >= ? AND p.paid_at < ?"
          + " AND NOT EXISTS (SELECT 1 FROM bill_rows b WHERE NOT b.refund AND b.trade_no = p.trade_no)"
          + " ORDER BY p.paid_at";

  static final String REFUND_MISSING_LOCAL =
      "SELECT b.refund_no, b.out_refund_no, b.trade_no, b.order_no, b.amount_cents, b.at FROM bill_rows b"
          + " LEFT JOIN refunds r ON r.channel = ? AND r.refund_no = b.refund_no"
          + " WHERE b.refund AND r.id IS NULL ORDER BY b.line";

  // Refunded here within the window (refund time known), not on the bill.
  static final String REFUND_MISSING_PLATFORM =
      "SELECT r.refund_no, r.trade_no, r.order_no, r.amount_cents, r.refunded_at FROM refunds r"
          + " WHERE r.channel = ? AND r.refunded_at >= ? AND r.refunded_at < ?"
          + " AND NOT EXISTS (SELECT 1 FROM bill_rows b WHERE b.refund AND b.refund_no = r.refund_no)"
          + " ORDER BY r.refunded_at";

  // The duplicate audit: uk_trade_no forbids the first, so it only finds a table that lost the key.
  static final String DUPLICATE_TRADE =
      "SELECT channel, trade_no, MIN(order_no), COUNT(*) FROM payments"
          + " GROUP BY channel, trade_no HAVING COUNT(*) > 1 ORDER BY channel, trade_no";

  // One order paid by two different trades: the buyer paid twice and needs a refund.
  static final String ORDER_PAID_TWICE =
      "SELECT order_no, GROUP_CONCAT(DISTINCT CONCAT(channel, ':', trade_no) ORDER BY channel, trade_no SEPARATOR ' ')"
          + " FROM payments GROUP BY order_no HAVING COUNT(DISTINCT channel, trade_no) > 1 ORDER BY order_no";

  static final String RECORD_FINDING =
      "INSERT INTO anomalies (kind, channel, order_no, trade_no, amount_cents, detail, dedupe_key)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE id = id";
}
