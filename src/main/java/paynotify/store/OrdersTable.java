package paynotify.store;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import paynotify.channel.Platform;

/**
 * The site's orders table as the {@code orders:} section maps it, and every statement run on it.
 * The table is the site's: it keeps its own names, amount unit and status values, and paynotify
 * only moves an order's status forward (unpaid -> paid -> partially_refunded -> refunded, unpaid ->
 * closed), each move a conditional UPDATE the database decides. Identifiers come from the config,
 * checked as plain names ({@link #identifier}) and quoted; every value is a bound parameter.
 *
 * <p>Which trade paid an order: the site's trade_no (and channel) columns when mapped, else our own
 * {@code payments.moved_order}, set by the payment's insert after the UPDATE that marks the order
 * paid; that one also for a trade longer than the site's trade column ({@link #tradeColumnHolds}),
 * which markPaid then leaves as it was: what the column holds is then no trade that paid.
 */
public final class OrdersTable {
  /** How the amount column holds money. */
  public enum AmountUnit {
    /** Integer minor units (fen, cents). */
    CENTS,
    /** DECIMAL with two places (yuan, dollars): bound and read as exact decimals, never floats. */
    YUAN;

    Object bind(long cents) {
      return this == CENTS ? cents : BigDecimal.valueOf(cents, 2);
    }

    /** Null when the column is (a site's NULL amount matches no payment). */
    Long read(Row row, int column) {
      if (row.getValue(column) == null) {
        return null;
      }
      return this == CENTS ? row.getLong(column) : row.getBigDecimal(column).movePointRight(2).longValueExact();
    }
  }

  /**
   * The mapped columns; paidAt, channel, tradeNo, createdAt and platformRef are null when the table has none.
   * createdAt, the order's creation time, is only read: the sweeper's age of an order, and no payment found older
   * than its order. platformRef, only read too, is the platform's own id of the order's payment that the site keeps
   * (TokenPay's Id, Creem's checkout, Lemon Squeezy's order): what recovery asks a platform that cannot be asked by
   * the site's order number.
   */
  public record Columns(String orderNo, String amount, String status, String paidAt, String channel, String tradeNo,
      String createdAt, String platformRef) {}

  /** The status values as the site stores them; partiallyRefunded and refunded null: left alone. */
  public record StatusValues(String unpaid, String paid, String closed, String partiallyRefunded, String refunded) {
    /** What a stored value means, or null when it maps to none. A number column's value compares as a number. */
    public OrderStatus of(Object stored) {
      String[] values = {unpaid, paid, closed, partiallyRefunded, refunded};
      for (int i = 0; i < values.length; i++) {
        if (values[i] != null && same(values[i], stored)) {
          return OrderStatus.values()[i];
        }
      }
      return null;
    }

    private static boolean same(String value, Object stored) {
      if (stored instanceof Number n) {
        try {
          return Long.parseLong(value) == n.longValue();
        } catch (NumberFormatException e) {
          return false;
        }
      }
      return value.equals(String.valueOf(stored));
    }
  }

  /** What an order's status means to paynotify, in the order of {@link StatusValues}' components. */
  public enum OrderStatus { UNPAID, PAID, CLOSED, PARTIALLY_REFUNDED, REFUNDED }

  /**
   * An order as the booking sees it.
   *
   * @param status        what its stored status means, null when it maps to none
   * @param storedStatus  as the site stores it, for messages
   * @param amountCents   null when the site's amount column is NULL
   * @param paidByChannel the channel that paid it, null when not known (or the table has no channel column)
   * @param paidByTrade   the trade that paid it, null when not known
   */
  public record Order(OrderStatus status, String storedStatus, Long amountCents, String paidByChannel,
      String paidByTrade) {}

  /** payments.trade_no's length (V1): no trade number is longer, so a trade column this wide leaves none out. */
  private static final long LONGEST_TRADE_NO = 64;

  /**
   * Today's schema: what V1 creates, and what an install without an orders: section acts on. A new
   * one each time: the start's check tells each its trade column's length ({@link #tradeColumnHolds}).
   */
  public static OrdersTable byDefault() {
    return new OrdersTable("orders",
        new Columns("order_no", "amount_cents", "status", "paid_at", "channel", "trade_no", "created_at", null),
        AmountUnit.CENTS,
        new StatusValues("unpaid", "paid", "closed", "partially_refunded", "refunded"));
  }

  private final String table;
  private final Columns columns;
  private final AmountUnit unit;
  private final StatusValues values;
  private final OrderNumbers numbers;
  /** Characters the trade column holds, as the start's check read them; until then none is left out. */
  private volatile long tradeColumnLength = LONGEST_TRADE_NO;

  private final String markPaid;
  private final String markPaidKeepingTrade;
  private final String selectOrder;
  private final String closeOrder;
  private final String markPartiallyRefunded;
  private final String markRefunded;
  private final String markPartiallyRefundedLeftOut;
  private final String markRefundedLeftOut;

  public OrdersTable(String table, Columns columns, AmountUnit unit, StatusValues values) {
    this(table, columns, unit, values, OrderNumbers.AS_IS);
  }

  /** @param numbers how the platforms write the site's order numbers (orders.out_trade_no) */
  public OrdersTable(String table, Columns columns, AmountUnit unit, StatusValues values, OrderNumbers numbers) {
    this.table = table;
    this.columns = columns;
    this.unit = unit;
    this.values = values;
    this.numbers = numbers;

    // Paid: the order alone, as notify.php marks it (our payment row, inserted once it answered, records
    // that this UPDATE moved it; refunds that came first are known by the key they held). paid_at comes
    // in Beijing time, the platforms' clock, and is written in the session's zone, the site's.
    String paidAt = columns.paidAt() == null ? "" : ", {paid_at} = CONVERT_TZ(?, '" + Database.BEIJING
        + "', @@time_zone)";
    String trade = (columns.channel() == null ? "" : ", {channel} = ?")
        + (columns.tradeNo() == null ? "" : ", {trade_no} = ?");
    String markPaid = "UPDATE {orders} SET {status} = ?" + paidAt + "{trade_columns}"
        + " WHERE {order_no} = ? AND CAST({order_no} AS CHAR) = ? AND {status} = ? AND {amount} = ?";
    this.markPaid = sql(markPaid.replace("{trade_columns}", trade));
    // The same move for a trade number the site's trade column is too short for: channel and trade
    // columns left as they were (a channel without its trade would name none); payments has the trade.
    this.markPaidKeepingTrade = columns.tradeNo() == null ? null : sql(markPaid.replace("{trade_columns}", ""));

    // Every statement names the order twice: an integer order_no column alone would take the
    // platform's '0123' or '123abc' for order 123; as text it must read exactly as echoed.
    this.selectOrder = sql("SELECT {status}, {amount}, " + (columns.channel() == null ? "NULL" : "{channel}") + ", "
        + (columns.tradeNo() == null ? "NULL" : "{trade_no}")
        + " FROM {orders} WHERE {order_no} = ? AND CAST({order_no} AS CHAR) = ?");

    this.closeOrder = sql("UPDATE {orders} SET {status} = ?"
        + " WHERE {order_no} = ? AND CAST({order_no} AS CHAR) = ? AND {status} = ?");

    // A refund moves only the order its own trade paid: as the site's columns say (rows booked before
    // V7 say moved_order FALSE), or, without them, as our payment row does (its insert, after
    // markPaid's UPDATE, says whether that moved the order). A trade too long for the column (left out of it): as our
    // payment row does, while the column names no trade: one written there since (the order reopened
    // by hand, then paid through notify.php) paid the order after ours.
    String movedByThisTrade =
        "EXISTS (SELECT 1 FROM payments p WHERE p.channel = ? AND p.trade_no = ? AND p.moved_order)";
    String namedByTheSite = (columns.channel() == null ? "" : "{channel} = ? AND ") + "{trade_no} = ?";
    this.markPartiallyRefunded = refund(false, columns.tradeNo() == null ? movedByThisTrade : namedByTheSite);
    this.markRefunded = refund(true, columns.tradeNo() == null ? movedByThisTrade : namedByTheSite);
    String leftOut = movedByThisTrade + " AND ({trade_no} IS NULL OR {trade_no} = '')";
    this.markPartiallyRefundedLeftOut = columns.tradeNo() == null ? null : refund(false, leftOut);
    this.markRefundedLeftOut = columns.tradeNo() == null ? null : refund(true, leftOut);
  }

  /** paid (or partially_refunded, when {@code full}) -> (partially_)refunded, when {@code paidByThisTrade}. */
  private String refund(boolean full, String paidByThisTrade) {
    return sql("UPDATE {orders} SET {status} = ? WHERE {order_no} = ? AND CAST({order_no} AS CHAR) = ?"
        + " AND {status} " + (full && values.partiallyRefunded() != null ? "IN (?, ?)" : "= ?")
        + " AND " + paidByThisTrade);
  }

  /** A statement with the mapped names, quoted, in place of {orders}, {order_no}, {status} ... */
  private String sql(String template) {
    String[][] names = {{"orders", table}, {"order_no", columns.orderNo()}, {"amount", columns.amount()},
        {"status", columns.status()}, {"paid_at", columns.paidAt()}, {"channel", columns.channel()},
        {"trade_no", columns.tradeNo()}};
    String sql = template;
    for (String[] name : names) {
      if (name[1] != null) { // an unmapped column is in no template
        sql = sql.replace("{" + name[0] + "}", quote(name[1]));
      }
    }
    return sql;
  }

  /** A table or column name from the config: letters, digits, _ and $ only (no quoting tricks). */
  public static boolean identifier(String name) {
    return name.matches("[A-Za-z0-9_$]{1,64}") && !name.matches("[0-9]+");
  }

  /** The name, checked and backquoted: the only way a configured name enters a statement. */
  public static String quote(String identifier) {
    if (!identifier(identifier)) {
      throw new IllegalArgumentException("not a plain identifier: " + identifier);
    }
    return "`" + identifier + "`";
  }

  public String table() {
    return table;
  }

  public Columns columns() {
    return columns;
  }

  public AmountUnit unit() {
    return unit;
  }

  /** How the platforms write the site's order numbers. */
  public OrderNumbers numbers() {
    return numbers;
  }

  public StatusValues values() {
    return values;
  }

  /**
   * What the site's trade column holds, in characters: set by the start's check of the table
   * (OrdersTableCheck), which runs before the service books anything.
   */
  public void tradeColumnHolds(long characters) {
    tradeColumnLength = characters;
  }

  /** A trade number the site's trade column cannot hold: booked without it, known by our payment row. */
  private boolean leftOut(String tradeNo) {
    return columns.tradeNo() != null && tradeNo.codePointCount(0, tradeNo.length()) > tradeColumnLength;
  }

  /**
   * What marking an order paid did.
   *
   * @param tradeLeftOut the trade number did not fit the site's trade column, which was left as it was
   */
  public record PaidMove(boolean moved, boolean tradeLeftOut) {
    public static final PaidMove NONE = new PaidMove(false, false);
  }

  /**
   * Unpaid -> paid, when the amount is the order's. The row count is 0 (not moved) or 1; more is a
   * table whose order number is not unique, never committed. A trade number longer than the site's
   * trade column (a strict session would refuse it, 1406) is chosen up front: the same move without
   * the trade columns, so that a 1406 from anything else (a site's trigger) fails the booking as it is.
   */
  public Future<PaidMove> markPaid(SqlConnection conn, Platform platform, String tradeNo, String orderNo, long cents,
      Object paidAt) {
    boolean withTrade = !leftOut(tradeNo);
    List<Object> args = new ArrayList<>(5 + 4);
    args.add(values.paid());
    if (columns.paidAt() != null) {
      args.add(paidAt);
    }
    if (withTrade && columns.channel() != null) {
      args.add(platform.code());
    }
    if (withTrade && columns.tradeNo() != null) {
      args.add(tradeNo);
    }
    args.addAll(List.of(orderNo, orderNo, values.unpaid(), unit.bind(cents)));
    String sql = withTrade ? markPaid : markPaidKeepingTrade;
    return conn.preparedQuery(sql).execute(Tuple.from(args)).map(rows -> {
      int moved = rows.rowCount();
      if (moved > 1) { // several order rows, one payment: never commit that
        throw new IllegalStateException("orders: " + moved + " rows have " + columns.orderNo() + " " + orderNo
            + " and one payment would mark them all paid: rolled back; the order number"
            + " (orders.columns.order_no) must be a UNIQUE key of " + table);
      }
      return moved == 1 ? new PaidMove(true, !withTrade) : PaidMove.NONE;
    });
  }

  /**
   * The order, or null when the table has none with this number. {@code lock}: FOR UPDATE (booking).
   * Which trade paid it: as the payment that moved it says when its trade was too long for the site's
   * column (which holds what it held before), else as the site's columns say, else (none mapped) as
   * that payment says. payments is read (plainly: a locking read of it could deadlock with a refund of
   * that trade, which locks its payment before its order) only when the columns name no trade, or a
   * column narrower than a trade number may have left the mover out.
   */
  public Future<Order> find(SqlConnection conn, String orderNo, boolean lock) {
    return conn.preparedQuery(selectOrder + (lock ? " FOR UPDATE" : "")).execute(Tuple.of(orderNo, orderNo))
        .compose(rows -> {
          if (rows.size() == 0) {
            return Future.succeededFuture(null);
          }
          Row r = rows.iterator().next();
          Object stored = r.getValue(0);
          OrderStatus status = values.of(stored);
          Long cents = unit.read(r, 1);
          Order bySite = new Order(status, String.valueOf(stored), cents, r.getString(2), r.getString(3));
          boolean named = bySite.paidByTrade() != null && !bySite.paidByTrade().isEmpty();
          if (named && tradeColumnLength >= LONGEST_TRADE_NO) {
            return Future.succeededFuture(bySite);
          }
          return conn.preparedQuery(SqlQueries.SELECT_PAYMENT_THAT_MOVED_ORDER).execute(Tuple.of(orderNo))
              .map(movers -> {
                Row mover = movers.size() == 0 ? null : movers.iterator().next();
                return mover == null || named && !leftOut(mover.getString(1)) ? bySite
                    : new Order(status, bySite.storedStatus(), cents, mover.getString(0), mover.getString(1));
              });
        });
  }

  /** Unpaid -> closed; true when it moved. */
  public Future<Boolean> close(SqlConnection conn, String orderNo) {
    return conn.preparedQuery(closeOrder).execute(Tuple.of(values.closed(), orderNo, orderNo, values.unpaid()))
        .map(rows -> rows.rowCount() == 1);
  }

  /**
   * The order that {@code platform} trade {@code tradeNo} paid moves to refunded ({@code full}) or
   * partially_refunded, never back. Null when the mapping leaves that status alone, else whether it moved.
   */
  public Future<Boolean> markRefunded(SqlConnection conn, String orderNo, Platform platform, String tradeNo,
      boolean full) {
    String target = full ? values.refunded() : values.partiallyRefunded();
    if (target == null) {
      return Future.succeededFuture(null);
    }
    List<Object> args = new ArrayList<>(List.of(target, orderNo, orderNo, values.paid()));
    if (full && values.partiallyRefunded() != null) {
      args.add(values.partiallyRefunded());
    }
    boolean leftOut = leftOut(tradeNo);
    if (columns.tradeNo() != null && !leftOut) { // the site's columns
      if (columns.channel() != null) {
        args.add(platform.code());
      }
      args.add(tradeNo);
    } else { // our payment row
      args.addAll(List.of(platform.code(), tradeNo));
    }
    String sql = leftOut ? (full ? markRefundedLeftOut : markPartiallyRefundedLeftOut)
        : full ? markRefunded : markPartiallyRefunded;
    return conn.preparedQuery(sql).execute(Tuple.from(args)).map(rows -> rows.rowCount() == 1);
  }

  /**
   * The recovery sweeper's work: unpaid orders created {@code youngest} to {@code oldest} (exclusive) seconds ago (the
   * session's clock, the site's zone) whose check is due and held by no instance, the longest overdue first (one never
   * asked about is due min_age after its creation; its check's next_check_at otherwise), with the platform the site
   * noted (the channel column, else NULL), whether the order is old enough to be closed, and the platform's id of it
   * the site keeps (platform_ref, else NULL). Read by status and creation time (the index docs/operations.md advises),
   * only that age range sorted. order_checks is paynotify's (utf8mb4_bin): the site's number is compared as text in
   * that collation whatever its column's type. Binds: close after, unpaid, youngest, oldest, min age (seconds), limit.
   */
  public String dueForCheck(String createdAt) {
    return sql("SELECT CAST(o.{order_no} AS CHAR), " + (columns.channel() == null ? "NULL" : "o.{channel}")
        + ", o.{created_at} < NOW(3) - INTERVAL ? SECOND, " + platformRef("o.")
        + " FROM {orders} o LEFT JOIN order_checks c"
        + " ON c.order_no = CAST(o.{order_no} AS CHAR CHARACTER SET utf8mb4) COLLATE utf8mb4_bin"
        + " WHERE o.{status} = ? AND o.{created_at} <= NOW(3) - INTERVAL ? SECOND"
        + " AND o.{created_at} > NOW(3) - INTERVAL ? SECOND"
        + " AND (c.order_no IS NULL OR (NOT c.done AND c.next_check_at <= UTC_TIMESTAMP(3)"
        + "   AND (c.lease_until IS NULL OR c.lease_until < UTC_TIMESTAMP(3))))"
        + " ORDER BY COALESCE(TIMESTAMPDIFF(SECOND, UTC_TIMESTAMP(3), c.next_check_at),"
        + "   TIMESTAMPDIFF(SECOND, NOW(3), o.{created_at}) + ?), o.{created_at} LIMIT ?")
        .replace("{created_at}", quote(createdAt));
  }

  /**
   * The recovery sweeper's first work after the database refused writes ({@code Recovery.askFirst}): unpaid orders
   * created in a window (UTC, converted to the session's zone, the site's), younger than max_age, not asked about since
   * the window was given and held by no instance, newest first, with the platform the site noted, whether the order is
   * old enough to be closed and its platform_ref (as {@link #dueForCheck}). {@code unqueryable}: how many channel
   * values name a platform that cannot be asked (their orders are left out). Binds: close after, unpaid, from, to, max
   * age (seconds), the unqueryable values, when the window was given (UTC), limit.
   */
  public String inWindowForCheck(String createdAt, int unqueryable) {
    return sql("SELECT CAST(o.{order_no} AS CHAR), " + (columns.channel() == null ? "NULL" : "o.{channel}")
        + ", o.{created_at} < NOW(3) - INTERVAL ? SECOND, " + platformRef("o.")
        + " FROM {orders} o LEFT JOIN order_checks c"
        + " ON c.order_no = CAST(o.{order_no} AS CHAR CHARACTER SET utf8mb4) COLLATE utf8mb4_bin"
        + " WHERE o.{status} = ? AND " + window("o.{created_at}")
        + " AND o.{created_at} > NOW(3) - INTERVAL ? SECOND"
        + (unqueryable == 0 ? "" : " AND (o.{channel} IS NULL OR o.{channel} NOT IN (" + params(unqueryable) + "))")
        + " AND (c.order_no IS NULL OR (NOT c.done AND (c.last_checked_at IS NULL OR c.last_checked_at < ?)"
        + "   AND (c.lease_until IS NULL OR c.lease_until < UTC_TIMESTAMP(3))))"
        + " ORDER BY o.{created_at} DESC LIMIT ?").replace("{created_at}", quote(createdAt));
  }

  /**
   * The most unpaid orders of a window counted: the status page runs the count on every load for a day, and a
   * window of a table filled by a flood of checkouts must not cost a scan of it.
   */
  public static final int COUNTED_UP_TO = 1000;

  /** Unpaid orders of a window: the newest few, and how many in all, up to {@link #COUNTED_UP_TO}. */
  public record Unpaid(List<String> newest, long total) {
    /** Whether the count stopped at {@link #COUNTED_UP_TO}: there may be more. */
    public boolean countStopped() {
      return total >= COUNTED_UP_TO;
    }
  }

  /**
   * The unpaid orders created from {@code from} to {@code to} (inclusive), newest first, at most {@code limit}, and
   * how many there are (up to {@link #COUNTED_UP_TO}), but {@code except}: those whose channel column says no
   * platform that retries ({@code retrying}: NULL, a value of a platform that never delivers again, or one the
   * configuration does not know, listed rather than hidden), or all of them when {@code retrying} is null or empty.
   * A range of the (status, created_at) index docs/operations.md advises. Needs orders.columns.created_at, and the
   * channel column when {@code retrying} values are given.
   */
  public Future<Unpaid> unpaidCreatedBetween(SqlConnection conn, Instant from, Instant to, List<String> retrying,
      List<String> except, int limit) {
    boolean byChannel = retrying != null && !retrying.isEmpty();
    String where = sql(" FROM {orders} WHERE {status} = ? AND " + window("{created_at}")
        + (byChannel ? " AND ({channel} IS NULL OR {channel} NOT IN (" + params(retrying.size()) + "))" : "")
        + (except.isEmpty() ? "" : " AND CAST({order_no} AS CHAR) NOT IN (" + params(except.size()) + ")"))
        .replace("{created_at}", quote(columns.createdAt()));
    List<Object> args = new ArrayList<>(List.of(values.unpaid(), LocalDateTime.ofInstant(from, ZoneOffset.UTC),
        LocalDateTime.ofInstant(to, ZoneOffset.UTC)));
    if (byChannel) {
      args.addAll(retrying);
    }
    args.addAll(except);
    return conn.preparedQuery("SELECT COUNT(*) FROM (SELECT 1" + where + " LIMIT " + COUNTED_UP_TO + ") t")
        .execute(Tuple.from(args)).compose(count -> {
          args.add(limit);
          return conn.preparedQuery("SELECT CAST(" + quote(columns.orderNo()) + " AS CHAR)" + where + " ORDER BY "
                  + quote(columns.createdAt()) + " DESC LIMIT ?").execute(Tuple.from(args))
              .map(rows -> {
                List<String> newest = new ArrayList<>();
                rows.forEach(r -> newest.add(r.getString(0)));
                return new Unpaid(newest, count.iterator().next().getLong(0));
              });
        });
  }

  /** Which of {@code orderNos} (not empty) are paid now, as the orders table says. */
  public Future<Set<String>> paidAmong(SqlConnection conn, List<String> orderNos) {
    List<Object> args = new ArrayList<>(orderNos);
    args.addAll(orderNos);
    args.add(values.paid());
    return conn.preparedQuery(sql("SELECT CAST({order_no} AS CHAR) FROM {orders} WHERE {order_no} IN ("
        + params(orderNos.size()) + ") AND CAST({order_no} AS CHAR) IN (" + params(orderNos.size())
        + ") AND {status} = ?")).execute(Tuple.from(args)).map(rows -> {
          Set<String> paid = new HashSet<>();
          rows.forEach(r -> paid.add(r.getString(0)));
          return paid;
        });
  }

  /** {@code column} within two bound UTC times, compared in the session's zone, the one the site writes in. */
  private static String window(String column) {
    return column + " >= CONVERT_TZ(?, '+00:00', @@session.time_zone) AND " + column
        + " <= CONVERT_TZ(?, '+00:00', @@session.time_zone)";
  }

  private static String params(int n) {
    return "?, ".repeat(n - 1) + "?";
  }

  /**
   * How old the order is, in seconds by the database's clock, and its platform_ref (NULL when not mapped); no row
   * when the table has no such order, NULL when its age cannot be told ({@code createdAt} null:
   * orders.columns.created_at not mapped).
   */
  public String ageOf(String createdAt) {
    return sql("SELECT " + (createdAt == null ? "NULL" : "TIMESTAMPDIFF(SECOND, " + quote(createdAt) + ", NOW(3))")
        + ", " + platformRef("") + " FROM {orders} WHERE {order_no} = ? AND CAST({order_no} AS CHAR) = ?");
  }

  /** The platform_ref column as text (a number column too: no platform is asked by a bare number), or NULL. */
  private String platformRef(String alias) {
    return columns.platformRef() == null ? "NULL" : "CAST(" + alias + quote(columns.platformRef()) + " AS CHAR)";
  }

  /**
   * When the order was created (as the site wrote it, in the session's zone, and that zone) and whether that is
   * later than a payment's platform time (Beijing, converted to the session's zone) plus a clock skew: a payment
   * made before its order existed. No row when the table has no such order, or the trade is booked already (the
   * booking answers that one: a duplicate). Binds: paid at, skew (seconds), the order number twice, the platform,
   * the trade.
   */
  public String createdAfterPayment(String createdAt) {
    return sql("SELECT DATE_FORMAT({created_at}, '%Y-%m-%d %H:%i:%s'), @@session.time_zone,"
        + " {created_at} > CONVERT_TZ(?, '" + Database.BEIJING + "', @@session.time_zone) + INTERVAL ? SECOND"
        + " FROM {orders} WHERE {order_no} = ? AND CAST({order_no} AS CHAR) = ?"
        + " AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.channel = ? AND p.trade_no = ?)")
        .replace("{created_at}", quote(createdAt));
  }

  /** The statement that finds which of {@code ids} order numbers the table knows (reconciliation). */
  public String knownOrders(int ids) {
    return "SELECT " + quote(columns.orderNo()) + " FROM " + quote(table) + " WHERE " + quote(columns.orderNo())
        + " IN (" + params(ids) + ")";
  }
}
