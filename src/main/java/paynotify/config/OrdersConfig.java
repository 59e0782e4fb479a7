package paynotify.config;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import paynotify.store.OrderNumbers;
import paynotify.store.OrdersTable.AmountUnit;
import paynotify.store.OrdersTable.Columns;
import paynotify.store.OrdersTable.StatusValues;
import paynotify.store.OrdersTable;

/**
 * The {@code orders:} section: the site's own orders table, its names, amount unit and status
 * values. What can be checked without the database is checked here; what the table itself must
 * have, at start ({@code setup.migrate.OrdersTableCheck}). The defaults are the schema V1 creates.
 */
final class OrdersConfig {
  /** paynotify's own tables: the site's orders can be none of them. */
  private static final Set<String> OURS = Set.of("payments", "refunds", "idempotent_keys", "notify_log", "anomalies",
      "flyway_schema_history", "forward_events", "order_checks", "daily_closes", "alert_lease", "missed_events_cursor",
      "stripe_events_cursor", "write_refusals", "platform_certificates");

  private OrdersConfig() {}

  static OrdersTable read(ConfigReader c) {
    OrdersTable d = OrdersTable.byDefault();
    String table = name(c, "orders.table", d.table());
    if (OURS.contains(table.toLowerCase(Locale.ROOT))) {
      throw c.error("orders.table", "'" + table + "' is one of paynotify's own tables: name the site's orders table");
    }
    Columns columns = new Columns(
        name(c, "orders.columns.order_no", d.columns().orderNo()),
        name(c, "orders.columns.amount", d.columns().amount()),
        name(c, "orders.columns.status", d.columns().status()),
        optionalName(c, "orders.columns.paid_at", d.columns().paidAt()),
        optionalName(c, "orders.columns.channel", d.columns().channel()),
        optionalName(c, "orders.columns.trade_no", d.columns().tradeNo()),
        // "": the site's table has none; then no order is asked about by age and a payment found is booked
        // without checking that it was made after its order
        optionalName(c, "orders.columns.created_at", d.columns().createdAt()),
        // the platform's id of the order's payment, kept by the site: asked about where the order's number cannot be
        optionalName(c, "orders.columns.platform_ref", null));
    distinct(c, "orders.columns", "order_no", columns.orderNo(), "amount", columns.amount(),
        "status", columns.status(), "paid_at", columns.paidAt(), "channel", columns.channel(),
        "trade_no", columns.tradeNo(), "created_at", columns.createdAt(), "platform_ref", columns.platformRef());
    if (columns.channel() != null && columns.tradeNo() == null) {
      throw c.error("orders.columns.channel", "a channel column without orders.columns.trade_no names no trade:"
          + " map trade_no too, or set channel to \"\"");
    }
    String unit = c.string("orders.amount_unit");
    if (unit == null) {
      // A site's integer column may hold whole yuan: read as cents, 100 yuan would be paid by 1.00.
      if (c.string("orders.columns.amount") != null) {
        throw c.error("orders.amount_unit", "missing: orders.columns.amount maps " + columns.amount() + ", so say"
            + " what it holds: cents (an integer column of minor units, 1999 is 19.99) or yuan (a DECIMAL(*,2)"
            + " column, 19.99); a column of whole yuan is neither");
      }
      unit = "cents"; // the amount_cents column of paynotify's own table
    }
    AmountUnit amountUnit = switch (unit.toLowerCase(Locale.ROOT)) {
      case "cents" -> AmountUnit.CENTS;
      case "yuan" -> AmountUnit.YUAN;
      default -> throw c.error("orders.amount_unit", "'" + unit + "' is not cents (an integer column of minor units)"
          + " or yuan (a DECIMAL column with 2 places)");
    };
    StatusValues dv = d.values();
    StatusValues values = new StatusValues(
        required(c, "orders.status_values.unpaid", dv.unpaid()),
        required(c, "orders.status_values.paid", dv.paid()),
        c.optional("orders.status_values.closed", dv.closed()),
        c.optional("orders.status_values.partially_refunded", dv.partiallyRefunded()),
        c.optional("orders.status_values.refunded", dv.refunded()));
    distinct(c, "orders.status_values", "unpaid", values.unpaid(), "paid", values.paid(),
        "closed", values.closed(), "partially_refunded", values.partiallyRefunded(), "refunded", values.refunded());
    OrderNumbers numbers;
    try {
      numbers = OrderNumbers.of(c.string("orders.out_trade_no", OrderNumbers.PLACEHOLDER));
    } catch (IllegalArgumentException e) {
      throw c.error("orders.out_trade_no", e.getMessage());
    }
    return new OrdersTable(table, columns, amountUnit, values, numbers);
  }

  private static String name(ConfigReader c, String key, String fallback) {
    return checked(c, key, required(c, key, fallback));
  }

  private static String optionalName(ConfigReader c, String key, String fallback) {
    String name = c.optional(key, fallback);
    return name == null ? null : checked(c, key, name);
  }

  private static String required(ConfigReader c, String key, String fallback) {
    String value = c.optional(key, fallback);
    if (value == null) {
      throw c.error(key, "must not be empty");
    }
    return value;
  }

  private static String checked(ConfigReader c, String key, String name) {
    if (!OrdersTable.identifier(name)) {
      throw c.error(key, "'" + name + "' is not a plain table or column name (letters, digits, _ and $)");
    }
    return name;
  }

  /** Two keys of one section must not name the same thing (two statuses in one value could not be told apart). */
  private static void distinct(ConfigReader c, String section, String... keysAndValues) {
    Map<String, String> seen = new HashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      String key = keysAndValues[i];
      String value = keysAndValues[i + 1];
      String before = value == null ? null : seen.putIfAbsent(value.toLowerCase(Locale.ROOT), key);
      if (before != null) {
        throw c.error(section + "." + key, "'" + value + "' is already " + section + "." + before);
      }
    }
  }
}
