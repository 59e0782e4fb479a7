package paynotify.setup.migrate;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.channel.Platform;
import paynotify.config.AppConfig.DatabaseSettings;
import paynotify.config.ConfigException;
import paynotify.store.OrdersTable.Columns;
import paynotify.store.OrdersTable.StatusValues;
import paynotify.store.OrdersTable;

/**
 * The site's orders table, checked at start against its mapping ({@code orders:}) for what
 * booking needs of it, each problem one line naming the key to fix: the table and every mapped
 * column exist, the order number is a UNIQUE key on its own (else one payment could mark several
 * orders paid), the amount column holds the configured unit exactly, and each status value fits
 * the status column, the trade column is text (its length goes to the OrdersTable), the creation time is a time.
 * Status values stored in the table that map to nothing are only a warning: booking leaves such orders alone and
 * says so.
 */
final class OrdersTableCheck {
  private static final Logger LOG = LoggerFactory.getLogger(OrdersTableCheck.class);
  private static final Set<String> INTEGERS = Set.of("tinyint", "smallint", "mediumint", "int", "integer", "bigint");
  private static final Set<String> TEXTS = Set.of("char", "varchar", "tinytext", "text", "mediumtext", "longtext");
  private static final Set<String> TIMES = Set.of("datetime", "timestamp");
  /** Stored status values listed in the warning, at most. */
  private static final int LISTED = 20;
  /** Rows the warning looks at: a bound on what every start costs on a large table. */
  private static final int SAMPLED = 100_000;
  /** Paid orders that must agree before amounts are called whole yuan: a few cheap orders say nothing. */
  private static final int WHOLE_YUAN_MIN_ORDERS = 20;
  /** The longest channel code written ("alipay", "wechat"). */
  private static final long CHANNEL_LENGTH = 6;

  private static final String ENGINE =
      "SELECT ENGINE FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?";

  private static final String COLUMNS =
      "SELECT COLUMN_NAME, DATA_TYPE, COLUMN_TYPE, NUMERIC_SCALE, CHARACTER_MAXIMUM_LENGTH"
          + " FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?";

  // A unique index whose only column is the order number (a unique (order_no, x) allows repeated numbers).
  private static final String UNIQUE_ORDER_NO =
      "SELECT COUNT(*) FROM information_schema.STATISTICS s"
          + " WHERE s.TABLE_SCHEMA = DATABASE() AND s.TABLE_NAME = ? AND s.NON_UNIQUE = 0"
          + " AND s.COLUMN_NAME = ? AND s.SEQ_IN_INDEX = 1"
          + " AND NOT EXISTS (SELECT 1 FROM information_schema.STATISTICS t WHERE t.TABLE_SCHEMA = s.TABLE_SCHEMA"
          + "   AND t.TABLE_NAME = s.TABLE_NAME AND t.INDEX_NAME = s.INDEX_NAME AND t.SEQ_IN_INDEX = 2)";

  /** A column as information_schema describes it. */
  private record Column(String name, String dataType, String columnType, Long scale, Long length) {}

  private final OrdersTable orders;
  private final Set<Platform> platforms;
  private final String source;
  private final String database;

  private OrdersTableCheck(OrdersTable orders, Set<Platform> platforms, String source, String database) {
    this.orders = orders;
    this.platforms = platforms;
    this.source = source;
    this.database = database;
  }

  /**
   * @param platforms those of the enabled channels: the trade numbers the trade column is given
   * @param source where the settings came from, for the message
   * @throws ConfigException when the table will not do
   */
  static void check(DatabaseSettings db, OrdersTable orders, Set<Platform> platforms, String source) {
    try (Connection c = Jdbc.open(db)) {
      new OrdersTableCheck(orders, platforms, source, db.toString()).check(c);
    } catch (SQLException e) { // the cause tells a database not up yet from one that refuses
      throw new IllegalStateException("cannot read the orders table: " + e.getMessage(), e);
    }
  }

  private void check(Connection c) throws SQLException {
    engine(c);
    Map<String, Column> table = columns(c);
    Columns mapped = orders.columns();
    Column orderNo = column(table, "order_no", mapped.orderNo());
    Column amount = column(table, "amount", mapped.amount());
    Column status = column(table, "status", mapped.status());
    Column paidAt = mapped.paidAt() == null ? null : column(table, "paid_at", mapped.paidAt());
    Column channel = mapped.channel() == null ? null : column(table, "channel", mapped.channel());
    Column tradeNo = mapped.tradeNo() == null ? null : column(table, "trade_no", mapped.tradeNo());
    unique(c, orderNo);
    amount(amount);
    if (paidAt != null && !TIMES.contains(paidAt.dataType())) {
      throw problem("orders.columns.paid_at", column(paidAt) + " is " + paidAt.columnType()
          + ", not DATETIME or TIMESTAMP: set paid_at to \"\" to leave it alone");
    }
    createdAt(table, mapped.createdAt());
    if (mapped.platformRef() != null) { // read as text, whatever its type
      column(table, "platform_ref", mapped.platformRef());
    }
    text("orders.columns.channel", channel, CHANNEL_LENGTH);
    tradeNo(tradeNo);
    statusValues(status);
    unmappedStatuses(c, status);
    wholeYuanAsCents(c, amount, status);
  }

  /**
   * The order moves in the booking's transaction, with our payment row: a table that cannot roll
   * back (MyISAM, Aria) would keep an order marked paid by a booking that was rolled back.
   */
  private void engine(Connection c) throws SQLException {
    try (PreparedStatement q = c.prepareStatement(ENGINE)) {
      q.setString(1, orders.table());
      try (ResultSet rs = q.executeQuery()) {
        if (!rs.next()) {
          throw problem("orders.table", "no table " + orders.table() + " in " + database
              + ": name the site's orders table (the one its notify.php marks paid)");
        }
        String engine = rs.getString(1);
        if (!"InnoDB".equalsIgnoreCase(engine)) {
          throw problem("orders.table", "table " + orders.table() + " is " + (engine == null ? "a view" : engine)
              + ", not InnoDB: an order marked paid must roll back with its booking; ALTER TABLE " + orders.table()
              + " ENGINE = InnoDB (after a backup)");
        }
      }
    }
  }

  private Map<String, Column> columns(Connection c) throws SQLException {
    Map<String, Column> columns = new LinkedHashMap<>();
    try (PreparedStatement q = c.prepareStatement(COLUMNS)) {
      q.setString(1, orders.table());
      try (ResultSet rs = q.executeQuery()) {
        while (rs.next()) {
          columns.put(rs.getString(1).toLowerCase(Locale.ROOT), new Column(rs.getString(1),
              rs.getString(2).toLowerCase(Locale.ROOT), rs.getString(3), rs.getObject(4, Long.class),
              rs.getObject(5, Long.class)));
        }
      }
    }
    return columns;
  }

  private Column column(Map<String, Column> table, String key, String name) {
    return column(table, key, name, "");
  }

  /** @param advice what to set, after the columns the table has */
  private Column column(Map<String, Column> table, String key, String name, String advice) {
    Column column = table.get(name.toLowerCase(Locale.ROOT)); // column names are case-insensitive in MySQL
    if (column == null) {
      throw problem("orders.columns." + key, "table " + orders.table() + " has no column " + name + " (it has "
          + String.join(", ", table.values().stream().map(Column::name).toList()) + ")" + advice);
    }
    return column;
  }

  private void unique(Connection c, Column orderNo) throws SQLException {
    try (PreparedStatement q = c.prepareStatement(UNIQUE_ORDER_NO)) {
      q.setString(1, orders.table());
      q.setString(2, orderNo.name());
      try (ResultSet rs = q.executeQuery()) {
        rs.next();
        if (rs.getLong(1) == 0) {
          String t = orders.table();
          String o = orderNo.name();
          throw problem("orders.columns.order_no", "table " + t + " of " + database + " has no UNIQUE key on " + o
              + " alone, so one payment could mark several orders paid; find repeated numbers with SELECT " + o
              + " FROM " + t + " GROUP BY " + o + " HAVING COUNT(*) > 1, then ALTER TABLE " + t
              + " ADD UNIQUE KEY uk_" + o + " (" + o + ")");
        }
      }
    }
  }

  private void amount(Column amount) {
    boolean fits = switch (orders.unit()) {
      case CENTS -> INTEGERS.contains(amount.dataType());
      case YUAN -> amount.dataType().equals("decimal") && Long.valueOf(2).equals(amount.scale());
    };
    if (!fits) {
      throw problem("orders.columns.amount", column(amount) + " is " + amount.columnType() + ", which does not hold "
          + (orders.unit() == OrdersTable.AmountUnit.CENTS
              ? "cents: orders.amount_unit cents needs an integer column (yuan: a DECIMAL(*,2) one)"
              : "yuan exactly: orders.amount_unit yuan needs a DECIMAL(*,2) column (cents: an integer one)"));
    }
  }

  /**
   * The order's creation time is read wherever a payment is found (repair book, auto_repair, check, Stripe's
   * missed events: no payment older than its order) and by the sweeper (an order's age), recovery on or not. Its
   * default applies to a site that never wrote the key, so the message says what to set. An INT of seconds since
   * 1970 compares with a time as nonsense, and a DATE makes an order of 23:00 look 23 hours old.
   */
  private void createdAt(Map<String, Column> table, String name) {
    if (name == null) {
      return; // the paid-before-order check is off: the start's log says so
    }
    String advice = ": set orders.columns.created_at to the column that holds an order's creation time (DATETIME or"
        + " TIMESTAMP), or to \"\" when the table has none (then a payment found in a bill is booked without checking"
        + " that it was made after its order, and recovery.enabled cannot be true)";
    Column column = column(table, "created_at", name, advice);
    if (!TIMES.contains(column.dataType())) {
      throw problem("orders.columns.created_at", column(column) + " is " + column.columnType()
          + ", not DATETIME or TIMESTAMP" + advice);
    }
  }

  /** Strict sessions refuse a value too long for its column: every booking of such a trade would fail. */
  private void text(String key, Column column, long length) {
    if (column != null && (!TEXTS.contains(column.dataType()) || column.length() != null && column.length() < length)) {
      throw problem(key, column(column) + " is " + column.columnType() + ": it needs a text column of at least "
          + length + " characters, or set it to \"\" to leave it alone");
    }
  }

  /**
   * The trade column must be text. Shorter than the trade numbers an enabled platform documents is
   * only a warning: booking writes no trade that does not fit (a strict session refuses it), and
   * books it all the same (payments holds it, the order is marked paid) with an anomaly,
   * trade_no_too_long. A site's VARCHAR(32) of WeChat transaction_ids is fine with WeChat alone.
   */
  private void tradeNo(Column column) {
    if (column == null) {
      return;
    }
    if (!TEXTS.contains(column.dataType())) {
      throw problem("orders.columns.trade_no", column(column) + " is " + column.columnType() + ": it needs a text"
          + " column (VARCHAR), or set it to \"\" to leave it alone");
    }
    if (column.length() != null) { // booking leaves out of it a trade number it cannot hold
      orders.tradeColumnHolds(column.length());
    }
    List<Platform> longer = platforms.stream()
        .filter(p -> column.length() != null && p.tradeNoLength() > column.length()).sorted().toList();
    if (!longer.isEmpty()) {
      int widest = longer.stream().mapToInt(Platform::tradeNoLength).max().getAsInt();
      LOG.warn("{}: orders.columns.trade_no: {} is {} ({} characters), shorter than the trade numbers of {}: a"
          + " longer one is booked all the same (payments holds it, the order is marked paid), the column left as"
          + " it was, with an anomaly (trade_no_too_long); to keep every trade number in it, widen it to {}"
          + " characters", source, column(column), column.columnType(), column.length(),
          String.join(", ", longer.stream().map(p -> p.code() + " (up to " + p.tradeNoLength() + ")").toList()),
          widest);
    }
  }

  /** Each configured value must be one the status column can hold as it is. */
  private void statusValues(Column status) {
    StatusValues v = orders.values();
    String[][] values = {{"unpaid", v.unpaid()}, {"paid", v.paid()}, {"closed", v.closed()},
        {"partially_refunded", v.partiallyRefunded()}, {"refunded", v.refunded()}};
    List<String> members = enumMembers(status.columnType());
    for (String[] entry : values) {
      String value = entry[1];
      if (value == null) {
        continue;
      }
      String why = null;
      if (INTEGERS.contains(status.dataType()) && !value.matches("-?[0-9]{1,18}")) {
        why = "is not a whole number, and " + column(status) + " is " + status.columnType();
      } else if (members != null && !members.contains(value)) {
        why = "is not one of " + column(status) + "'s values " + members;
      } else if (TEXTS.contains(status.dataType()) && status.length() != null && value.length() > status.length()) {
        why = "is longer than " + column(status) + " (" + status.columnType() + ")";
      }
      if (why != null) {
        throw problem("orders.status_values." + entry[0], "'" + value + "' " + why + ": give the value as the site"
            + " stores it");
      }
    }
  }

  private static List<String> enumMembers(String columnType) {
    if (!columnType.toLowerCase(Locale.ROOT).startsWith("enum(")) {
      return null;
    }
    List<String> members = new ArrayList<>();
    Matcher m = Pattern.compile("'((?:[^']|'')*)'").matcher(columnType);
    while (m.find()) {
      members.add(m.group(1).replace("''", "'"));
    }
    return members;
  }

  /**
   * Orders in a status that maps to nothing are left alone by booking: worth a line at start, not a
   * stop. Looks at the first {@link #SAMPLED} rows only, so that a large table costs every start little.
   */
  private void unmappedStatuses(Connection c, Column status) throws SQLException {
    List<String> unmapped = new ArrayList<>();
    long count = 0;
    String sql = "SELECT CAST(s AS CHAR), COUNT(*) FROM (SELECT " + OrdersTable.quote(status.name()) + " AS s FROM "
        + OrdersTable.quote(orders.table()) + " LIMIT " + SAMPLED + ") sample GROUP BY s";
    try (Statement q = c.createStatement(); ResultSet rs = q.executeQuery(sql)) {
      while (rs.next()) {
        // As text: the driver reads a TINYINT(1) (dujiaoka's status) as a boolean, 4 and 1 alike as true.
        String text = rs.getString(1);
        Object stored = text != null && INTEGERS.contains(status.dataType()) ? Long.valueOf(text) : text;
        if (stored != null && orders.values().of(stored) == null) {
          count += rs.getLong(2);
          if (unmapped.size() < LISTED) {
            unmapped.add(text);
          }
        }
      }
    }
    if (!unmapped.isEmpty()) {
      LOG.warn("{}: orders.status_values: {} holds {} ({} orders) that map to no status: a payment for such an order"
          + " is booked with an anomaly (unexpected_order_status) and the order is left as it is; map the value if"
          + " it means unpaid, paid, closed or refunded", source, column(status), String.join(", ", unmapped), count);
    }
  }

  /**
   * An integer column of whole yuan passes every check above under cents, and then a payment of
   * 1.00 marks an order of 100 yuan paid. Values cannot prove the unit, so this only warns, and only
   * when the sampled paid orders (at least {@link #WHOLE_YUAN_MIN_ORDERS}) all cost under 100, i.e.
   * under 1.00 each if they were cents: a shop's real takings are not all small change, while a
   * whole-yuan shop of cheap goods (5, 30, 99) is exactly that. Being a multiple of 100 says nothing:
   * a cents shop at round prices (1000 for 10.00) is the usual case.
   */
  private void wholeYuanAsCents(Connection c, Column amount, Column status) throws SQLException {
    if (orders.unit() != OrdersTable.AmountUnit.CENTS) {
      return;
    }
    String sql = "SELECT COUNT(a), MAX(a) FROM (SELECT " + OrdersTable.quote(amount.name()) + " AS a FROM "
        + OrdersTable.quote(orders.table()) + " WHERE " + OrdersTable.quote(status.name()) + " = ? LIMIT " + SAMPLED
        + ") sample";
    String paid = orders.values().paid();
    try (PreparedStatement q = c.prepareStatement(sql)) {
      q.setObject(1, INTEGERS.contains(status.dataType()) ? Long.valueOf(paid) : paid);
      try (ResultSet rs = q.executeQuery()) {
        rs.next();
        long count = rs.getLong(1);
        if (count >= WHOLE_YUAN_MIN_ORDERS && rs.getLong(2) < 100) {
          LOG.warn("{}: orders.amount_unit: cents, but all {} paid orders sampled in {} cost under 100, i.e. under"
              + " 1.00 each as cents: if the column holds whole yuan, a payment of 1.00 would pay an order of 100;"
              + " such a column cannot be mapped (make it DECIMAL(*,2) of yuan, amount_unit yuan), and if these"
              + " really are cents, nothing is wrong", source, count, column(amount));
        }
      }
    }
  }

  private String column(Column column) {
    return "column " + orders.table() + "." + column.name();
  }

  private ConfigException problem(String key, String what) {
    return new ConfigException(source + ": " + key + ": " + what);
  }
}
