package paynotify.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.AlipayNotifications;
import paynotify.testsupport.AlipayStandIn;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.EpayStandIn;
import paynotify.testsupport.Http;
import paynotify.testsupport.TestService;

/**
 * A site that sends its order number with a suffix (orders.out_trade_no: "{order_no}-pay"): the platform is
 * asked with its number, and what it says, or notifies, is booked under the site's.
 */
class OutTradeNoTemplateTest extends DatabaseTestBase {
  AlipayStandIn alipay;
  EpayStandIn epay;
  TestService service;

  @BeforeEach
  void start() {
    alipay = AlipayStandIn.start();
    epay = EpayStandIn.start();
    JsonObject config = TestService.configuration(new JsonObject()
        .put("orders", new JsonObject().put("out_trade_no", "{order_no}-pay"))
        .put("recovery", new JsonObject().put("enabled", true).put("interval_seconds", 3600)));
    service = TestService.start(db.settings(), epay.configure(alipay.configure(config)));
  }

  @AfterEach
  void stop() {
    service.close();
    alipay.close();
    epay.close();
  }

  void order(String orderNo) {
    order(orderNo, "alipay");
  }

  void order(String orderNo, String channel) {
    db.update("INSERT INTO orders (order_no, amount_cents, channel, created_at) VALUES (?, 8888, ?,"
        + " CONVERT_TZ(NOW(3), @@session.time_zone, '+08:00') - INTERVAL 300 SECOND)", orderNo, channel);
  }

  @Test
  void theQueryAsksWithThePlatformsNumberAndBooksUnderTheSites() {
    order("TP1");
    alipay.paid("TP1-pay", "2026120422001400201", "88.88");

    assertThat(service.server().recovery().sweepOnce().await().paid()).isEqualTo(1);

    assertThat(alipay.queries("TP1-pay")).isEqualTo(1);
    assertThat(db.orderStatus("TP1")).isEqualTo("paid");
    assertThat(db.string("SELECT order_no FROM payments WHERE trade_no = '2026120422001400201'")).isEqualTo("TP1");
    Http.Reply late = service.postAlipay(AlipayNotifications.signedBody(
        AlipayNotifications.payment("TP1-pay", "2026120422001400201", "88.88")));
    assertThat(late.body()).isEqualTo("success");
    service.awaitLogRecorded();
    assertThat(db.outcomes("alipay:pay:2026120422001400201")).isEqualTo("processed,duplicate");
  }

  // Review S2: the template binds. A genuine notification for a number not written with it is another site's on
  // the same merchant account, though an order of that bare number exists here: nothing moved, an anomaly, and
  // "success" once that is committed, so that the platform stops sending it.
  @Test
  void aNotificationIsBookedUnderTheSitesNumberAndOneNotWrittenSoIsNoOrderOfIt() {
    order("TP2");
    order("TP3");
    for (String number : new String[] {"TP2-pay", "TP3"}) {
      Http.Reply r = service.postAlipay(AlipayNotifications.signedBody(
          AlipayNotifications.payment(number, "T-" + number, "88.88")));
      assertThat(r.body()).isEqualTo("success");
    }
    assertThat(db.orderStatus("TP2")).isEqualTo("paid");
    assertThat(db.orderStatus("TP3")).isEqualTo("unpaid");
    assertThat(db.payments("T-TP3")).isZero();
    assertThat(db.column("SELECT CONCAT(kind, ' ', order_no, ' ', trade_no) FROM anomalies"))
        .containsExactly("not_our_number TP3 T-TP3");
    service.awaitLogRecorded();
    assertThat(db.outcomes("alipay:pay:T-TP3")).isEqualTo("anomaly");
  }

  // What a found payment leaves for a human names the site's order, as its booking does: "TP4-pay" is the platform's
  // word for it, and no order of the site's. And the refunded trade's key, taken under the site's number, makes its
  // late notification the duplicate it is (under the platform's number it would be a conflict).
  @Test
  void theAnomaliesOfFoundPaymentsNameTheSitesOrder() {
    order("TP4");
    alipay.paid("TP4-pay", "2026120422001400204", "88.88");
    alipay.refunded("TP4-pay");
    order("TP5");
    alipay.paid("TP5-pay", "2026120422001400205", "88.88");
    alipay.paidAt("TP5-pay", LocalDateTime.now(ZoneOffset.ofHours(8)).minusDays(1)); // a number handed out again
    order("TP6");
    alipay.paid("TP6-pay", "2026120422001400206", "88.88"); // older than min_age, not notified: callbacks missing
    order("TP7", "epay");
    epay.paid("TP7-pay", "2026120412000100207", "88.88"); // unsigned

    assertThat(service.server().recovery().sweepOnce().await().asked()).isEqualTo(4);

    assertThat(db.column("SELECT CONCAT(kind, ' ', order_no) FROM anomalies ORDER BY kind")).containsExactly(
        "callback_missing TP6", "paid_before_order TP5", "paid_then_refunded TP4", "query_says_paid TP7");
    assertThat(db.string("SELECT detail FROM anomalies WHERE kind = 'paid_then_refunded'")).contains("order TP4 ");
    Http.Reply late = service.postAlipay(AlipayNotifications.signedBody(
        AlipayNotifications.payment("TP4-pay", "2026120422001400204", "88.88")));
    assertThat(late.body()).isEqualTo("success");
    assertThat(db.orderStatus("TP4")).isEqualTo("unpaid");
    assertThat(db.count("SELECT COUNT(*) FROM anomalies WHERE kind = 'conflict'")).isZero();
    service.awaitLogRecorded();
    assertThat(db.outcomes("alipay:pay:2026120422001400204")).isEqualTo("anomaly,duplicate");
  }
}
