package paynotify.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.EpayNotifications;
import paynotify.testsupport.EpayStandIn;
import paynotify.testsupport.Http;
import paynotify.testsupport.PlatformStandIn.Mode;
import paynotify.testsupport.TestService;
import paynotify.testsupport.WechatV2StandIn;

/**
 * The sweeper asking an epay aggregator, whose answers are not signed: by default a "paid" is an anomaly for a
 * human and nothing is booked; with epay.query_books it is booked like the signed notification would be.
 */
class EpayRecoveryTest extends DatabaseTestBase {
  EpayStandIn epay;
  TestService service;

  @BeforeEach
  void start() {
    epay = EpayStandIn.start();
  }

  @AfterEach
  void stop() {
    if (service != null) {
      service.close();
    }
    epay.close();
  }

  void startService(boolean books) {
    startService(books, new JsonObject());
  }

  /** @param recovery more of the recovery: section */
  void startService(boolean books, JsonObject recovery) {
    JsonObject config = epay.configure(TestService.configuration(new JsonObject()));
    config.getJsonObject("epay").put("query_books", books);
    service = TestService.start(db.settings(), config.put("recovery", new JsonObject().put("enabled", true)
        .put("interval_seconds", 3600).put("min_age_seconds", 60).mergeIn(recovery)));
  }

  void order(String orderNo) {
    db.update("INSERT INTO orders (order_no, amount_cents, channel, created_at) VALUES (?, 8888, 'epay',"
        + " CONVERT_TZ(NOW(3), @@session.time_zone, '+08:00') - INTERVAL 300 SECOND)", orderNo);
  }

  Sweeper.Sweep sweep() {
    return service.server().recovery().sweepOnce().await();
  }

  @Test
  void anUnsignedPaidIsAnAnomalyToCheckAndNothingIsBooked() {
    startService(false);
    order("E1");
    epay.paid("E1", "2026120412000100001", "88.88");

    Sweeper.Sweep s = sweep();

    assertThat(s.asked()).isEqualTo(1);
    assertThat(s.paid()).isZero();
    assertThat(db.orderStatus("E1")).isEqualTo("unpaid");
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    assertThat(db.string("SELECT detail FROM anomalies WHERE kind = 'query_says_paid' AND order_no = 'E1'"))
        .contains("not signed").contains("重新通知");
    assertThat(service.server().recovery().check("E1").await().state()).isEqualTo(CheckAnswer.State.UNPAID);
    assertThat(db.count("SELECT COUNT(*) FROM anomalies WHERE kind = 'query_says_paid'")).isEqualTo(1);
    // an unsigned answer does not end the order's checks (N3): asked again after its back-off, told once
    assertThat(db.string("SELECT done FROM order_checks WHERE order_no = 'E1'")).isEqualTo("0");

    // the aggregator's re-notify (signed) books it, as any notification
    Http.Reply notified = service.send(EpayNotifications.get(EpayNotifications.signed(
        EpayNotifications.payment("E1", "2026120412000100001", "88.88"), EpayNotifications.KEY)));
    assertThat(notified.body()).isEqualTo("success");
    assertThat(db.orderStatus("E1")).isEqualTo("paid");
  }

  @Test
  void withQueryBooksItIsBookedAndTheLateNotificationIsADuplicate() {
    startService(true);
    order("E2");
    epay.paid("E2", "2026120412000100002", "88.88");

    assertThat(sweep().paid()).isEqualTo(1);
    assertThat(db.orderStatus("E2")).isEqualTo("paid");
    service.send(EpayNotifications.get(EpayNotifications.signed(
        EpayNotifications.payment("E2", "2026120412000100002", "88.88"), EpayNotifications.KEY)));
    service.awaitLogRecorded();
    assertThat(db.outcomes("epay:pay:2026120412000100002")).isEqualTo("processed,duplicate");
    assertThat(db.payments("2026120412000100002")).isEqualTo(1);
  }

  @Test
  void anAnswerAboutAnotherMerchantBooksNothingEvenWithQueryBooks() {
    startService(true);
    order("E3");
    epay.paid("E3", "2026120412000100003", "88.88");
    epay.mode(Mode.BAD_SIGNATURE);
    assertThat(sweep().failed()).isEqualTo(1);
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
  }

  @Test
  void waitingUnknownAndRefundedBookNothingAndExpiredOrdersAreNotClosedWithoutAnApi() {
    startService(false, new JsonObject().put("close_unpaid_after_minutes", 2));
    order("W");
    epay.waiting("W");
    order("N");
    order("R");
    epay.closed("R");
    sweep();
    assertThat(db.string("SELECT GROUP_CONCAT(CONCAT(order_no, ':', done, ':', last_state) ORDER BY order_no)"
        + " FROM order_checks")).isEqualTo("N:0:code=-1 订单号不存在,R:0:status=2 (refunded),W:0:status=0");
    assertThat(db.orderStatus("W")).isEqualTo("unpaid");
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
  }

  /**
   * N3: an order of no known platform, paid with WeChat Pay; the aggregator, asked first, says "paid" too (its
   * answers are unsigned: whoever can answer in its place could). Its answer does not end the search: WeChat's
   * signed one books the order.
   */
  @Test
  void anUnsignedPaidDoesNotEndTheSearchAcrossPlatforms() {
    try (WechatV2StandIn wechat = WechatV2StandIn.start()) {
      JsonObject config = wechat.configure(epay.configure(TestService.configuration(new JsonObject())));
      service = TestService.start(db.settings(), config.put("recovery", new JsonObject().put("enabled", true)
          .put("interval_seconds", 3600).put("min_age_seconds", 60)));
      db.update("INSERT INTO orders (order_no, amount_cents, created_at) VALUES ('X1', 8888,"
          + " CONVERT_TZ(NOW(3), @@session.time_zone, '+08:00') - INTERVAL 300 SECOND)");
      epay.paid("X1", "2026120412000100009", "88.88");
      wechat.paid("X1", "4200001234202612050000000009", "8888");

      assertThat(sweep().paid()).isEqualTo(1);

      assertThat(epay.queries("X1")).isEqualTo(1);
      assertThat(wechat.queries("X1")).isEqualTo(1);
      assertThat(db.orderStatus("X1")).isEqualTo("paid");
      assertThat(db.payments("4200001234202612050000000009")).isEqualTo(1);
    }
  }

  /**
   * N3: an unsigned "refunded" (status 2) past close_unpaid_after neither closes the order in the site's table nor
   * ends its checks: whoever answered in the aggregator's place could close a paying buyer's order so.
   */
  @Test
  void anUnsignedRefundedNeverClosesTheOrderNorEndsItsChecks() {
    startService(false, new JsonObject().put("close_unpaid_after_minutes", 2));
    order("R2");
    epay.closed("R2");

    sweep();

    assertThat(db.orderStatus("R2")).isEqualTo("unpaid");
    assertThat(db.string("SELECT CONCAT(done, ':', last_state) FROM order_checks WHERE order_no = 'R2'"))
        .isEqualTo("0:status=2 (refunded)");
  }
}
