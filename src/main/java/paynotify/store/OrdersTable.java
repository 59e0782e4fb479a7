package paynotify.store;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * The site's orders table as the {@code orders:} section maps it, and every statement run on it.
 * The table is the site's: it keeps its own names, amount unit and status values, and paynotify
 * only moves an order's status forward (unpaid -> paid -> partially_refunded -> refunded, unpaid ->
 * closed), each move a conditional UPDATE the database decides. Identifiers come from the config,
 * checked as plain names ({@link #identifier}) and quoted; every value is a bound parameter.
 *
 * <p>Which trade paid an order: the site's trade_no (and channel) columns when mapped, else our own
 * {@code payments.moved_order}, set by the very UPDATE that marks the order paid.
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

    long read(Row row, int column) {
      return this == CENTS ? row.getLong(column) : row.getBigDecimal(column).movePointRight(2).longValueExact();
    }
  }

  /** The mapped columns; paidAt, channel and tradeNo are null when the table has none. */
  public record Columns(String orderNo, String amount, String status, String paidAt, String channel, String tradeNo) {}

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
   * @param paidByChannel the channel that paid it, null when not known (or the table has no channel column)
   * @param paidByTrade   the trade that paid it, null when not known
   */
  public record Order(OrderStatus status, String storedStatus, long amountCents, String paidByChannel,
      String paidByTrade) {}

  /** Today's schema: what V1 creates, and what an install without an orders: section acts on. */
  public static final OrdersTable DEFAULT = new OrdersTable("orders",
      new Columns("order_no", "amount_cents", "status", "paid_at", "channel", "trade_no"), AmountUnit.CENTS,
      new StatusValues("unpaid", "paid", "closed", "partially_refunded", "refunded"));

  private final String table;
  private final Columns columns;
  private final AmountUnit unit;
  private final StatusValues values;

  private final String markPaid;
  private final String selectOrder;
  private final String closeOrder;
  private final String markPartiallyRefunded;
  private final String markRefunded;

  public OrdersTable(String table, Columns columns, AmountUnit unit, StatusValues values) {
    this.table = table;
    this.columns = columns;
    this.unit = unit;
    this.values = values;
    String t = quote(table);
    String orderNo = quote(columns.orderNo());
    String status = quote(columns.status());

    // Marks the order paid and, in the same statement, records on our payment row that it was this
    // payment that did (the row was inserted just before, in this transaction). Binds: channel,
    // trade_no, paid value, [paid_at, channel, trade_no,] order_no, unpaid value, amount.
    StringBuilder set = new StringBuilder("o." + status + " = ?");
    for (String optional : new String[] {columns.paidAt(), columns.channel(), columns.tradeNo()}) {
      if (optional != null) {
        set.append(", o.").append(quote(optional)).append(" = ?");
      }
    }
    this.markPaid = "UPDATE " + t + " o JOIN payments p ON p.channel = ? AND p.trade_no = ?"
        + " SET " + set + ", p.moved_order = TRUE"
        + " WHERE o." + orderNo + " = ? AND o." + status + " = ? AND o." + quote(columns.amount()) + " = ?";

    this.selectOrder = "SELECT " + status + ", " + quote(columns.amount()) + ", "
        + (columns.channel() == null ? "NULL" : quote(columns.channel())) + ", "
        + (columns.tradeNo() == null ? "NULL" : quote(columns.tradeNo()))
        + " FROM " + t + " WHERE " + orderNo + " = ?";

    this.closeOrder = "UPDATE " + t + " SET " + status + " = ? WHERE " + orderNo + " = ? AND " + status + " = ?";

    // A refund moves only the order its trade paid. Binds: new value, order_no, old value(s), then
    // the trade (paidByThisTradeArgs).
    String paidByThisTrade = columns.tradeNo() == null
        ? "EXISTS (SELECT 1 FROM payments p WHERE p.channel = ? AND p.trade_no = ? AND p.moved_order)"
        : (columns.channel() == null ? "" : quote(columns.channel()) + " = ? AND ") + quote(columns.tradeNo()) + " = ?";
    String refundUpdate = "UPDATE " + t + " SET " + status + " = ? WHERE " + orderNo + " = ? AND " + status;
    this.markPartiallyRefunded = refundUpdate + " = ? AND " + paidByThisTrade;
    this.markRefunded = refundUpdate + (values.partiallyRefunded() == null ? " = ?" : " IN (?, ?)")
        + " AND " + paidByThisTrade;
  }

  /** A table or column name from the config: letters, digits, _ and $ only (no quoting tricks). */
  public static boolean identifier(String name) {
    return name.matches("[A-Za-z0-9_$]{1,64}") && !name.matches("[0-9]+");
  }

  static String quote(String identifier) {
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

  public StatusValues values() {
    return values;
  }

  /** Whether the site's own columns say which trade paid an order (else our payments do). */
  public boolean namesTrade() {
    return columns.tradeNo() != null;
  }

  /**
   * Unpaid -> paid, when the amount is the order's; this payment's row (already inserted) is marked
   * as the one that moved it. The row count is 0 (not moved) or 2 (order and payment).
   */
  public Future<Boolean> markPaid(SqlConnection conn, String channel, String tradeNo, String orderNo, long cents,
      Object paidAt) {
    List<Object> args = new ArrayList<>(List.of(channel, tradeNo, values.paid()));
    if (columns.paidAt() != null) {
      args.add(paidAt);
    }
    if (columns.channel() != null) {
      args.add(channel);
    }
    if (columns.tradeNo() != null) {
      args.add(tradeNo);
    }
    args.addAll(List.of(orderNo, values.unpaid(), unit.bind(cents)));
    return conn.preparedQuery(markPaid).execute(Tuple.from(args)).map(rows -> {
      if (rows.rowCount() > 2) { // several order rows and our payment row: never commit that
        throw new IllegalStateException("orders: " + (rows.rowCount() - 1) + " rows have " + columns.orderNo() + " "
            + orderNo + " and one payment would mark them all paid: rolled back; the order number"
            + " (orders.columns.order_no) must be a UNIQUE key of " + table);
      }
      return rows.rowCount() == 2;
    });
  }

  /**
   * The order, or null when the table has none with this number. {@code lock}: FOR UPDATE (booking).
   * Without trade columns, the payment that moved it is read from payments (plainly: a locking read
   * of it could deadlock with a refund of that trade, which locks its payment before its order).
   */
  public Future<Order> find(SqlConnection conn, String orderNo, boolean lock) {
    return conn.preparedQuery(selectOrder + (lock ? " FOR UPDATE" : "")).execute(Tuple.of(orderNo))
        .compose(rows -> {
          if (rows.size() == 0) {
            return Future.succeededFuture(null);
          }
          Row r = rows.iterator().next();
          Object stored = r.getValue(0);
          OrderStatus status = values.of(stored);
          long cents = unit.read(r, 1);
          if (namesTrade()) {
            return Future.succeededFuture(new Order(status, String.valueOf(stored), cents, r.getString(2),
                r.getString(3)));
          }
          return conn.preparedQuery(SqlQueries.SELECT_PAYMENT_THAT_MOVED_ORDER).execute(Tuple.of(orderNo))
              .map(mover -> mover.size() == 0 ? new Order(status, String.valueOf(stored), cents, null, null)
                  : new Order(status, String.valueOf(stored), cents, mover.iterator().next().getString(0),
                      mover.iterator().next().getString(1)));
        });
  }

  /** Unpaid -> closed; true when it moved. */
  public Future<Boolean> close(SqlConnection conn, String orderNo) {
    return conn.preparedQuery(closeOrder).execute(Tuple.of(values.closed(), orderNo, values.unpaid()))
        .map(rows -> rows.rowCount() == 1);
  }

  /**
   * The order that {@code channel} trade {@code tradeNo} paid moves to refunded ({@code full}) or
   * partially_refunded, never back. Null when the mapping leaves that status alone, else whether it moved.
   */
  public Future<Boolean> markRefunded(SqlConnection conn, String orderNo, String channel, String tradeNo,
      boolean full) {
    String target = full ? values.refunded() : values.partiallyRefunded();
    if (target == null) {
      return Future.succeededFuture(null);
    }
    List<Object> args = new ArrayList<>(List.of(target, orderNo, values.paid()));
    if (full && values.partiallyRefunded() != null) {
      args.add(values.partiallyRefunded());
    }
    if (columns.tradeNo() == null || columns.channel() != null) {
      args.add(channel);
    }
    args.add(tradeNo);
    return conn.preparedQuery(full ? markRefunded : markPartiallyRefunded).execute(Tuple.from(args))
        .map(rows -> rows.rowCount() == 1);
  }

  /** The statement that finds which of {@code ids} order numbers the table knows (reconciliation). */
  public String knownOrders(int ids) {
    return "SELECT " + quote(columns.orderNo()) + " FROM " + quote(table) + " WHERE " + quote(columns.orderNo())
        + " IN (" + "?, ".repeat(ids - 1) + "?)";
  }
}
