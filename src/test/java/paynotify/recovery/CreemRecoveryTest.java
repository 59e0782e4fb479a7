package paynotify.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.CreemApiStandIn;
import paynotify.testsupport.CreemNotifications;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.Notification;
import paynotify.testsupport.SiteTable;
import paynotify.testsupport.TestService;
import paynotify.testsupport.TokenPayStandIn;

/**
 * Creem asked about the site's unpaid orders by the checkout id the site keeps beside each
 * (orders.columns.platform_ref, here a column of the site's own table), its API played by {@link CreemApiStandIn}: a
 * paid checkout booked once through the channel's reading and the same booking, its webhook before or after a
 * duplicate; another order's checkout, a refunded one, Test Mode and a refused key book nothing; an order without a
 * checkout id is not asked.
 */
class CreemRecoveryTest extends DatabaseTestBase {
  /** A copy of paynotify's demo table, and a column the site keeps Creem's checkout id in ({@link #createTable}). */
  private static final SiteTable SITE = new SiteTable("creem_checkout", db,
      "CREATE TABLE creem_site_orders LIKE orders",
      // made ten minutes ago (database.time_zone is Beijing time): due for the sweeper
      "INSERT INTO creem_site_orders (order_no, amount_cents, channel, created_at) VALUES (?, ?, 'creem',"
          + " CONVERT_TZ(NOW(3), @@session.time_zone, '+08:00') - INTERVAL 600 SECOND)",
      new JsonObject().put("table", "creem_site_orders")
          .put("columns", new JsonObject().put("order_no", "order_no").put("amount", "amount_cents")
              .put("status", "status").put("paid_at", "paid_at").put("channel", "channel").put("trade_no", "trade_no")
              .put("created_at", "created_at").put("platform_ref", "creem_checkout_id"))
          .put("amount_unit", "cents"),
      "unpaid", "paid", "closed", "partially_refunded", "refunded");

  CreemApiStandIn creem = CreemApiStandIn.start();
  TestService service;

  @BeforeAll
  static void createTable() {
    SITE.create();
    db.update("ALTER TABLE creem_site_orders ADD COLUMN creem_checkout_id VARCHAR(64) NULL");
  }

  @AfterAll
  static void dropTable() {
    SITE.drop();
  }

  @BeforeEach
  void start() {
    SITE.empty();
    service = start(CreemApiStandIn.KEY, new JsonObject());
  }

  @AfterEach
  void stop() {
    service.close();
    creem.close();
  }

  /** The service on the site's table, asking Creem with {@code key} (null: none given). */
  TestService start(String key, JsonObject overrides) {
    JsonObject config = TestService.configuration(SITE.overrides());
    return TestService.startOnCheckedTable(db.settings(), (key == null ? config : creem.configure(config, key))
        .put("recovery", new JsonObject().put("enabled", true).put("interval_seconds", 3600)).mergeIn(overrides, true));
  }

  /** An unpaid order of 25.00 whose checkout is {@code checkout} (null: the site kept none). */
  void order(String orderNo, String checkout) {
    SITE.insertOrder(orderNo, 2500);
    db.update("UPDATE creem_site_orders SET creem_checkout_id = ? WHERE order_no = ?", checkout, orderNo);
  }

  /** Checkout {@code n} of a test, as Creem writes its ids. */
  static String checkout(int n) {
    return String.format("ch_4l0N34kxo16AhRKU%06d", n);
  }

  void sweep() {
    service.server().recovery().sweepOnce().await();
  }

  Notification webhook(String checkoutId) {
    return CreemNotifications.signed(CreemNotifications.event("evt_" + checkoutId, "checkout.completed",
        creem.checkout(checkoutId)));
  }

  String lastState(String orderNo) {
    return db.string("SELECT last_state FROM order_checks WHERE order_no = ?", orderNo);
  }

  @Test
  void aPaidCheckoutIsBookedOnceByTheSweeperAndItsLateWebhookIsADuplicate() {
    order("K1", checkout(1));
    creem.paid(checkout(1), "K1", "ord_K1", 2500, "USD");

    sweep();

    assertThat(creem.asked(checkout(1))).isEqualTo(1);
    assertThat(SITE.status("K1")).isEqualTo("paid");
    assertThat(SITE.tradeNo("K1")).isEqualTo("ord_K1");
    assertThat(db.payments("ord_K1")).isEqualTo(1);
    service.awaitLogRecorded();
    assertThat(db.string("SELECT CONCAT(channel, ' ', remote_addr, ' ', outcome) FROM notify_log WHERE idem_key = ?",
        "creem:pay:ord_K1")).isEqualTo("query creem checkout processed");

    assertThat(service.send(webhook(checkout(1))).status()).isEqualTo(200);

    service.awaitLogRecorded();
    assertThat(db.outcomes("creem:pay:ord_K1")).isEqualTo("processed,duplicate");
    assertThat(db.payments("ord_K1")).isEqualTo(1);
    sweep(); // paid now: not asked again
    assertThat(creem.asked(checkout(1))).isEqualTo(1);
  }

  /** The webhook arrives while the sweeper's question is on its way: it books, and the answer is its duplicate. */
  @Test
  void aWebhookBookedWhileCreemIsAskedMakesTheAnswerADuplicate() throws Exception {
    order("K2", checkout(2));
    creem.paid(checkout(2), "K2", "ord_K2", 2500, "USD");
    CreemApiStandIn.Hold hold = creem.holdNext();

    Future<?> sweep = service.server().recovery().sweepOnce();
    hold.awaitArrived();
    assertThat(service.send(webhook(checkout(2))).status()).isEqualTo(200);
    hold.release();
    sweep.await();

    service.awaitLogRecorded();
    assertThat(db.outcomes("creem:pay:ord_K2")).isEqualTo("processed,duplicate");
    assertThat(db.string("SELECT GROUP_CONCAT(channel ORDER BY id) FROM notify_log WHERE idem_key = ?",
        "creem:pay:ord_K2")).isEqualTo("creem,query");
    assertThat(db.payments("ord_K2")).isEqualTo(1);
    assertThat(SITE.status("K2")).isEqualTo("paid");
  }

  /** The checkout id the site kept names a checkout Creem made for another order (request_id): nothing booked. */
  @Test
  void anotherOrdersCheckoutBooksNothing() {
    order("K3", checkout(3));
    creem.paid(checkout(3), "K3-other", "ord_K3", 2500, "USD");

    CheckAnswer answer = service.server().recovery().check("K3").await();

    assertThat(answer.state()).isEqualTo(CheckAnswer.State.UNPAID);
    assertThat(answer.detail()).contains("answered about another order").contains("request_id K3-other");
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    assertThat(SITE.status("K3")).isEqualTo("unpaid");
  }

  /** Paid, then refunded in Creem's dashboard, the webhook lost: an anomaly, not booked; its late webhook too. */
  @Test
  void aRefundedCheckoutBooksNothingAndLeavesAnAnomaly() {
    order("K4", checkout(4));
    creem.paid(checkout(4), "K4", "ord_K4", 2500, "USD");
    creem.refunded("ord_K4", "refunded", 2500);

    sweep();

    assertThat(SITE.status("K4")).isEqualTo("unpaid");
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    assertThat(db.string("SELECT CONCAT(kind, ' ', order_no, ' ', trade_no) FROM anomalies"))
        .isEqualTo("paid_then_refunded K4 ord_K4");
    assertThat(db.string("SELECT detail FROM anomalies")).contains("transaction tran_ord_K4 refunded");
    assertThat(lastState("K4")).isEqualTo("completed, transaction tran_ord_K4 refunded");

    assertThat(service.send(webhook(checkout(4))).status()).isEqualTo(200);
    service.awaitLogRecorded();
    assertThat(db.outcomes("creem:pay:ord_K4")).endsWith(",duplicate");
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
  }

  @Test
  void aTestModeCheckoutIsRefusedUnlessTestModeIsOn() {
    order("K5", checkout(5));
    creem.paid(checkout(5), "K5", "ord_K5", 2500, "USD");
    creem.mode(checkout(5), "test");

    CheckAnswer answer = service.server().recovery().check("K5").await();

    assertThat(answer.state()).isEqualTo(CheckAnswer.State.UNPAID);
    assertThat(answer.detail()).contains("mode 'test'").contains("creem.test_mode");
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();

    service.close();
    service = start(CreemApiStandIn.KEY, new JsonObject().put("creem", new JsonObject().put("test_mode", true)));
    db.update("UPDATE order_checks SET last_checked_at = last_checked_at - INTERVAL 15 SECOND"); // 15 s later
    assertThat(service.server().recovery().check("K5").await().state()).isEqualTo(CheckAnswer.State.PAID);
    assertThat(db.payments("ord_K5")).isEqualTo(1);
  }

  /** A key Creem refuses (another account's, a Test Mode key on the live API): nothing booked, the answer names it. */
  @Test
  void aWrongKeyBooksNothingAndTheAnswerNamesTheKeyFile() {
    service.close();
    service = start("creem_another_account_key", new JsonObject());
    order("K6", checkout(6));
    creem.paid(checkout(6), "K6", "ord_K6", 2500, "USD");

    sweep();

    assertThat(creem.refusedRequests()).isEqualTo(1);
    assertThat(SITE.status("K6")).isEqualTo("unpaid");
    assertThat(lastState("K6")).isEqualTo("no answer");
    db.update("UPDATE order_checks SET last_checked_at = last_checked_at - INTERVAL 15 SECOND"); // 15 s later
    CheckAnswer answer = service.server().recovery().check("K6").await();
    assertThat(answer.detail()).contains("HTTP 403").contains("creem.api_key_file");
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
  }

  /** Creem cannot be asked by the site's number: an order whose checkout id the site did not keep is not asked. */
  @Test
  void anOrderWithoutACheckoutIdIsNotAsked() {
    order("K7", null);
    order("K8", "");
    creem.paid(checkout(7), "K7", "ord_K7", 2500, "USD");

    sweep();

    assertThat(creem.requests()).isZero();
    assertThat(SITE.status("K7")).isEqualTo("unpaid");
    db.update("UPDATE order_checks SET last_checked_at = last_checked_at - INTERVAL 15 SECOND"); // 15 s later
    assertThat(service.server().recovery().check("K7").await().detail())
        .contains("orders.columns.platform_ref is empty");
  }

  @Test
  void openExpiredAndUnknownCheckoutsAreAskedAgainOrLeft() {
    order("K9", checkout(9));
    order("K10", checkout(10));
    order("K11", checkout(11));
    creem.open(checkout(9), "K9");
    creem.expired(checkout(10), "K10");

    sweep();

    assertThat(db.string("SELECT GROUP_CONCAT(CONCAT(order_no, ':', done, ':', last_state) ORDER BY order_no)"
        + " FROM order_checks")).isEqualTo("K10:1:expired,K11:0:checkout " + checkout(11) + " not found,K9:0:pending");
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
  }

  @Test
  void withoutAnApiKeyCreemIsNotAsked() {
    service.close();
    service = start(null, new JsonObject());
    order("K12", checkout(12));
    creem.paid(checkout(12), "K12", "ord_K12", 2500, "USD");

    assertThat(service.server().recovery().clients()).doesNotContain("creem checkout");
    sweep();

    assertThat(creem.requests()).isZero();
    assertThat(SITE.status("K12")).isEqualTo("unpaid");
  }

  /**
   * A site whose table names no platform, taking Creem and TokenPay (both asked by their own ids only): the checkout id
   * it keeps is Creem's question alone; TokenPay, which could not be asked by it, says nothing that outweighs Creem's
   * answer.
   */
  @Test
  void withoutAChannelColumnTheKeptIdIsAskedOfThePlatformItBelongsTo() {
    service.close();
    TokenPayStandIn tokenpay = TokenPayStandIn.start();
    try {
      JsonObject config = creem.configure(TestService.configuration(SITE.overridesWith("columns.channel", "")),
          CreemApiStandIn.KEY);
      // WeChat Pay v2 off (it is asked with its notifications' key): Creem and TokenPay are the platforms asked
      config.put("wechat_v2", new JsonObject().put("appid", "").put("mch_id", "").put("api_key", ""));
      service = TestService.startOnCheckedTable(db.settings(), tokenpay.configure(config)
          .put("recovery", new JsonObject().put("enabled", true).put("interval_seconds", 3600)));
      order("K20", checkout(20));
      creem.open(checkout(20), "K20");

      CheckAnswer answer = service.server().recovery().check("K20").await();

      assertThat(answer.detail()).startsWith("creem checkout says ");
      assertThat(creem.asked(checkout(20))).isEqualTo(1);
      assertThat(tokenpay.requests()).as("TokenPay asked about a Creem checkout id").isZero();
    } finally {
      tokenpay.close();
    }
  }
}
