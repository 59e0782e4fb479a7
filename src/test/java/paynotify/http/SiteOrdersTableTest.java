package paynotify.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import paynotify.testsupport.AlipayNotifications;
import paynotify.testsupport.ChannelFixture;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.SiteTable;
import paynotify.testsupport.TestService;

/**
 * The site's own orders table (the {@code orders:} section): the same exactly-once booking and
 * anomalies on tables whose names, amount unit and status values are the site's, on every channel.
 */
class SiteOrdersTableTest extends DatabaseTestBase {
  private static final SiteTable DUJIAOKA = SiteTable.dujiaoka(db);
  private static final SiteTable PAY_STATUS = SiteTable.payStatus(db);
  private static final List<SiteTable> SITES = List.of(DUJIAOKA, PAY_STATUS);
  private static final Map<SiteTable, TestService> services = new HashMap<>();

  /** One service per table. Only the TRADE_CLOSED test sends a close: switching closes on changes no other. */
  @BeforeAll
  static void createTablesAndStartTheirServices() {
    for (SiteTable site : SITES) {
      site.create();
      services.put(site, TestService.start(db.settings(), site.overrides()
          .put("booking", new JsonObject().put("trade_closed_closes_order", true))));
    }
  }

  @AfterAll
  static void stopServicesAndDropTables() {
    services.values().forEach(TestService::close);
    SITES.forEach(SiteTable::drop);
  }

  @BeforeEach
  void emptySiteTables() {
    SITES.forEach(SiteTable::empty);
  }

  static Stream<SiteTable> sites() {
    return SITES.stream();
  }

  static Stream<Arguments> sitesAndChannels() {
    return eachSiteWith(ChannelFixture.all());
  }

  static Stream<Arguments> sitesAndRefundChannels() {
    return eachSiteWith(ChannelFixture.sendsRefunds());
  }

  private static Stream<Arguments> eachSiteWith(List<ChannelFixture> channels) {
    return SITES.stream().flatMap(site -> channels.stream().map(ch -> Arguments.of(site, ch)));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("sitesAndChannels")
  void concurrentCopiesPayTheOrderOnce(SiteTable site, ChannelFixture ch) throws Exception {
    site.insertOrder("S1", 1999); // 19.99 yuan: the DECIMAL compared exactly
    List<CompletableFuture<Reply>> replies = new ArrayList<>();
    for (int i = 0; i < 24; i++) {
      replies.add(service(site).sendAsync(ch.payment("S1", "T-S1", 1999, i)));
    }
    assertThat(replies).allSatisfy(r -> assertThat(r.join()).matches(ch.success()));

    assertThat(db.payments("T-S1")).isEqualTo(1);
    assertThat(site.status("S1")).isEqualTo(site.paid());
    assertThat(site.tradeNo("S1")).isEqualTo("T-S1");
    assertThat(db.count("SELECT COUNT(*) FROM notify_log WHERE outcome = 'processed'")).isEqualTo(1);
    assertThat(db.count("SELECT COUNT(*) FROM notify_log WHERE outcome = 'duplicate'")).isEqualTo(23);
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("sitesAndChannels")
  void wrongAmountIsAnAnomalyAndTheOrderStaysUnpaid(SiteTable site, ChannelFixture ch) throws Exception {
    site.insertOrder("S2", 1000);
    assertThat(service(site).send(ch.payment("S2", "T-S2", 999, 0))).matches(ch.success());

    assertThat(site.status("S2")).isEqualTo(site.unpaid());
    assertThat(site.tradeNo("S2")).isNotEqualTo("T-S2");
    if (ch.keepsAPaymentOfAnotherAmount()) {
      assertThat(db.payments("T-S2")).isEqualTo(1); // the money is real
      assertThat(anomalyKinds("T-S2")).isEqualTo("amount_mismatch");
    } else { // V免签: no payment kept, its trade left free for the order's real payment
      assertThat(db.payments("T-S2")).isZero();
      assertThat(anomalyKinds("T-S2")).isEqualTo("price_shift");
    }
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("sitesAndChannels")
  void secondPaymentIsAnAnomalyAndTheOrderKeepsItsFirstTrade(SiteTable site, ChannelFixture ch) throws Exception {
    payTwice(site, ch, "S3");

    assertThat(site.status("S3")).isEqualTo(site.paid());
    assertThat(site.tradeNo("S3")).isEqualTo("T-S3-1");
    assertThat(db.count("SELECT COUNT(*) FROM payments WHERE order_no = 'S3'")).isEqualTo(2);
    assertThat(anomalyKinds("T-S3-2")).isEqualTo("second_payment");
    assertThat(anomalyKinds("T-S3-1")).isNull();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("sitesAndChannels")
  void paymentOfAClosedOrderIsAnAnomalyAndTheOrderStaysClosed(SiteTable site, ChannelFixture ch) throws Exception {
    site.insertOrder("S4", 500);
    site.close("S4");
    assertThat(service(site).send(ch.payment("S4", "T-S4", 500, 0))).matches(ch.success());

    assertThat(site.status("S4")).isEqualTo(site.closed());
    assertThat(db.payments("T-S4")).isEqualTo(1);
    assertThat(anomalyKinds("T-S4")).isEqualTo("paid_after_close");
  }

  /** A refund moves the order to the mapped status, or leaves it paid where the site maps none (""). */
  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("sitesAndRefundChannels")
  void refundsMoveTheOrderOnlyToMappedStatuses(SiteTable site, ChannelFixture ch) throws Exception {
    site.insertOrder("S5", 10000);
    assertThat(service(site).send(ch.payment("S5", "T-S5", 10000, 0))).matches(ch.success());
    assertThat(service(site).send(ch.refund("S5", "T-S5", 10000, "RF-S5-a", 3000, 3000, 0))).matches(ch.success());
    assertThat(site.status("S5")).isEqualTo(site.afterPartialRefund());
    assertThat(service(site).send(ch.refund("S5", "T-S5", 10000, "RF-S5-b", 7000, 10000, 0))).matches(ch.success());
    assertThat(site.status("S5")).isEqualTo(site.afterFullRefund());

    assertThat(db.count("SELECT COUNT(*) FROM refunds WHERE trade_no = 'T-S5' AND status = 'settled'")).isEqualTo(2);
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
  }

  /**
   * Neither table has a channel column: the trade_no column alone says which trade paid the order,
   * so refunding the second payment of an order paid twice leaves the order paid. (A table with no
   * trade column at all: TableWithoutTradeColumnsTest.)
   */
  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("sitesAndRefundChannels")
  void refundOfTheSecondPaymentLeavesTheOrderPaid(SiteTable site, ChannelFixture ch) throws Exception {
    payTwice(site, ch, "S6");
    assertThat(service(site).send(ch.refund("S6", "T-S6-2", 1000, "RF-S6", 1000, 1000, 0))).matches(ch.success());

    assertThat(site.status("S6")).isEqualTo(site.paid());
    assertThat(site.tradeNo("S6")).isEqualTo("T-S6-1");
    assertThat(db.string("SELECT status FROM refunds WHERE refund_no = 'RF-S6'")).isEqualTo("settled");
  }

  /** Two trades pay the same order: T-{orderNo}-1 first, then T-{orderNo}-2. */
  private static void payTwice(SiteTable site, ChannelFixture ch, String orderNo) throws Exception {
    site.insertOrder(orderNo, 1000);
    for (String tradeNo : List.of("T-" + orderNo + "-1", "T-" + orderNo + "-2")) {
      assertThat(service(site).send(ch.payment(orderNo, tradeNo, 1000, 0))).matches(ch.success());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sites")
  void tradeClosedClosesAnUnpaidOrderWithTheMappedValue(SiteTable site) {
    site.insertOrder("S7-unpaid", 100);
    site.insertOrder("S7-paid", 100);
    TestService service = service(site);
    assertThat(service.postAlipay(AlipayNotifications.signedBody(
        AlipayNotifications.payment("S7-paid", "T-S7-paid", "1.00")))).isEqualTo(new Reply(200, "success"));
    for (String order : List.of("S7-unpaid", "S7-paid")) {
      Map<String, String> closed = AlipayNotifications.payment(order, "T-" + order, "1.00");
      closed.put("trade_status", "TRADE_CLOSED");
      assertThat(service.postAlipay(AlipayNotifications.signedBody(closed))).isEqualTo(new Reply(200, "success"));
    }
    assertThat(site.status("S7-unpaid")).isEqualTo(site.closed());
    assertThat(site.status("S7-paid")).isEqualTo(site.paid());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("paynotify.http.ChannelContractTest#channels")
  void paidAtIsWrittenWhereTheSiteMapsIt(ChannelFixture ch) throws Exception {
    PAY_STATUS.insertOrder("S8", 2500);
    assertThat(PAY_STATUS.paidAt("S8")).isNull();
    assertThat(service(PAY_STATUS).send(ch.payment("S8", "T-S8", 2500, 0))).matches(ch.success());

    assertThat(PAY_STATUS.status("S8")).isEqualTo(PAY_STATUS.paid());
    assertThat(PAY_STATUS.paidAt("S8")).isNotNull();
  }

  /**
   * Review S9: a shop's INT column of whole yuan, mapped without a unit. Read as cents, a payment of
   * 1.00 would pay the order of 100 yuan: the start is refused before any payment is read.
   */
  @Test
  void anIntegerColumnOfWholeYuanWithoutAUnitDoesNotStart() {
    db.update("CREATE TABLE yuan_orders (id INT AUTO_INCREMENT PRIMARY KEY, order_no VARCHAR(32) NOT NULL,"
        + " price INT NOT NULL, status VARCHAR(16) NOT NULL DEFAULT 'unpaid', UNIQUE KEY (order_no))");
    try {
      db.update("INSERT INTO yuan_orders (order_no, price) VALUES ('Y1', 100)"); // 100 yuan
      JsonObject orders = new JsonObject().put("table", "yuan_orders").put("columns", new JsonObject()
          .put("amount", "price").put("paid_at", "").put("channel", "").put("trade_no", ""));
      Throwable refusal = catchThrowable(() -> {
        try (TestService service = TestService.start(db.settings(), new JsonObject().put("orders", orders))) {
          service.postAlipay(AlipayNotifications.signedBody(AlipayNotifications.payment("Y1", "T-Y1", "1.00")));
        }
      });
      assertThat(db.string("SELECT status FROM yuan_orders WHERE order_no = 'Y1'")).isEqualTo("unpaid");
      assertThat(refusal).hasMessageContaining("orders.amount_unit: missing: orders.columns.amount maps price");
    } finally {
      db.update("DROP TABLE yuan_orders");
    }
  }

  private static TestService service(SiteTable site) {
    return services.get(site);
  }

  private static String anomalyKinds(String tradeNo) {
    return db.string("SELECT GROUP_CONCAT(kind ORDER BY id) FROM anomalies WHERE trade_no = ?", tradeNo);
  }
}
