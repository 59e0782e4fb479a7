package paynotify.channel.lemonsqueezy;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.LemonSqueezyNotifications;
import paynotify.testsupport.Notification;
import paynotify.testsupport.ServiceTestBase;
import paynotify.testsupport.TestService;

/** POST /notify/lemonsqueezy: the real service over real HTTP on the real database. */
class LemonSqueezyWebhookTest extends ServiceTestBase {

  private static Notification paid(String orderNo, String id, long cents) {
    return LemonSqueezyNotifications.signed(LemonSqueezyNotifications.paid(orderNo, id, cents));
  }

  private static Notification refunded(String orderNo, String id, long paid, long refundedSoFar) {
    return LemonSqueezyNotifications.signed(LemonSqueezyNotifications.refunded(orderNo, id, paid, refundedSoFar));
  }

  /** Lemon Squeezy retries anything but a 200: a 204 or another 2xx would be delivered three more times. */
  private static void assertOk(Reply reply) {
    assertThat(reply.status()).isEqualTo(200);
  }

  @Test
  void aPaidOrderBooksOnceAndIsAnsweredExactly200() {
    db.insertOrder("LS1", 1999);
    Notification order = paid("LS1", "2001", 1999);

    assertOk(service.send(order));
    assertOk(service.send(order)); // Lemon Squeezy's retry: the same bytes, no timestamp

    assertThat(db.string("SELECT CONCAT(status, ' ', channel, ' ', trade_no) FROM orders WHERE order_no = 'LS1'"))
        .isEqualTo("paid lemonsqueezy 2001");
    assertThat(db.string("SELECT CONCAT(order_no, ' ', amount_cents) FROM payments WHERE trade_no = '2001'"))
        .isEqualTo("LS1 1999");
    assertThat(new JsonObject(db.string("SELECT detail FROM payments WHERE trade_no = '2001'")).getInteger("total_usd"))
        .isEqualTo(1999);
    service.awaitLogRecorded();
    assertThat(db.outcomes("lemonsqueezy:pay:2001")).isEqualTo("processed,duplicate");
  }

  @Test
  void aDisagreeingEventHeaderChangesNothing() {
    db.insertOrder("LS2", 500);
    JsonObject order = LemonSqueezyNotifications.paid("LS2", "2002", 500);
    assertOk(service.send(LemonSqueezyNotifications.signed(order.encode(), LemonSqueezyNotifications.SECRET,
        "subscription_updated")));
    assertThat(db.orderStatus("LS2")).isEqualTo("paid");

    db.insertOrder("LS3", 500);
    JsonObject subscription = LemonSqueezyNotifications.event("subscription_created", "LS3",
        LemonSqueezyNotifications.order("2003", 500, "USD"));
    assertOk(service.send(LemonSqueezyNotifications.signed(subscription.encode(), LemonSqueezyNotifications.SECRET,
        "order_created")));
    assertThat(db.orderStatus("LS3")).isEqualTo("unpaid");
    assertThat(db.count("SELECT COUNT(*) FROM payments WHERE trade_no = '2003'")).isZero();
  }

  @Test
  void anotherStoresOrderIsRefused403() {
    db.insertOrder("LS4", 500);
    JsonObject order = LemonSqueezyNotifications.paid("LS4", "2004", 500);
    order.getJsonObject("data").getJsonObject("attributes").put("store_id", LemonSqueezyNotifications.OTHER_STORE_ID);

    assertThat(service.send(LemonSqueezyNotifications.signed(order)).status()).isEqualTo(403);
    assertThat(db.orderStatus("LS4")).isEqualTo("unpaid");
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
  }

  @Test
  void aTestModeOrderIsRefused403OnALiveInstance() {
    db.insertOrder("LS5", 500);
    JsonObject order = LemonSqueezyNotifications.paid("LS5", "2005", 500);
    order.getJsonObject("meta").put("test_mode", true);

    assertThat(service.send(LemonSqueezyNotifications.signed(order)).status()).isEqualTo(403);
    assertThat(db.orderStatus("LS5")).isEqualTo("unpaid");
  }

  @Test
  void aTestModeOrderIsBookedAndToldAsTestMoneyWhereConfigured() {
    JsonObject overrides = new JsonObject()
        .put("lemonsqueezy", new JsonObject().put("test_mode", true))
        .put("forward", new JsonObject().put("url", "http://127.0.0.1:9/site-hook")
            .put("secret", "a-forward-secret-of-32-characters"));
    try (TestService test = TestService.start(db.settings(), overrides)) {
      db.insertOrder("LS6", 700);
      JsonObject order = LemonSqueezyNotifications.paid("LS6", "2006", 700);
      order.getJsonObject("meta").put("test_mode", true);

      assertOk(test.send(LemonSqueezyNotifications.signed(order)));
      assertThat(db.orderStatus("LS6")).isEqualTo("paid");
      assertThat(db.column("SELECT body FROM forward_events WHERE order_no = 'LS6'")).singleElement()
          .satisfies(body -> assertThat(new JsonObject(body).getValue("livemode")).isEqualTo(false));
    }
  }

  @Test
  void anOrderNotPaidBooksNothing() {
    db.insertOrder("LS7", 500);
    for (String status : List.of("pending", "failed", "fraudulent")) {
      JsonObject order = LemonSqueezyNotifications.paid("LS7", "2007", 500);
      order.getJsonObject("data").getJsonObject("attributes").put("status", status);
      assertOk(service.send(LemonSqueezyNotifications.signed(order)));
    }
    assertThat(db.orderStatus("LS7")).isEqualTo("unpaid");
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    service.awaitLogRecorded();
    assertThat(db.column("SELECT outcome FROM notify_log")).hasSize(3).containsOnly("ignored");
  }

  @Test
  void anotherCurrencyIsKeptWithACurrencyMismatchNeverConverted() {
    db.insertOrder("LS8", 1000);
    JsonObject order = LemonSqueezyNotifications.event("order_created", "LS8",
        LemonSqueezyNotifications.order("2008", 920, "EUR"));
    order.getJsonObject("data").getJsonObject("attributes").put("total_usd", 1000).put("currency_rate", "1.0869");

    assertOk(service.send(LemonSqueezyNotifications.signed(order)));
    assertThat(db.orderStatus("LS8")).isEqualTo("unpaid");
    assertThat(db.string("SELECT amount_cents FROM payments WHERE trade_no = '2008'")).isEqualTo("920");
    assertThat(db.string("SELECT CONCAT(kind, ' ', detail) FROM anomalies WHERE trade_no = '2008'"))
        .startsWith("currency_mismatch").contains("EUR");
  }

  @Test
  void anOrderWithoutOrderNumberIsAPaymentWithoutOrder() {
    Notification order = LemonSqueezyNotifications.signed(LemonSqueezyNotifications.event("order_created", null,
        LemonSqueezyNotifications.order("2009", 1500, "USD")));

    assertOk(service.send(order));
    assertOk(service.send(order));
    assertThat(db.column("SELECT CONCAT(kind, ' ', trade_no, ' ', amount_cents) FROM anomalies"))
        .containsExactly("payment_without_order 2009 1500");
  }

  // Each refund of an order is an order_refunded of its new running total: two unreadable ones are two anomalies.
  @Test
  void twoUnreadableRefundsOfAnOrderAreTwoAnomaliesAndARedeliveryNone() {
    db.insertOrder("LS20", 5000);
    Notification first = null;
    for (long total : new long[] {2000, 5000}) {
      JsonObject refund = LemonSqueezyNotifications.refunded("LS20", "2020", 5000, total);
      refund.getJsonObject("data").getJsonObject("attributes").remove("currency");
      Notification n = LemonSqueezyNotifications.signed(refund);
      first = first == null ? n : first;
      assertOk(service.send(n));
    }
    assertOk(service.send(first));
    assertThat(db.column("SELECT CONCAT(kind, ' ', trade_no) FROM anomalies")).hasSize(2)
        .containsOnly("unreadable_notification 2020");
  }

  // A checkout's custom data passed as a number beyond 2^53 - 1 may be another order's number rounded by JavaScript.
  @Test
  void anOrderNumberJavaScriptMayHaveRoundedBooksNoOrder() {
    db.insertOrder("9007199254740992", 1500);
    JsonObject event = LemonSqueezyNotifications.paid("x", "2010", 1500);
    event.getJsonObject("meta").getJsonObject("custom_data").put("order_no", 9_007_199_254_740_992L);
    assertOk(service.send(LemonSqueezyNotifications.signed(event)));
    assertThat(db.orderStatus("9007199254740992")).isEqualTo("unpaid");
    assertThat(db.string("SELECT CONCAT(kind, ' ', detail) FROM anomalies")).startsWith("unreadable_notification")
        .contains("as a string");
  }

  /**
   * refunded_amount is the order's running total: two partial refunds delivered the second first end at the
   * second's total (80.00), never the two added (140.00, more than paid); a redelivery books nothing more.
   */
  @Test
  void cumulativeRefundsInReverseOrderBookTheLargerTotalOnce() {
    db.insertOrder("LS10", 10000);
    assertOk(service.send(paid("LS10", "2010", 10000)));

    assertOk(service.send(refunded("LS10", "2010", 10000, 8000)));
    assertOk(service.send(refunded("LS10", "2010", 10000, 6000)));
    assertOk(service.send(refunded("LS10", "2010", 10000, 8000))); // redelivered

    assertThat(db.orderStatus("LS10")).isEqualTo("partially_refunded");
    assertThat(db.column("SELECT CONCAT(refund_no, ' ', amount_cents, ' ', status) FROM refunds ORDER BY id"))
        .containsExactly("2010@8000 8000 settled", "2010@6000 6000 settled");
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
    service.awaitLogRecorded();
    assertThat(db.outcomes("lemonsqueezy:refund:2010@8000")).isEqualTo("processed,duplicate");
    assertThat(db.string("SELECT detail FROM notify_log WHERE idem_key = 'lemonsqueezy:refund:2010@6000'"))
        .contains("refunded 80.00 of 100.00");

    assertOk(service.send(LemonSqueezyNotifications.signed(
        LemonSqueezyNotifications.refunded("LS10", "2010", 10000, 10000, "refunded"))));
    assertThat(db.orderStatus("LS10")).isEqualTo("refunded");
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
  }

  // Research L1: the docs' "Issue a refund" example keeps status paid after a partial refund.
  @Test
  void aRefundOfAnOrderStillMarkedPaidIsBooked() {
    db.insertOrder("LS11", 1199);
    assertOk(service.send(paid("LS11", "2011", 1199)));
    assertOk(service.send(LemonSqueezyNotifications.signed(
        LemonSqueezyNotifications.refunded("LS11", "2011", 1199, 100, "paid"))));

    assertThat(db.orderStatus("LS11")).isEqualTo("partially_refunded");
  }

  @Test
  void eventsThatAreNoOrderAreAnswered200AndBookNothing() {
    for (String name : List.of("subscription_created", "subscription_payment_success", "license_key_created")) {
      assertOk(service.send(LemonSqueezyNotifications.signed(LemonSqueezyNotifications.event(name, "LS12",
          LemonSqueezyNotifications.order("2012", 900, "USD")))));
    }
    service.awaitLogRecorded();
    assertThat(db.column("SELECT outcome FROM notify_log")).hasSize(3).containsOnly("ignored");
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
  }

  @Test
  void aForgedOrUnsignedOrderIsRefusedAndBooksNothing() {
    db.insertOrder("LS13", 500);
    JsonObject order = LemonSqueezyNotifications.paid("LS13", "2013", 500);

    assertThat(service.send(LemonSqueezyNotifications.signed(order.encode(), LemonSqueezyNotifications.OTHER_SECRET,
        "order_created")).status()).isEqualTo(401);
    assertThat(service.send(LemonSqueezyNotifications.unsigned(order)).status()).isEqualTo(401);
    assertThat(db.orderStatus("LS13")).isEqualTo("unpaid");
  }
}
