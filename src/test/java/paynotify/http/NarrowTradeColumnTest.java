package paynotify.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import paynotify.testsupport.ChannelFixture;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.SiteTable;
import paynotify.testsupport.TestService;

/**
 * A site's trade column shorter than a trade number (issue 22: {@code transaction_id VARCHAR(32)},
 * which the site's notify.php filled with WeChat's ids for years), on every channel: the payment is
 * booked and the order paid as usual, the column left as it was, and an anomaly says what to widen.
 */
class NarrowTradeColumnTest extends DatabaseTestBase {
  private static final SiteTable SITE = narrow(SiteTable.payStatus(db).as(db, "narrow_trade_orders"));
  /** Longer than the column, within what a notification may carry (64). */
  private static final String TRADE = "T40-" + "0123456789".repeat(4).substring(0, 36);
  /** One the column holds. */
  private static final String SHORT_TRADE = "T-fits-the-column-A";
  private static TestService service;

  private static SiteTable narrow(SiteTable s) {
    return new SiteTable(s.shape(), s.db(), s.createTable().replace("transaction_id VARCHAR(64)",
        "transaction_id VARCHAR(32)"), s.insertSql(), s.orders(), s.unpaid(), s.paid(), s.closed(),
        s.afterPartialRefund(), s.afterFullRefund());
  }

  static java.util.stream.Stream<ChannelFixture> channels() {
    return ChannelFixture.all().stream();
  }

  static java.util.stream.Stream<ChannelFixture> refundChannels() {
    return ChannelFixture.sendsRefunds().stream();
  }

  @BeforeAll
  static void createTableAndStartService() {
    SITE.create();
    service = TestService.startOnCheckedTable(db.settings(), SITE.overrides().put("forward", new JsonObject()
        .put("url", "http://127.0.0.1:9/site-hook").put("secret", "a-forward-secret-of-32-characters")));
  }

  @AfterAll
  static void stopServiceAndDropTable() {
    service.close();
    SITE.drop();
  }

  @Override
  protected void beforeReset() {
    service.awaitLogRecorded(); // a notify_log row the previous test queued must not land in this one
  }

  @BeforeEach
  void emptySiteTable() {
    SITE.empty();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("channels")
  void aTradeNumberLongerThanTheColumnIsBookedAndTheOrderPaidWithAnAnomaly(ChannelFixture ch) throws Exception {
    assertThat(TRADE).hasSize(40);
    SITE.insertOrder("N1", 1999);
    db.update("UPDATE narrow_trade_orders SET transaction_id = 'the site''s own' WHERE out_trade_no = 'N1'");

    assertThat(service.send(ch.payment("N1", TRADE, 1999, 0))).matches(ch.success());

    assertThat(db.string("SELECT CONCAT(channel, ' ', trade_no, ' ', amount_cents) FROM payments"
        + " WHERE order_no = 'N1'")).isEqualTo(ch.platform() + " " + TRADE + " 1999");
    assertThat(SITE.status("N1")).isEqualTo(SITE.paid());
    assertThat(SITE.paidAt("N1")).isNotNull();
    assertThat(SITE.tradeNo("N1")).isEqualTo("the site's own");
    assertThat(db.column("SELECT CONCAT(kind, ' ', order_no, ' ', trade_no) FROM anomalies"))
        .containsExactly("trade_no_too_long N1 " + TRADE);
    assertThat(db.string("SELECT detail FROM anomalies")).contains("narrow_trade_orders.transaction_id")
        .contains("ALTER TABLE `narrow_trade_orders` MODIFY `transaction_id` VARCHAR(");
    // told as usual: the payment (the site fulfils on it) and the anomaly
    assertThat(db.column("SELECT type FROM forward_events WHERE order_no = 'N1' ORDER BY type"))
        .containsExactly("anomaly.created", "payment.succeeded");

    assertThat(service.send(ch.payment("N1", TRADE, 1999, 1))).matches(ch.success());
    assertThat(db.payments(TRADE)).isEqualTo(1);
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isEqualTo(1);
    assertThat(db.outcomes(ch.platform() + ":pay:" + TRADE)).isEqualTo("processed,duplicate");
  }

  /** The order its too-long trade paid moves on that trade's refunds, as on a wide column. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("refundChannels")
  void refundsOfTheTradeLeftOutMoveTheOrder(ChannelFixture ch) throws Exception {
    SITE.insertOrder("N2", 10000);
    assertThat(service.send(ch.payment("N2", TRADE, 10000, 0))).matches(ch.success());
    assertThat(SITE.status("N2")).isEqualTo(SITE.paid());

    assertThat(service.send(ch.refund("N2", TRADE, 10000, "RF-N2-a", 3000, 3000, 0))).matches(ch.success());
    assertThat(SITE.status("N2")).isEqualTo(SITE.afterPartialRefund());
    assertThat(service.send(ch.refund("N2", TRADE, 10000, "RF-N2-b", 7000, 10000, 0))).matches(ch.success());
    assertThat(SITE.status("N2")).isEqualTo(SITE.afterFullRefund());

    assertThat(db.count("SELECT COUNT(*) FROM refunds WHERE status = 'settled'")).isEqualTo(2);
    assertThat(db.column("SELECT kind FROM anomalies")).containsExactly("trade_no_too_long");
  }

  /** Another trade paying the same order is a second payment, as on a wide column: payments knows the first. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("channels")
  void anotherTradeOnTheOrderItPaidIsASecondPayment(ChannelFixture ch) throws Exception {
    SITE.insertOrder("N3", 1000);
    assertThat(service.send(ch.payment("N3", TRADE, 1000, 0))).matches(ch.success());
    assertThat(service.send(ch.payment("N3", "T-N3-2", 1000, 0))).matches(ch.success());

    assertThat(SITE.status("N3")).isEqualTo(SITE.paid());
    assertThat(db.column("SELECT CONCAT(kind, ' ', trade_no) FROM anomalies ORDER BY id"))
        .containsExactly("trade_no_too_long " + TRADE, "second_payment T-N3-2");
    assertThat(db.string("SELECT detail FROM anomalies WHERE trade_no = 'T-N3-2'")).contains("trade " + TRADE);
  }

  /**
   * Paid by paynotify with trade A, reopened by hand, then marked paid by notify.php with trade B: a
   * late refund of A leaves the order B paid, whether A was too long for the column or not.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("refundChannels")
  void aRefundOfTheTradeLeftOutLeavesAnOrderAnotherTradePaidSince(ChannelFixture ch) throws Exception {
    aRefundLeavesAnOrderAnotherTradePaidSince(ch, TRADE);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refundChannels")
  void aRefundOfATradeTheColumnHeldLeavesAnOrderAnotherTradePaidSince(ChannelFixture ch) throws Exception {
    aRefundLeavesAnOrderAnotherTradePaidSince(ch, SHORT_TRADE);
  }

  private void aRefundLeavesAnOrderAnotherTradePaidSince(ChannelFixture ch, String tradeA) throws Exception {
    SITE.insertOrder("N4", 10000);
    assertThat(service.send(ch.payment("N4", tradeA, 10000, 0))).matches(ch.success());
    SITE.setStatus("N4", SITE.unpaid()); // reopened by hand
    db.update("UPDATE narrow_trade_orders SET pay_status = 1, transaction_id = 'T-by-notify-php-B'"
        + " WHERE out_trade_no = 'N4'");

    assertThat(service.send(ch.refund("N4", tradeA, 10000, "RF-N4", 10000, 10000, 0))).matches(ch.success());

    assertThat(SITE.status("N4")).isEqualTo(SITE.paid());
    assertThat(SITE.tradeNo("N4")).isEqualTo("T-by-notify-php-B");
    assertThat(db.count("SELECT COUNT(*) FROM refunds WHERE trade_no = ?", tradeA)).isEqualTo(1);
  }

  /**
   * The column is left as it was, so what it holds is not the trade that paid: a trade arriving with
   * that very number is a second payment, never taken for the one that marked the order.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("channels")
  void aStaleTradeNumberInTheColumnIsNotTakenForTheTradeThatPaid(ChannelFixture ch) throws Exception {
    SITE.insertOrder("N5", 1000);
    db.update("UPDATE narrow_trade_orders SET transaction_id = 'T-N5-stale' WHERE out_trade_no = 'N5'");
    assertThat(service.send(ch.payment("N5", TRADE, 1000, 0))).matches(ch.success());

    assertThat(service.send(ch.payment("N5", "T-N5-stale", 1000, 0))).matches(ch.success());

    assertThat(db.column("SELECT CONCAT(kind, ' ', trade_no) FROM anomalies ORDER BY id"))
        .containsExactly("trade_no_too_long " + TRADE, "second_payment T-N5-stale");
    assertThat(db.outcomes(ch.platform() + ":pay:T-N5-stale")).isEqualTo("anomaly");
    assertThat(db.count("SELECT COUNT(*) FROM payments WHERE order_no = 'N5' AND moved_order")).isEqualTo(1);
  }

  /**
   * A 1406 raised by the site's own trigger (an audit copy into a shorter column) is no trade too long
   * for the trade column: the booking fails as any database error does, and the platform retries.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("channels")
  void aDataTooLongFromASiteTriggerFailsTheBooking(ChannelFixture ch) throws Exception {
    db.update("CREATE TABLE narrow_trade_audit (transaction_id VARCHAR(8) NULL)");
    db.update("CREATE TRIGGER narrow_trade_audit AFTER UPDATE ON narrow_trade_orders FOR EACH ROW"
        + " INSERT INTO narrow_trade_audit VALUES (NEW.transaction_id)");
    try {
      SITE.insertOrder("N6", 1000);

      Reply reply = service.send(ch.payment("N6", SHORT_TRADE, 1000, 0));

      assertThat(reply).doesNotMatch(ch.success());
      assertThat(reply.status()).isEqualTo(503);
      assertThat(SITE.status("N6")).isEqualTo(SITE.unpaid());
      assertThat(db.payments(SHORT_TRADE)).isZero();
      assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
      assertThat(db.count("SELECT COUNT(*) FROM idempotent_keys WHERE idem_key = ?",
          ch.platform() + ":pay:" + SHORT_TRADE)).isZero();
    } finally {
      db.update("DROP TRIGGER narrow_trade_audit");
      db.update("DROP TABLE narrow_trade_audit");
    }
  }

  /** Past the idempotency key's retention, uk_trade_no still makes a re-push of the trade left out a duplicate. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("channels")
  void aRedeliveryAfterItsKeyWasPurgedIsADuplicateWithNoSecondAnomaly(ChannelFixture ch) throws Exception {
    SITE.insertOrder("N7", 1000);
    assertThat(service.send(ch.payment("N7", TRADE, 1000, 0))).matches(ch.success());
    db.update("UPDATE idempotent_keys SET created_at = NOW(3) - INTERVAL 8 DAY");
    service.server().purge().runOnce().await();
    assertThat(db.count("SELECT COUNT(*) FROM idempotent_keys")).isZero();

    assertThat(service.send(ch.payment("N7", TRADE, 1000, 1))).matches(ch.success());

    assertThat(db.payments(TRADE)).isEqualTo(1);
    assertThat(db.column("SELECT kind FROM anomalies")).containsExactly("trade_no_too_long");
    assertThat(db.outcomes(ch.platform() + ":pay:" + TRADE)).isEqualTo("processed,duplicate");
    assertThat(SITE.status("N7")).isEqualTo(SITE.paid());
  }
}
