package paynotify.bench;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The seed's SQL method, the benchmark's yardstick: the bill's CSV (unzipped beforehand, not timed)
 * LOAD DATA'd into a temporary table keyed by trade, then a LEFT JOIN each way. Payments only: the
 * benchmark's bill has no refunds.
 */
final class SeedSqlReconcile {
  private SeedSqlReconcile() {}

  private static final String CREATE =
      "CREATE TEMPORARY TABLE seed_bill (trade_no VARCHAR(64) COLLATE utf8mb4_bin NOT NULL PRIMARY KEY,"
          + " order_no VARCHAR(64), amount_cents BIGINT, paid_at DATETIME) DEFAULT CHARSET=utf8mb4";

  // Alipay's columns: trade, order, type, name, created, finished, five of the shop's, amount, ...;
  // each id ends with a tab. The footer's comment lines load as junk rows, deleted after.
  private static final String LOAD =
      "LOAD DATA LOCAL INFILE '%s' INTO TABLE seed_bill CHARACTER SET gbk"
          + " FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '\"' ESCAPED BY '' LINES TERMINATED BY '\\n'"
          + " IGNORE 5 LINES (@trade, @order, @type, @name, @created, @finished, @d1, @d2, @d3, @d4, @d5, @amount)"
          + " SET trade_no = TRIM(TRAILING '\\t' FROM @trade), order_no = TRIM(TRAILING '\\t' FROM @order),"
          + " amount_cents = CAST(@amount AS DECIMAL(16, 2)) * 100, paid_at = @finished";

  private static final String BILL_SIDE =
      "SELECT b.trade_no, p.id IS NULL FROM seed_bill b"
          + " LEFT JOIN payments p ON p.channel = 'alipay' AND p.trade_no = b.trade_no"
          + " WHERE p.id IS NULL OR p.amount_cents <> b.amount_cents";

  private static final String OUR_SIDE =
      "SELECT p.trade_no FROM payments p LEFT JOIN seed_bill b ON b.trade_no = p.trade_no"
          + " WHERE p.channel = 'alipay' AND p.paid_at >= '2026-03-14' AND p.paid_at < '2026-03-15'"
          + " AND b.trade_no IS NULL";

  /** @return the trades found, by kind (missing_local, amount_mismatch, missing_platform) */
  static Map<String, Set<String>> run(Connection conn, Path billCsv) throws SQLException {
    Map<String, Set<String>> found = new HashMap<>();
    try (Statement s = conn.createStatement()) {
      s.execute("SET SESSION sql_mode = ''");
      s.execute(CREATE);
      s.execute(String.format(LOAD, billCsv.toAbsolutePath()));
      s.execute("DELETE FROM seed_bill WHERE trade_no LIKE '#%'");
      try (ResultSet rs = s.executeQuery(BILL_SIDE)) {
        while (rs.next()) {
          found.computeIfAbsent(rs.getBoolean(2) ? "missing_local" : "amount_mismatch", k -> new TreeSet<>())
              .add(rs.getString(1));
        }
      }
      try (PreparedStatement ours = conn.prepareStatement(OUR_SIDE); ResultSet rs = ours.executeQuery()) {
        while (rs.next()) {
          found.computeIfAbsent("missing_platform", k -> new TreeSet<>()).add(rs.getString(1));
        }
      }
      s.execute("DROP TEMPORARY TABLE seed_bill");
    }
    return found;
  }
}
