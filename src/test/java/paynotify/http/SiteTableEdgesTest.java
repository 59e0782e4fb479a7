package paynotify.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import paynotify.config.AppConfig.DatabaseSettings;
import paynotify.testsupport.ChannelFixture;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.TestService;

/**
 * What real sites' tables hold that ours never did: integer order numbers, NULL amounts, payment
 * times in another zone, and two trades racing for an order whose table names no trade.
 */
class SiteTableEdgesTest extends DatabaseTestBase {
  private static final ChannelFixture ALIPAY = ChannelFixture.alipay();

  @AfterEach
  void dropTable() {
    db.update("DROP TABLE IF EXISTS edge_orders");
  }

  /**
   * A service on edge_orders (no trade columns, no creation time, 0 unpaid / 1 paid), with {@code more} merged over
   * its settings.
   */
  private static TestService service(String orderNo, String paidAt, JsonObject more) {
    return service(db.settings(), orderNo, paidAt, more);
  }

  private static TestService service(DatabaseSettings at, String orderNo, String paidAt, JsonObject more) {
    return TestService.start(at, new JsonObject().put("orders", new JsonObject()
        .put("table", "edge_orders")
        .put("columns", new JsonObject().put("order_no", orderNo).put("amount", "fee").put("status", "st")
            .put("paid_at", paidAt).put("channel", "").put("trade_no", "").put("created_at", ""))
        .put("amount_unit", "cents") // fee holds cents (1000 is 10.00): required with columns.amount
        .put("status_values", new JsonObject().put("unpaid", 0).put("paid", 1).put("closed", "")
            .put("partially_refunded", "").put("refunded", ""))).mergeIn(more, true));
  }

  @Test
  void anIntegerOrderNumberMatchesOnlyAsTheSiteWroteIt() throws Exception {
    db.update("CREATE TABLE edge_orders (id INT AUTO_INCREMENT PRIMARY KEY, order_id BIGINT NOT NULL UNIQUE,"
        + " fee INT NOT NULL, st TINYINT NOT NULL DEFAULT 0)");
    db.update("INSERT INTO edge_orders (order_id, fee) VALUES (123, 1000)");
    try (TestService service = service("order_id", "", new JsonObject())) {
      for (String other : new String[] {"0123", "123abc", "123.0"}) {
        assertThat(service.send(ALIPAY.payment(other, "T-" + other, 1000, 0))).matches(ALIPAY.success());
      }
      assertThat(db.string("SELECT st FROM edge_orders")).isEqualTo("0");
      assertThat(db.column("SELECT kind FROM anomalies")).containsOnly("unknown_order").hasSize(3);

      assertThat(service.send(ALIPAY.payment("123", "T-123", 1000, 0))).matches(ALIPAY.success());
      assertThat(db.string("SELECT st FROM edge_orders")).isEqualTo("1");
    }
  }

  /** A hand-written table whose amount may be NULL: no payment matches it, and the payment is still booked. */
  @Test
  void aNullAmountIsAnAmountMismatchNotAFailure() throws Exception {
    db.update("CREATE TABLE edge_orders (no VARCHAR(32) NOT NULL UNIQUE, fee INT NULL, st TINYINT NOT NULL DEFAULT 0)");
    db.update("INSERT INTO edge_orders (no, fee) VALUES ('N1', NULL)");
    try (TestService service = service("no", "", new JsonObject())) {
      assertThat(service.send(ALIPAY.payment("N1", "T-N1", 1000, 0))).matches(ALIPAY.success());
    }
    assertThat(db.payments("T-N1")).isEqualTo(1);
    assertThat(db.string("SELECT st FROM edge_orders")).isEqualTo("0");
    assertThat(db.string("SELECT detail FROM anomalies WHERE kind = 'amount_mismatch'"))
        .isEqualTo("alipay trade T-N1 paid 10.00 but order N1 is for no amount (NULL): order left unpaid");
  }

  /**
   * The platform's Beijing time 2026-11-29 10:15:09 (the notification's gmt_payment) is the instant
   * 02:15:09 UTC: a TIMESTAMP column holds that instant; a DATETIME column the wall clock of
   * database.time_zone (the zone the site writes its own times in).
   */
  @Test
  void paidAtIsTheRightInstantInTheSessionZone() throws Exception {
    db.update("CREATE TABLE edge_orders (no VARCHAR(32) NOT NULL UNIQUE, fee INT NOT NULL, st TINYINT NOT NULL"
        + " DEFAULT 0, paid_ts TIMESTAMP NULL, paid_dt DATETIME NULL)");
    db.update("INSERT INTO edge_orders (no, fee) VALUES ('Z1', 1000), ('Z2', 1000)");
    try (TestService beijing = service("no", "paid_ts", new JsonObject());
        TestService utc = service(TestService.inTimeZone(db.settings(), "+00:00"), "no", "paid_dt", new JsonObject())) {
      assertThat(beijing.send(ALIPAY.payment("Z1", "T-Z1", 1000, 0))).matches(ALIPAY.success());
      assertThat(utc.send(ALIPAY.payment("Z2", "T-Z2", 1000, 0))).matches(ALIPAY.success());
    }
    assertThat(db.string("SELECT UNIX_TIMESTAMP(paid_ts) FROM edge_orders WHERE no = 'Z1'"))
        .isEqualTo(String.valueOf(java.time.Instant.parse("2026-11-29T02:15:09Z").getEpochSecond()));
    assertThat(db.string("SELECT paid_dt FROM edge_orders WHERE no = 'Z2'")).isEqualTo("2026-11-29 02:15:09");
    // Our own record keeps the platform's time as it gave it.
    assertThat(db.string("SELECT paid_at FROM payments WHERE trade_no = 'T-Z2'")).startsWith("2026-11-29 10:15:09");
  }

  /**
   * Two trades paying one order at once, 12 copies each, on a table that names no trade: one trade
   * moves it and says so on its payment row; the other is the second payment, naming the first.
   */
  @Test
  void twoTradesRacingForAnOrderAreDecidedOnce() throws Exception {
    db.update("CREATE TABLE edge_orders (no VARCHAR(32) NOT NULL UNIQUE, fee INT NOT NULL, st TINYINT NOT NULL"
        + " DEFAULT 0)");
    db.update("INSERT INTO edge_orders (no, fee) VALUES ('R1', 1000)");
    try (TestService service = service("no", "", new JsonObject())) {
      List<CompletableFuture<Reply>> replies = new ArrayList<>();
      for (int i = 0; i < 12; i++) {
        replies.add(service.sendAsync(ALIPAY.payment("R1", "T-R1-a", 1000, i)));
        replies.add(service.sendAsync(ALIPAY.payment("R1", "T-R1-b", 1000, i)));
      }
      for (CompletableFuture<Reply> reply : replies) {
        assertThat(reply.get()).matches(ALIPAY.success());
      }
    }
    assertThat(db.string("SELECT st FROM edge_orders")).isEqualTo("1");
    assertThat(db.column("SELECT CONCAT(trade_no, ' ', moved_order) FROM payments ORDER BY trade_no"))
        .hasSize(2).satisfiesExactlyInAnyOrder(a -> assertThat(a).endsWith(" 1"), b -> assertThat(b).endsWith(" 0"));
    String first = db.string("SELECT trade_no FROM payments WHERE moved_order");
    String second = db.string("SELECT trade_no FROM payments WHERE NOT moved_order");
    assertThat(db.string("SELECT CONCAT(kind, ' ', trade_no, ': ', detail) FROM anomalies"))
        .startsWith("second_payment " + second + ": ").contains("already paid by alipay trade " + first);
  }
}
