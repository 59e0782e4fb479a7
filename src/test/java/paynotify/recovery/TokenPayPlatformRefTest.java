package paynotify.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.TestService;
import paynotify.testsupport.TokenPayStandIn;

/**
 * orders.columns.platform_ref with TokenPay, which is asked by its own Id only: an order whose Id the site kept is
 * asked about by the sweeper and the return page's check with no notification of it at all; TokenPay's answer is
 * not signed, so a "Paid" books nothing by itself and says so, once, for a human (query_says_paid).
 */
class TokenPayPlatformRefTest extends DatabaseTestBase {
  /** A shop's table that keeps TokenPay's Id of each order, as its CreateOrder answered it. */
  private static final String TABLE = "tokenpay_shop_orders";
  private static final String ID = "6f1a2b3c-55bf-93fc-0010-000000000001";

  TokenPayStandIn tokenpay;
  TestService service;

  @BeforeEach
  void start() {
    db.update("DROP TABLE IF EXISTS " + TABLE);
    db.update("CREATE TABLE " + TABLE + " (order_no VARCHAR(32) NOT NULL UNIQUE, amount_cents BIGINT NOT NULL,"
        + " status VARCHAR(16) NOT NULL DEFAULT 'unpaid', paid_at DATETIME NULL, channel VARCHAR(16) NULL,"
        + " trade_no VARCHAR(64) NULL, created_at DATETIME(3) NOT NULL, tokenpay_id CHAR(36) NULL) ENGINE=InnoDB");
    tokenpay = TokenPayStandIn.start();
    JsonObject config = tokenpay.configure(TestService.configuration(new JsonObject()))
        .put("orders", new JsonObject().put("table", TABLE)
            .put("columns", new JsonObject().put("platform_ref", "tokenpay_id")))
        .put("recovery", new JsonObject().put("enabled", true).put("interval_seconds", 3600)
            .put("min_age_seconds", 60).put("timeout_ms", 1000));
    service = TestService.start(db.settings(), config);
  }

  @AfterEach
  void stop() {
    service.close();
    tokenpay.close();
    db.update("DROP TABLE IF EXISTS " + TABLE);
  }

  /** An order of 88.88 made five minutes ago (due for the sweeper), with TokenPay's {@code id} kept, or none. */
  void order(String orderNo, String id) {
    db.update("INSERT INTO " + TABLE + " (order_no, amount_cents, channel, created_at, tokenpay_id) VALUES (?, 8888,"
        + " 'tokenpay', CONVERT_TZ(NOW(3), @@session.time_zone, '+08:00') - INTERVAL 300 SECOND, ?)", orderNo, id);
  }

  String status(String orderNo) {
    return db.string("SELECT status FROM " + TABLE + " WHERE order_no = ?", orderNo);
  }

  Sweeper.Sweep sweep() {
    return service.server().recovery().sweepOnce().await();
  }

  @Test
  void aPaymentNoNotificationBroughtIsFoundByTheKeptIdAndLeftForAHuman() {
    order("R1", ID);
    tokenpay.paid("R1", ID, "88.88");

    assertThat(sweep().asked()).isEqualTo(1);

    assertThat(tokenpay.queries("R1")).isEqualTo(1);
    assertThat(status("R1")).isEqualTo("unpaid");
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    assertThat(db.string("SELECT detail FROM anomalies WHERE kind = 'query_says_paid' AND order_no = 'R1'"))
        .contains("tokenpay /Query says order R1 is paid (trade " + ID + ")").contains("not signed: not booked");
  }

  @Test
  void theReturnPagesCheckAsksByTheKeptIdToo() {
    order("R2", ID);
    tokenpay.pending("R2", ID, "88.88");

    CheckAnswer answer = service.server().recovery().check("R2").await();

    assertThat(answer.platformStatus()).isEqualTo("Pending");
    assertThat(tokenpay.queries("R2")).isEqualTo(1);
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
  }

  /** The kept Id is TokenPay's order of another OutOrderId: not this order's, so nothing of it is taken. */
  @Test
  void anIdOfAnotherOrderBooksNothingAndRecordsNothing() {
    order("R3", ID);
    tokenpay.paid("R3-other", ID, "88.88");

    assertThat(sweep().failed()).isEqualTo(1);

    assertThat(status("R3")).isEqualTo("unpaid");
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
  }

  @Test
  void anOrderWithoutAKeptIdIsNotAsked() {
    order("R4", null);
    order("R5", " ");
    tokenpay.paid("R4", ID, "88.88");

    assertThat(sweep().asked()).isEqualTo(2);

    assertThat(tokenpay.requests()).isZero();
    assertThat(db.column("SELECT last_state FROM order_checks WHERE order_no IN ('R4', 'R5')"))
        .containsExactly(Asking.NO_ANSWER, Asking.NO_ANSWER);
  }
}
