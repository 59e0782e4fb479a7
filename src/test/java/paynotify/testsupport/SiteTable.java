package paynotify.testsupport;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;

/**
 * A site's own orders table, of a shape paynotify meets in the wild: its CREATE TABLE, the
 * {@code orders:} section that maps it, and what a test does to its rows. Status values are
 * compared as the database renders them ({@code "2"}, {@code "-1"}).
 *
 * @param insertSql inserts an unpaid order: its number, then its amount in the table's unit
 * @param orders the {@code orders:} section, as a site would write it in application.yaml
 * @param afterPartialRefund the status a partial refund leaves (the paid one where it is unmapped)
 * @param afterFullRefund the status a full refund leaves (the paid one where it is unmapped)
 */
public record SiteTable(String shape, TestDatabase db, String createTable, String insertSql, JsonObject orders,
    String unpaid, String paid, String closed, String afterPartialRefund, String afterFullRefund) {
  /** dujiaoka's CREATE TABLE orders, as the demo script uses it too: the statement, without comments and ';'. */
  private static final String DUJIAOKA_ORDERS = dujiaokaOrders();

  private static String dujiaokaOrders() {
    try {
      return Files.readAllLines(Path.of("docs/examples/dujiaoka-orders.sql")).stream()
          .filter(line -> !line.startsWith("--")).collect(Collectors.joining("\n")).replaceAll(";\\s*$", "");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * dujiaoka (独角数卡), its orders table as database/sql/install.sql of github.com/assimon/dujiaoka
   * creates it (docs/examples/dujiaoka-orders.sql; renamed: the test database has paynotify's own orders). Amounts in yuan (DECIMAL),
   * status 1 待支付 / 2 待处理 / 3 处理中 / 4 已完成 / 5 处理失败 / 6 异常 / -1 过期; no paid_at, no channel.
   * paynotify marks a paid order 2 (待处理: dujiaoka then delivers it) and leaves refunds to the site.
   */
  public static SiteTable dujiaoka(TestDatabase db) {
    return new SiteTable("dujiaoka", db,
        DUJIAOKA_ORDERS.replace("CREATE TABLE orders", "CREATE TABLE dujiaoka_orders"),
        // an expression of INSERT ... SET may use the columns set before it: the order's prices
        "INSERT INTO dujiaoka_orders SET order_sn = ?, actual_price = ?, goods_price = actual_price,"
            + " total_price = actual_price, goods_id = 1, title = '月卡', email = 'buyer@example.com',"
            + " buy_ip = '203.0.113.7', created_at = NOW(), updated_at = NOW()",
        new JsonObject()
            .put("table", "dujiaoka_orders")
            .put("columns", new JsonObject().put("order_no", "order_sn").put("amount", "actual_price")
                .put("status", "status").put("paid_at", "").put("channel", "").put("trade_no", "trade_no"))
            .put("amount_unit", "yuan")
            .put("status_values", new JsonObject().put("unpaid", 1).put("paid", 2).put("closed", -1)
                .put("partially_refunded", "").put("refunded", "")),
        "1", "2", "-1", "2", "2");
  }

  /**
   * A hand-written shop's table: a numeric pay_status (0 unpaid, 1 paid, 2 closed, 3 partially
   * refunded, 4 refunded), the amount in fen, the platform's trade number and payment time under
   * names of its own, no channel column, its creation time an INT of seconds (not mapped: no time column).
   */
  public static SiteTable payStatus(TestDatabase db) {
    return new SiteTable("pay_status", db, """
        CREATE TABLE site_pay_orders (
          id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
          out_trade_no VARCHAR(32) NOT NULL,
          user_id INT UNSIGNED NOT NULL DEFAULT 0,
          subject VARCHAR(128) NOT NULL DEFAULT '',
          total_fee INT UNSIGNED NOT NULL,
          pay_status TINYINT NOT NULL DEFAULT 0,
          transaction_id VARCHAR(64) NULL,
          pay_time TIMESTAMP NULL DEFAULT NULL,
          create_time INT UNSIGNED NOT NULL DEFAULT 0,
          UNIQUE KEY uk_out_trade_no (out_trade_no),
          KEY idx_user (user_id)
        ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4""",
        "INSERT INTO site_pay_orders (out_trade_no, user_id, subject, total_fee, create_time)"
            + " VALUES (?, 42, 'VIP 月卡', ?, UNIX_TIMESTAMP())",
        new JsonObject()
            .put("table", "site_pay_orders")
            .put("columns", new JsonObject().put("order_no", "out_trade_no").put("amount", "total_fee")
                .put("status", "pay_status").put("paid_at", "pay_time").put("channel", "")
                .put("trade_no", "transaction_id").put("created_at", "")) // create_time: seconds, not a time
            .put("amount_unit", "cents")
            .put("status_values", new JsonObject().put("unpaid", 0).put("paid", 1).put("closed", 2)
                .put("partially_refunded", 3).put("refunded", 4)),
        "0", "1", "2", "3", "4");
  }

  /**
   * A table that records only a status (no trade_no, channel, paid_at or created_at column), refunds mapped: which
   * trade paid an order is then known from paynotify's payments.moved_order alone.
   */
  public static SiteTable statusOnly(TestDatabase db) {
    return new SiteTable("status_only", db, "CREATE TABLE shop_orders (id INT AUTO_INCREMENT PRIMARY KEY,"
        + " out_trade_no VARCHAR(32) NOT NULL, total_fee INT NOT NULL, pay_status TINYINT NOT NULL DEFAULT 0,"
        + " UNIQUE KEY (out_trade_no))",
        "INSERT INTO shop_orders (out_trade_no, total_fee) VALUES (?, ?)",
        new JsonObject()
            .put("table", "shop_orders")
            .put("columns", new JsonObject().put("order_no", "out_trade_no").put("amount", "total_fee")
                .put("status", "pay_status").put("paid_at", "").put("channel", "").put("trade_no", "")
                .put("created_at", ""))
            .put("amount_unit", "cents")
            .put("status_values", new JsonObject().put("unpaid", 0).put("paid", 1).put("closed", 2)
                .put("partially_refunded", 3).put("refunded", 4)),
        "0", "1", "2", "3", "4");
  }

  /** The same table in {@code other} under {@code name}: dujiaoka's own {@code orders}, say. */
  public SiteTable as(TestDatabase other, String name) {
    String table = table();
    return new SiteTable(shape, other,
        createTable.replace("CREATE TABLE " + table + " ", "CREATE TABLE " + name + " "),
        insertSql.replace("INSERT INTO " + table + " ", "INSERT INTO " + name + " "), orders.copy().put("table", name),
        unpaid, paid, closed, afterPartialRefund, afterFullRefund);
  }

  /** The configuration overrides that point paynotify at this table. */
  public JsonObject overrides() {
    return new JsonObject().put("orders", orders.copy());
  }

  /**
   * {@link #overrides()} with one key of the {@code orders:} section changed, e.g. {@code columns.amount};
   * a null value leaves the key out, so that its default applies.
   */
  public JsonObject overridesWith(String key, Object value) {
    JsonObject overrides = overrides();
    JsonObject section = overrides.getJsonObject("orders");
    String[] path = key.split("\\.");
    for (int i = 0; i < path.length - 1; i++) {
      section = section.getJsonObject(path[i]);
    }
    if (value == null) {
      section.remove(path[path.length - 1]);
    } else {
      section.put(path[path.length - 1], value);
    }
    return overrides;
  }

  public String table() {
    return orders.getString("table");
  }

  private String column(String name) {
    return orders.getJsonObject("columns").getString(name);
  }

  public void create() {
    db.update(createTable);
  }

  public void drop() {
    db.update("DROP TABLE IF EXISTS " + table());
  }

  public void empty() {
    db.update("DELETE FROM " + table());
  }

  /** An unpaid order of {@code cents}, written in the table's unit. */
  public void insertOrder(String orderNo, long cents) {
    boolean yuan = orders.getString("amount_unit").equals("yuan");
    db.update(insertSql, orderNo, yuan ? BigDecimal.valueOf(cents, 2) : cents);
  }

  public String status(String orderNo) {
    return value(column("status"), orderNo);
  }

  /** Sets the status as the site itself would (its expiry job, its admin). */
  public void setStatus(String orderNo, Object status) {
    db.update("UPDATE " + table() + " SET " + column("status") + " = ? WHERE " + column("order_no") + " = ?",
        status, orderNo);
  }

  /** Closes the order as the site's expiry job does. */
  public void close(String orderNo) {
    setStatus(orderNo, closed);
  }

  public String tradeNo(String orderNo) {
    return value(column("trade_no"), orderNo);
  }

  public String paidAt(String orderNo) {
    return value(column("paid_at"), orderNo);
  }

  private String value(String column, String orderNo) {
    return db.string("SELECT " + column + " FROM " + table() + " WHERE " + column("order_no") + " = ?", orderNo);
  }

  @Override
  public String toString() {
    return shape;
  }
}
