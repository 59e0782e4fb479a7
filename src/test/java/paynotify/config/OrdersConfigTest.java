package paynotify.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonObject;
import java.util.Map;
import org.junit.jupiter.api.Test;
import paynotify.store.OrdersTable.AmountUnit;
import paynotify.store.OrdersTable.Columns;
import paynotify.store.OrdersTable.OrderStatus;
import paynotify.store.OrdersTable.StatusValues;
import paynotify.store.OrdersTable;

/** The orders: section as read from the file and the environment, and what is refused before any database is asked. */
class OrdersConfigTest {
  private static OrdersTable read(String yaml, Map<String, String> env) {
    return AppConfig.from(new JsonObject(yaml), "app.yaml", env).orders();
  }

  private static void refused(String yaml, String message) {
    assertThatThrownBy(() -> read(yaml, Map.of())).isInstanceOf(ConfigException.class).hasMessage(message);
  }

  @Test
  void withoutTheSectionItIsTheDemoTable() {
    OrdersTable orders = read("{}", Map.of());
    assertThat(orders.table()).isEqualTo("orders");
    assertThat(orders.columns()).isEqualTo(OrdersTable.byDefault().columns());
    assertThat(orders.values()).isEqualTo(OrdersTable.byDefault().values());
    assertThat(orders.unit()).isEqualTo(AmountUnit.CENTS);
  }

  @Test
  void aDujiaokaTableFromTheFile() {
    OrdersTable orders = read("""
        {"orders": {"table": "orders", "amount_unit": "yuan",
          "columns": {"order_no": "order_sn", "amount": "actual_price", "paid_at": "", "channel": ""},
          "status_values": {"unpaid": 1, "paid": 2, "closed": -1, "partially_refunded": "", "refunded": ""}}}""",
        Map.of());
    assertThat(orders.columns()).isEqualTo(new Columns("order_sn", "actual_price", "status", null, null, "trade_no",
        "created_at", null));
    assertThat(orders.values()).isEqualTo(new StatusValues("1", "2", "-1", null, null));
    assertThat(orders.unit()).isEqualTo(AmountUnit.YUAN);
    assertThat(orders.values().of((byte) 2)).isEqualTo(OrderStatus.PAID);
    assertThat(orders.values().of(3)).isNull();
  }

  @Test
  void everyKeyComesFromTheEnvironmentToo() {
    OrdersTable orders = read("{}", Map.of("PAYNOTIFY_ORDERS_TABLE", "shop_order",
        "PAYNOTIFY_ORDERS_COLUMNS_ORDER_NO", "out_trade_no", "PAYNOTIFY_ORDERS_COLUMNS_PAID_AT", "",
        "PAYNOTIFY_ORDERS_AMOUNT_UNIT", "yuan", "PAYNOTIFY_ORDERS_STATUS_VALUES_PAID", "1",
        "PAYNOTIFY_ORDERS_STATUS_VALUES_UNPAID", "0", "PAYNOTIFY_ORDERS_STATUS_VALUES_REFUNDED", ""));
    assertThat(orders.table()).isEqualTo("shop_order");
    assertThat(orders.columns().orderNo()).isEqualTo("out_trade_no");
    assertThat(orders.columns().paidAt()).isNull();
    assertThat(orders.unit()).isEqualTo(AmountUnit.YUAN);
    assertThat(orders.values()).isEqualTo(new StatusValues("0", "1", "closed", "partially_refunded", null));
  }

  @Test
  void namesAreNeverSqlOfTheirOwn() {
    refused("{\"orders\": {\"table\": \"orders; DROP TABLE payments\"}}",
        "app.yaml: orders.table: 'orders; DROP TABLE payments' is not a plain table or column name (letters, digits,"
            + " _ and $)");
    refused("{\"orders\": {\"columns\": {\"status\": \"`status`\"}}}",
        "app.yaml: orders.columns.status: '`status`' is not a plain table or column name (letters, digits, _ and $)");
  }

  @Test
  void theOrdersTableIsNotOneOfOurs() {
    refused("{\"orders\": {\"table\": \"payments\"}}",
        "app.yaml: orders.table: 'payments' is one of paynotify's own tables: name the site's orders table");
  }

  @Test
  void requiredNamesAndValuesAreNotEmpty() {
    refused("{\"orders\": {\"columns\": {\"amount\": \"\"}}}", "app.yaml: orders.columns.amount: must not be empty");
    refused("{\"orders\": {\"status_values\": {\"paid\": \"\"}}}",
        "app.yaml: orders.status_values.paid: must not be empty");
  }

  /** A 0/1 pay_status has no closed value: closing is then never done, and cannot be asked for. */
  @Test
  void withoutAClosedValueOrdersAreNeverClosed() {
    assertThat(read("{\"orders\": {\"status_values\": {\"unpaid\": 0, \"paid\": 1, \"closed\": \"\"}}}", Map.of())
        .values().closed()).isNull();
    refused("{\"orders\": {\"status_values\": {\"closed\": \"\"}}, \"booking\": {\"trade_closed_closes_order\": true}}",
        "app.yaml: booking.trade_closed_closes_order: true needs the value a closed order has:"
            + " orders.status_values.closed is empty");
  }

  /** S1: a table without a creation time: no payment found can be checked against it, and no order aged. */
  @Test
  void aTableWithoutACreationTimeHasNoSweeper() {
    AppConfig config = AppConfig.from(new JsonObject("{\"orders\": {\"columns\": {\"created_at\": \"\"}}}"),
        "app.yaml", Map.of());
    assertThat(config.recovery().settings().createdAt()).isNull();
    refused("{\"orders\": {\"columns\": {\"created_at\": \"\"}}, \"recovery\": {\"enabled\": true}}",
        "app.yaml: recovery.enabled: true, but orders.columns.created_at is empty: the sweeper takes unpaid orders by"
            + " their age; map the site's creation-time column");
  }

  @Test
  void theSessionZoneIsAnOffset() {
    assertThat(AppConfig.from(new JsonObject(), "app.yaml", Map.of()).database().timeZone()).isEqualTo("+08:00");
    assertThat(AppConfig.from(new JsonObject(), "app.yaml", Map.of("PAYNOTIFY_DATABASE_TIME_ZONE", "+00:00"))
        .database().timeZone()).isEqualTo("+00:00");
    refused("{\"database\": {\"time_zone\": \"Asia/Shanghai\"}}",
        "app.yaml: database.time_zone: 'Asia/Shanghai' is not an offset from UTC such as +08:00 or +00:00");
  }

  @Test
  void twoStatusesCannotShareAValue() {
    refused("{\"orders\": {\"status_values\": {\"unpaid\": 0, \"paid\": 1, \"closed\": 0}}}",
        "app.yaml: orders.status_values.closed: '0' is already orders.status_values.unpaid");
    refused("{\"orders\": {\"columns\": {\"trade_no\": \"order_no\"}}}",
        "app.yaml: orders.columns.trade_no: 'order_no' is already orders.columns.order_no");
    // a booking writes paid_at: on the creation time, it would make every order look paid before it existed
    refused("{\"orders\": {\"columns\": {\"created_at\": \"paid_at\"}}}",
        "app.yaml: orders.columns.created_at: 'paid_at' is already orders.columns.paid_at");
    // a booking writes the paying trade over the id recovery would ask by
    refused("{\"orders\": {\"columns\": {\"platform_ref\": \"trade_no\"}}}",
        "app.yaml: orders.columns.platform_ref: 'trade_no' is already orders.columns.trade_no");
  }

  @Test
  void anUnknownUnitIsNamed() {
    refused("{\"orders\": {\"amount_unit\": \"fen\"}}", "app.yaml: orders.amount_unit: 'fen' is not cents (an integer"
        + " column of minor units) or yuan (a DECIMAL column with 2 places)");
  }

  @Test
  void aChannelColumnNeedsATradeColumn() {
    refused("{\"orders\": {\"columns\": {\"trade_no\": \"\"}}}", "app.yaml: orders.columns.channel: a channel column"
        + " without orders.columns.trade_no names no trade: map trade_no too, or set channel to \"\"");
  }
  /** Review S9: an integer column of whole yuan read as cents would be paid by a hundredth of its price. */
  @Test
  void aMappedAmountNeedsItsUnit() {
    refused("{\"orders\": {\"table\": \"shop\", \"columns\": {\"amount\": \"price\"}}}",
        "app.yaml: orders.amount_unit: missing: orders.columns.amount maps price, so say what it holds: cents (an"
            + " integer column of minor units, 1999 is 19.99) or yuan (a DECIMAL(*,2) column, 19.99); a column of"
            + " whole yuan is neither");
    assertThat(read("{\"orders\": {\"columns\": {\"amount\": \"price\"}, \"amount_unit\": \"cents\"}}", Map.of())
        .unit()).isEqualTo(AmountUnit.CENTS);
    // without columns.amount the column is the demo table's amount_cents: its unit is known
    assertThat(read("{\"orders\": {\"columns\": {\"order_no\": \"sn\"}}}", Map.of()).unit())
        .isEqualTo(AmountUnit.CENTS);
  }
}
