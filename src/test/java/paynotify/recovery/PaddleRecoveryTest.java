package paynotify.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.Http;
import paynotify.testsupport.PaddleApiStandIn;
import paynotify.testsupport.PaddleNotifications;
import paynotify.testsupport.TestService;

/**
 * Paddle's notifications to this service's destination that were never delivered, fetched from its API (played by
 * {@link PaddleApiStandIn}) and taken as the webhook would have been: booked once through the Paddle channel's
 * reading and the same booking.
 */
class PaddleRecoveryTest extends DatabaseTestBase {
  PaddleApiStandIn paddle = PaddleApiStandIn.start();
  TestService service;

  void start(String key) {
    JsonObject config = TestService.configuration(new JsonObject());
    service = TestService.start(db.settings(), (key == null ? config : paddle.configure(config, key))
        .put("recovery", new JsonObject().put("enabled", true).put("interval_seconds", 3600)));
  }

  @AfterEach
  void stop() {
    if (service != null) {
      service.close();
    }
    paddle.close();
  }

  /** Made an hour ago: before the events the tests have Paddle notify about it. */
  void order(String orderNo, long cents) {
    db.update("INSERT INTO orders (order_no, amount_cents, channel, created_at) VALUES (?, ?, 'paddle',"
        + " CONVERT_TZ(NOW(3), @@session.time_zone, '+08:00') - INTERVAL 3600 SECOND)", orderNo, cents);
  }

  /** A transaction.completed of origin web, occurred 10 minutes ago. */
  static JsonObject completed(String orderNo, String txn, long cents) {
    return PaddleNotifications.event("evt_" + txn, "transaction.completed", PaddleNotifications.transaction(orderNo,
        txn, cents, PaddleNotifications.CURRENCY, "completed", "web")).put("occurred_at", tenMinutesAgo());
  }

  static String tenMinutesAgo() {
    return Instant.now().minusSeconds(600).toString();
  }

  int fetch() {
    return service.server().recovery().fetchMissedEvents().await();
  }

  @Test
  void anUndeliveredPaymentIsBookedOnceAndItsLateWebhookIsADuplicate() {
    start(PaddleApiStandIn.KEY);
    order("P1", 65215);
    order("DELIVERED", 100);
    order("ELSEWHERE", 100);
    JsonObject event = completed("P1", "txn_P1", 65215);
    paddle.notified(event, PaddleApiStandIn.DESTINATION, "needs_retry", 600);
    paddle.notified(completed("DELIVERED", "txn_DELIVERED", 100), PaddleApiStandIn.DESTINATION, "delivered", 500);
    paddle.notified(completed("ELSEWHERE", "txn_ELSEWHERE", 100), "ntfset_another_site", "failed", 500);

    assertThat(fetch()).isEqualTo(1);

    assertThat(db.orderStatus("P1")).isEqualTo("paid");
    assertThat(db.payments("txn_P1")).isEqualTo(1);
    assertThat(db.orderStatus("DELIVERED")).isEqualTo("unpaid");
    assertThat(db.orderStatus("ELSEWHERE")).isEqualTo("unpaid");
    Map<String, String> asked = paddle.queries().get(0);
    assertThat(asked).containsEntry("notification_setting_id", PaddleApiStandIn.DESTINATION)
        .containsEntry("status", "failed,needs_retry,not_attempted").containsKeys("from", "to", "per_page");
    service.awaitLogRecorded();
    assertThat(db.string("SELECT CONCAT(channel, ' ', remote_addr, ' ', outcome) FROM notify_log WHERE idem_key = ?",
        "paddle:pay:txn_P1")).isEqualTo("query paddle events processed");

    // fetched again: done here, not taken twice
    assertThat(fetch()).isZero();

    Http.Reply late = service.send(PaddleNotifications.signed(event));
    assertThat(late.status()).isEqualTo(200);
    service.awaitLogRecorded();
    assertThat(db.outcomes("paddle:pay:txn_P1")).isEqualTo("processed,duplicate");
    assertThat(db.payments("txn_P1")).isEqualTo(1);
  }

  /** 70 undelivered notifications: the walk follows the pages (30 a page) to the last. */
  @Test
  void everyPageIsRead() {
    start(PaddleApiStandIn.KEY);
    for (int i = 0; i < 70; i++) {
      order("M" + i, 500);
      paddle.notified(completed("M" + i, "txn_M" + i, 500), PaddleApiStandIn.DESTINATION, "failed", 900 - i);
    }
    assertThat(fetch()).isEqualTo(70);
    assertThat(db.count("SELECT COUNT(*) FROM orders WHERE order_no LIKE 'M%' AND status = 'paid'")).isEqualTo(70);
    assertThat(paddle.queries()).hasSize(3);
    assertThat(paddle.queries().get(1).get("after")).startsWith("ntf_");
  }

  @Test
  void anApprovedRefundThatNeverArrivedIsFound() {
    start(PaddleApiStandIn.KEY);
    order("R1", 10000);
    assertThat(service.send(PaddleNotifications.signed(completed("R1", "txn_R1", 10000))).status()).isEqualTo(200);
    JsonObject approved = PaddleNotifications.event("evt_adj_R1", "adjustment.updated",
        PaddleNotifications.adjustment("adj_R1", "txn_R1", "refund", "approved", 3000))
        .put("occurred_at", Instant.now().minusSeconds(300).toString());
    paddle.notified(approved, PaddleApiStandIn.DESTINATION, "failed", 300);

    assertThat(fetch()).isEqualTo(1);

    assertThat(db.column("SELECT CONCAT(refund_no, ' ', amount_cents, ' ', status) FROM refunds"))
        .containsExactly("adj_R1 3000 settled");
    assertThat(db.orderStatus("R1")).isEqualTo("partially_refunded");
  }

  /** A key Paddle refuses (401): logged, nothing booked, asked again next sweep. */
  @Test
  void aWrongKeyBooksNothingAndIsAskedAgainNextSweep() {
    start("pdl_live_apikey_wrong");
    order("W1", 65215);
    paddle.notified(completed("W1", "txn_W1", 65215), PaddleApiStandIn.DESTINATION, "failed", 600);

    assertThat(fetch()).isZero();
    assertThat(paddle.refusedRequests()).isEqualTo(1);
    assertThat(db.orderStatus("W1")).isEqualTo("unpaid");

    assertThat(fetch()).isZero();
    assertThat(paddle.refusedRequests()).isEqualTo(2);
  }

  @Test
  void nothingIsAskedWithoutAnApiKey() {
    start(null);
    order("N1", 65215);
    paddle.notified(completed("N1", "txn_N1", 65215), PaddleApiStandIn.DESTINATION, "failed", 600);

    assertThat(service.server().recovery().clients()).doesNotContain("paddle events");
    assertThat(fetch()).isZero();
    assertThat(paddle.queries()).isEmpty();
    assertThat(db.orderStatus("N1")).isEqualTo("unpaid");
  }
}
