package paynotify.setup;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import paynotify.cli.ExitCode;
import paynotify.testsupport.ChannelFixture;
import paynotify.testsupport.Cli;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.Http;
import paynotify.testsupport.SampleBills;
import paynotify.testsupport.ServiceProcess;
import paynotify.testsupport.SiteTable;

/**
 * The site's orders table as the {@code orders:} section maps it, checked when a real process
 * starts: a table that cannot be booked on stops the start (exit 2, one line naming the key to
 * fix) before a buyer pays; status values the mapping does not know are only a WARN.
 */
class OrdersStartupCheckTest extends DatabaseTestBase {
  private final SiteTable dujiaoka = SiteTable.dujiaoka(db);
  private final SiteTable payStatus = SiteTable.payStatus(db);

  @TempDir
  Path dir;

  @AfterEach
  void dropSiteTables() {
    dujiaoka.drop();
    payStatus.drop();
  }

  @Test
  void missingTableNamesOrdersTable() throws Exception {
    refused(dujiaoka.overrides(), "orders.table");
  }

  /** paid_at left out of the mapping: its default (paid_at, today's schema) is a column dujiaoka does not have. */
  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource({"amount, price", "paid_at,", "platform_ref, tokenpay_id"})
  void missingColumnNamesItsKey(String key, String column) throws Exception {
    dujiaoka.create();
    refused(dujiaoka.overridesWith("columns." + key, column), "orders.columns." + key);
  }

  @Test
  void orderNumberUniqueOnlyWithAnotherColumnNamesTheOrderNumberKey() throws Exception {
    dujiaoka.create();
    db.update("ALTER TABLE " + dujiaoka.table() + " DROP INDEX idx_order_sn,"
        + " ADD UNIQUE KEY uk_sn_email (order_sn, email), ADD KEY idx_order_sn (order_sn)");
    refused(dujiaoka.overrides(), "orders.columns.order_no");
  }

  /**
   * Issue 40's review: the default created_at is asked outside recovery too (repair book, auto_repair, check,
   * Stripe's missed events). A table without it, or with the time as an INT of seconds (create_time), stops the
   * start naming the key, the table and what to set, instead of failing every payment found later (1054) or
   * comparing nonsense.
   */
  @ParameterizedTest(name = "created_at: {0}")
  @CsvSource({", table site_pay_orders has no column created_at",
      "create_time, column site_pay_orders.create_time is int"})
  void aCreationTimeColumnMissingOrNotATimeStopsTheStart(String column, String what) throws Exception {
    payStatus.create();
    refused(payStatus.overridesWith("columns.created_at", column), "orders.columns.created_at: " + what,
        "DATETIME or TIMESTAMP", "or to \"\" when the table has none");
  }

  /** created_at: "" (the table has none): it starts, and the log says that the paid-before-order check is off. */
  @Test
  void aTableWithoutACreationTimeStartsSayingThatPaymentsFoundAreNotCheckedAgainstIt() throws Exception {
    payStatus.create();
    try (ServiceProcess p = ServiceProcess.start(db.settings(), payStatus.overrides(), dir)) {
      p.awaitHealth(200, Duration.ofSeconds(60));
      assertThat(p.awaitLogLine("orders.columns.created_at", Duration.ofSeconds(10))).contains("WARN")
          .contains("is not mapped").contains("without checking that it was made after its order was created");
    }
  }

  /** The tools check the table as the start does (CliDatabase): repair book names the key, no 1054 on the way. */
  @Test
  void theToolsRefuseATableWithoutTheCreationTimeToo() {
    payStatus.create();
    String orders = "orders: " + payStatus.overridesWith("columns.created_at", null).getJsonObject("orders").encode();
    Cli.Result r = Cli.runConfigured(orders, "repair", "book", "--channel", "alipay", "--bill",
        SampleBills.ALIPAY.toString(), "--trade-no", "2026031422001477480730061433");
    assertThat(r.exit()).as(r.err()).isEqualTo(ExitCode.UNUSABLE);
    assertThat(r.err()).contains("orders.columns.created_at: table site_pay_orders has no column created_at");
  }

  /** An old shop's MyISAM table cannot roll an order back with a booking that failed after marking it paid. */
  @Test
  void aTableThatCannotRollBackIsRefused() throws Exception {
    dujiaoka.create();
    db.update("ALTER TABLE " + dujiaoka.table() + " ENGINE = MyISAM");
    refused(dujiaoka.overrides(), "orders.table", "not InnoDB");
  }

  /**
   * Issue 22: a site's VARCHAR(32) trade column starts, with a WARN naming the column, its length and
   * each enabled platform whose documented trade numbers are longer (Alipay, epay, Stripe: 64 as
   * accepted), not WeChat (32), PayPal (19) nor Paddle (30): a longer trade is booked without it
   * (NarrowTradeColumnTest).
   */
  @Test
  void aTradeColumnShorterThanAnEnabledPlatformsTradeNumbersIsAWarning() throws Exception {
    dujiaoka.create();
    db.update("ALTER TABLE " + dujiaoka.table() + " MODIFY trade_no VARCHAR(32) DEFAULT ''");
    try (ServiceProcess p = ServiceProcess.start(db.settings(), dujiaoka.overrides(), dir)) {
      p.awaitHealth(200, Duration.ofSeconds(60));
      String line = p.awaitLogLine("orders.columns.trade_no", Duration.ofSeconds(10));
      assertThat(line).contains("WARN").contains("dujiaoka_orders.trade_no").contains("varchar(32) (32 characters)")
          .contains("alipay (up to 64), epay (up to 64), stripe (up to 64), epusdt (up to 64), vmq (up to 64),"
              + " tokenpay (up to 36), lemonsqueezy (up to 64), creem (up to 64)")
          .contains("trade_no_too_long")
          .contains("widen it to 64").doesNotContain("wechat").doesNotContain("paypal").doesNotContain("paddle")
          .doesNotContain("xunhupay");
    }
  }

  /**
   * The start's reading of the column reaches the booking of the process it starts (through the
   * migrations' own class loader): a trade longer than the column is booked without it, no 1406.
   */
  @Test
  void theStartedServiceBooksATradeLongerThanItsTradeColumnWithoutIt() throws Exception {
    dujiaoka.create();
    db.update("ALTER TABLE " + dujiaoka.table() + " MODIFY trade_no VARCHAR(32) DEFAULT ''");
    dujiaoka.insertOrder("S1", 1999);
    String trade = "T40-" + "0123456789".repeat(4).substring(0, 36);
    ChannelFixture alipay = ChannelFixture.alipay();
    try (ServiceProcess p = ServiceProcess.start(db.settings(), dujiaoka.overrides(), dir)) {
      p.awaitHealth(200, Duration.ofSeconds(60));
      assertThat(Http.send(p.port(), alipay.payment("S1", trade, 1999, 0))).matches(alipay.success());
    }
    assertThat(dujiaoka.status("S1")).isEqualTo(dujiaoka.paid());
    assertThat(dujiaoka.tradeNo("S1")).isEmpty();
    assertThat(db.column("SELECT CONCAT(kind, ' ', trade_no) FROM anomalies"))
        .containsExactly("trade_no_too_long " + trade);
  }

  /** A WARN must mean the operator has something to do: WeChat's 32-character ids fit a VARCHAR(32). */
  @Test
  void aTradeColumnAsLongAsTheEnabledPlatformsTradeNumbersStartsWithoutAWarning() throws Exception {
    dujiaoka.create();
    db.update("ALTER TABLE " + dujiaoka.table() + " MODIFY trade_no VARCHAR(32) DEFAULT ''");
    JsonObject wechatOnly = dujiaoka.overrides().put("alipay", (Object) null).put("epay", (Object) null)
        .put("stripe", (Object) null).put("paypal", (Object) null).put("epusdt", (Object) null)
        .put("vmq", (Object) null).put("tokenpay", (Object) null)
        .put("lemonsqueezy", (Object) null).put("paddle", (Object) null).put("creem", (Object) null); // xunhupay's ids are 32 characters too
    try (ServiceProcess p = ServiceProcess.start(db.settings(), wechatOnly, dir)) {
      p.awaitHealth(200, Duration.ofSeconds(60));
      assertThat(p.log()).contains("/notify/wechat/v2").contains("/notify/alipay is off")
          .doesNotContain("orders.columns.trade_no");
    }
  }

  /** What cannot hold a trade number at all still stops the start. */
  @Test
  void aTradeColumnThatIsNotTextIsRefused() throws Exception {
    dujiaoka.create();
    db.update("ALTER TABLE " + dujiaoka.table() + " MODIFY trade_no BIGINT NULL");
    refused(dujiaoka.overrides(), "orders.columns.trade_no", "is bigint", "text column");
  }

  @Test
  void integerAmountInYuanIsRefused() throws Exception {
    payStatus.create();
    refused(payStatus.overridesWith("amount_unit", "yuan"), "orders.columns.amount", "amount_unit");
  }

  @Test
  void decimalAmountInCentsIsRefused() throws Exception {
    dujiaoka.create();
    refused(dujiaoka.overridesWith("amount_unit", "cents"), "orders.columns.amount", "amount_unit");
  }

  @Test
  void textStatusValueForANumericColumnNamesTheValue() throws Exception {
    payStatus.create();
    refused(payStatus.overridesWith("status_values.paid", "paid"), "orders.status_values.paid");
  }

  /** dujiaoka's completed orders (4, 已完成) map to nothing: the site should know, but nothing is wrong. */
  @Test
  void statusTheMappingDoesNotKnowIsAWarningOnly() throws Exception {
    dujiaoka.create();
    dujiaoka.insertOrder("W-open", 1000);
    dujiaoka.insertOrder("W-done", 1000);
    dujiaoka.setStatus("W-done", 4);
    try (ServiceProcess p = ServiceProcess.start(db.settings(), dujiaoka.overrides(), dir)) {
      p.awaitHealth(200, Duration.ofSeconds(60));
      String line = p.awaitLogLine("orders.status_values", Duration.ofSeconds(10));
      assertThat(line).contains("WARN");
      String message = line.substring(line.indexOf(" - ")); // past the time stamp's digits
      assertThat(message).as("names the value 4").containsPattern("(?<![\\d-])4(?!\\d)");
    }
  }

  /** Every value of the table mapped: it starts, and says nothing of status values (checked before it serves). */
  @Test
  void fullyMappedTableStartsWithoutAWarning() throws Exception {
    payStatus.create();
    for (int status = 0; status <= 4; status++) {
      payStatus.insertOrder("M" + status, 100);
      payStatus.setStatus("M" + status, status);
    }
    try (ServiceProcess p = ServiceProcess.start(db.settings(), payStatus.overrides(), dir)) {
      p.awaitHealth(200, Duration.ofSeconds(60));
      assertThat(p.log()).doesNotContain("orders.status_values");
    }
  }

  @Test
  void aMappedAmountWithoutItsUnitIsRefused() throws Exception {
    payStatus.create();
    refused(payStatus.overridesWith("amount_unit", null), "orders.amount_unit", "whole yuan");
  }

  /**
   * Review S9: twenty paid orders all under 100 under cents (under 1.00 each) look like whole yuan: a
   * WARN naming the key; a shop of real cents at round prices (1000, 10.00) starts without one.
   */
  @Test
  void paidAmountsThatLookLikeWholeYuanAreAWarning() throws Exception {
    payStatus.create();
    paidOrders("Y", 30);
    try (ServiceProcess p = ServiceProcess.start(db.settings(), payStatus.overrides(), dir)) {
      p.awaitHealth(200, Duration.ofSeconds(60));
      String line = p.awaitLogLine("orders.amount_unit", Duration.ofSeconds(10));
      assertThat(line).contains("WARN").contains("all 20 paid orders sampled").contains("site_pay_orders.total_fee");
    }
    payStatus.empty();
    paidOrders("C", 1000);
    try (ServiceProcess p = ServiceProcess.start(db.settings(), payStatus.overrides(), dir)) {
      p.awaitHealth(200, Duration.ofSeconds(60));
      assertThat(p.log()).doesNotContain("orders.amount_unit");
    }
  }

  private void paidOrders(String prefix, long amount) {
    for (int i = 0; i < 20; i++) {
      payStatus.insertOrder(prefix + i, amount);
      payStatus.setStatus(prefix + i, 1);
    }
  }

  /** Serving with these overrides stops the process: exit 2, its last line the file and each of {@code keys}. */
  private void refused(JsonObject overrides, String... keys) throws Exception {
    try (ServiceProcess p = ServiceProcess.start(db.settings(), overrides, dir)) {
      assertThat(p.exitCode(Duration.ofSeconds(30))).isEqualTo(ExitCode.UNUSABLE);
      assertThat(p.lastErrorLine()).startsWith("paynotify: " + dir.resolve("application.yaml") + ": ").contains(keys);
    }
  }
}
