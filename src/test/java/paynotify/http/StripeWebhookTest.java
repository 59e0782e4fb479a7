package paynotify.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.Notification;
import paynotify.testsupport.ServiceTestBase;
import paynotify.testsupport.StripeNotifications;
import paynotify.testsupport.TestService;

/** POST /notify/stripe: the real service over real HTTP on the real database. */
class StripeWebhookTest extends ServiceTestBase {

  private static Notification sessionCompleted(String order, String pi, long amount, String currency) {
    return StripeNotifications.signed(StripeNotifications.event("evt_cs_" + pi, "checkout.session.completed",
        StripeNotifications.session(order, pi, amount, currency)));
  }

  private static Notification intentSucceeded(String order, String pi, long amount) {
    return StripeNotifications.signed(StripeNotifications.event("evt_pi_" + pi, "payment_intent.succeeded",
        StripeNotifications.paymentIntent(order, pi, amount, StripeNotifications.CURRENCY)));
  }

  private static Notification chargeRefunded(String pi, long paid, String refundId, long amount, long soFar) {
    return StripeNotifications.signed(StripeNotifications.event("evt_" + refundId, "charge.refunded",
        StripeNotifications.refundedCharge(pi, paid, refundId, amount, soFar, StripeNotifications.CURRENCY)));
  }

  private static void assertOk(Reply reply) {
    assertThat(reply.status()).isEqualTo(200);
    assertThat(reply.body()).isEqualTo("{\"received\":true}");
  }

  @Test
  void aSessionAndItsPaymentIntentAreOnePaymentBookedOnce() {
    db.insertOrder("S1", 2500);
    assertOk(service.send(sessionCompleted("S1", "pi_S1", 2500, "usd")));
    // Checkout copies neither client_reference_id nor metadata to the PaymentIntent: no order, not booked
    assertOk(service.send(intentSucceeded(null, "pi_S1", 2500)));
    // a site that also sets payment_intent_data.metadata.order_no: the same trade, a duplicate
    assertOk(service.send(intentSucceeded("S1", "pi_S1", 2500)));

    assertThat(db.payments("pi_S1")).isEqualTo(1);
    assertThat(db.string("SELECT CONCAT(channel, ' ', order_no, ' ', amount_cents, ' ', paid_at) FROM payments"))
        .isEqualTo("stripe S1 2500 2026-11-18 19:06:40.000"); // the event's created, Beijing wall clock
    assertThat(db.string("SELECT CONCAT(status, ' ', trade_no) FROM orders WHERE order_no = 'S1'"))
        .isEqualTo("paid pi_S1");
    assertThat(db.outcomes("stripe:pay:pi_S1")).isEqualTo("processed,duplicate");
    assertThat(db.string("SELECT detail FROM notify_log WHERE outcome = 'ignored'"))
        .contains("payment_intent.succeeded without metadata.order_no");
  }

  @Test
  void thePaymentIntentAloneBooksWhenItNamesTheOrder() {
    db.insertOrder("S2", 990);
    assertOk(service.send(intentSucceeded("S2", "pi_S2", 990)));
    assertOk(service.send(sessionCompleted("S2", "pi_S2", 990, "usd")));
    assertThat(db.orderStatus("S2")).isEqualTo("paid");
    assertThat(db.outcomes("stripe:pay:pi_S2")).isEqualTo("processed,duplicate");
  }

  @Test
  void orderNumberFromMetadataWhenNoClientReferenceId() {
    db.insertOrder("S3", 700);
    JsonObject session = StripeNotifications.session(null, "pi_S3", 700, "usd");
    session.put("metadata", new JsonObject().put("order_no", "S3"));
    assertOk(service.send(StripeNotifications.signed(
        StripeNotifications.event("evt_S3", "checkout.session.completed", session))));
    assertThat(db.orderStatus("S3")).isEqualTo("paid");
  }

  @Test
  void anUnpaidSessionBooksNothingAndItsAsyncSuccessBooks() {
    db.insertOrder("S4", 1200);
    JsonObject pending = StripeNotifications.session("S4", "pi_S4", 1200, "usd").put("payment_status", "unpaid");
    assertOk(service.send(StripeNotifications.signed(
        StripeNotifications.event("evt_S4a", "checkout.session.completed", pending))));
    assertThat(db.orderStatus("S4")).isEqualTo("unpaid");
    assertOk(service.send(StripeNotifications.signed(StripeNotifications.event("evt_S4b",
        "checkout.session.async_payment_succeeded", StripeNotifications.session("S4", "pi_S4", 1200, "usd")))));
    assertThat(db.orderStatus("S4")).isEqualTo("paid");
    assertThat(db.outcomes("stripe:pay:pi_S4")).isEqualTo("processed");
  }

  @Test
  void refundAfterItsPayment() {
    db.insertOrder("S5", 10000);
    assertOk(service.send(sessionCompleted("S5", "pi_S5", 10000, "usd")));
    assertOk(service.send(chargeRefunded("pi_S5", 10000, "re_S5a", 3000, 3000)));
    assertThat(db.orderStatus("S5")).isEqualTo("partially_refunded");
    assertOk(service.send(chargeRefunded("pi_S5", 10000, "re_S5b", 7000, 10000)));
    assertOk(service.send(chargeRefunded("pi_S5", 10000, "re_S5b", 7000, 10000))); // retried
    assertThat(db.orderStatus("S5")).isEqualTo("refunded");
    assertThat(db.column("SELECT CONCAT(refund_no, ' ', amount_cents, ' ', status) FROM refunds ORDER BY id"))
        .containsExactly("re_S5a 3000 settled", "re_S5b 10000 settled");
    assertThat(db.outcomes("stripe:refund:re_S5b")).isEqualTo("processed,duplicate");
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
  }

  @Test
  void refundBeforeItsPaymentWaitsAndThePaymentSettlesIt() {
    db.insertOrder("S6", 4000);
    assertOk(service.send(chargeRefunded("pi_S6", 4000, "re_S6", 4000, 4000)));
    assertThat(db.string("SELECT CONCAT(status, ' ', trade_no) FROM refunds")).isEqualTo("pending pi_S6");
    assertThat(db.orderStatus("S6")).isEqualTo("unpaid");

    assertOk(service.send(sessionCompleted("S6", "pi_S6", 4000, "usd")));
    assertThat(db.string("SELECT status FROM refunds")).isEqualTo("settled");
    assertThat(db.orderStatus("S6")).isEqualTo("refunded");
    assertThat(db.string("SELECT detail FROM notify_log WHERE idem_key = 'stripe:pay:pi_S6'"))
        .contains("1 pending refund(s) settled");
  }

  @Test
  void refundOfACurrentApiVersionChargeWithoutRefundsList() {
    db.insertOrder("S7", 5000);
    assertOk(service.send(sessionCompleted("S7", "pi_S7", 5000, "usd")));
    JsonObject charge = StripeNotifications.refundedCharge("pi_S7", 5000, "re_x", 2000, 2000, "usd");
    charge.remove("refunds");
    Notification refunded = StripeNotifications.signed(StripeNotifications.event("evt_S7", "charge.refunded", charge));
    assertOk(service.send(refunded));
    assertOk(service.send(refunded));
    assertThat(db.string("SELECT CONCAT(refund_no, ' ', amount_cents, ' ', cumulative) FROM refunds"))
        .isEqualTo("ch_pi_S7@2000 2000 1");
    assertThat(db.orderStatus("S7")).isEqualTo("partially_refunded");
    assertThat(db.outcomes("stripe:refund:ch_pi_S7@2000")).isEqualTo("processed,duplicate");
  }

  /** stripe_event #104: concurrent deliveries of one event colliding on a unique key. */
  @Test
  void twentyFourConcurrentCopiesBookOnce() {
    db.insertOrder("S8", 1999);
    String body = StripeNotifications.event("evt_S8", "checkout.session.completed",
        StripeNotifications.session("S8", "pi_S8", 1999, "usd")).encode();
    long now = System.currentTimeMillis() / 1000;
    List<CompletableFuture<Reply>> replies = new ArrayList<>();
    for (int i = 0; i < 24; i++) {
      replies.add(service.sendAsync(StripeNotifications.signed(body, now - i, StripeNotifications.SECRET)));
    }
    assertThat(replies).allSatisfy(r -> assertOk(r.join()));
    assertThat(db.payments("pi_S8")).isEqualTo(1);
    assertThat(db.orderStatus("S8")).isEqualTo("paid");
    assertThat(db.count("SELECT COUNT(*) FROM notify_log WHERE outcome = 'processed'")).isEqualTo(1);
    assertThat(db.count("SELECT COUNT(*) FROM notify_log WHERE outcome = 'duplicate'")).isEqualTo(23);
  }

  @Test
  void anotherCurrencyIsKeptWithACurrencyMismatchAndTheOrderStaysUnpaid() {
    db.insertOrder("S9", 2000);
    assertOk(service.send(sessionCompleted("S9", "pi_S9", 2000, "EUR")));
    assertThat(db.orderStatus("S9")).isEqualTo("unpaid");
    assertThat(db.payments("pi_S9")).isEqualTo(1);
    assertThat(db.string("SELECT CONCAT(kind, ' ', detail) FROM anomalies WHERE trade_no = 'pi_S9'"))
        .startsWith("currency_mismatch").contains("in eur");
    assertThat(db.outcomes("stripe:pay:pi_S9")).isEqualTo("anomaly");
  }

  @Test
  void theConfiguredCurrencyInAnyCase() {
    db.insertOrder("S10", 300);
    assertOk(service.send(sessionCompleted("S10", "pi_S10", 300, "USD")));
    assertThat(db.orderStatus("S10")).isEqualTo("paid");
  }

  /** JPY has no minor unit: 1000 JPY is sent as 1000 and booked as 1000, never scaled. */
  @Test
  void yenAreBookedAsSent() {
    try (TestService yen = TestService.start(db.settings(),
        new JsonObject().put("stripe", new JsonObject().put("currency", "jpy")))) {
      db.insertOrder("S11", 1000);
      assertOk(yen.send(sessionCompleted("S11", "pi_S11", 1000, "jpy")));
      assertThat(db.string("SELECT amount_cents FROM payments WHERE trade_no = 'pi_S11'")).isEqualTo("1000");
      assertThat(db.orderStatus("S11")).isEqualTo("paid");
    }
  }

  @Test
  void otherEventTypesAreAcknowledgedAndIgnored() {
    for (String type : List.of("customer.created", "invoice.paid", "payment_intent.created", "charge.succeeded")) {
      assertOk(service.send(StripeNotifications.signed(StripeNotifications.event("evt_" + type, type,
          new JsonObject().put("id", "obj_1").put("object", "thing")))));
    }
    assertThat(db.column("SELECT outcome FROM notify_log")).hasSize(4).containsOnly("ignored");
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
  }

  @Test
  void aStaleOrForgedSignatureIs4xxAndBooksNothing() {
    db.insertOrder("S12", 100);
    String body = StripeNotifications.event("evt_S12", "checkout.session.completed",
        StripeNotifications.session("S12", "pi_S12", 100, "usd")).encode();
    long now = System.currentTimeMillis() / 1000;
    Reply stale = service.send(StripeNotifications.signed(body, now - 301, StripeNotifications.SECRET));
    Reply forged = service.send(StripeNotifications.signed(body, now, StripeNotifications.OTHER_SECRET));
    for (Reply r : List.of(stale, forged)) {
      assertThat(r.status()).isBetween(400, 499);
      assertThat(new JsonObject(r.body()).getString("error")).isNotEmpty();
    }
    assertThat(new JsonObject(stale.body()).getString("error")).isEqualTo("stale_timestamp");
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    assertThat(db.orderStatus("S12")).isEqualTo("unpaid");
    // signed with the old and the new secret (a roll): one of them is ours
    assertOk(service.send(StripeNotifications.signed(body, now, StripeNotifications.OTHER_SECRET,
        StripeNotifications.SECRET)));
    assertThat(db.orderStatus("S12")).isEqualTo("paid");
  }

  /** Genuinely signed but of shapes Stripe never sends: refused or ignored, never a 5xx, nothing booked. */
  @Test
  void signedEventsOfUnexpectedShapesNeverGetA5xx() {
    db.insertOrder("S13", 100);
    JsonObject session = StripeNotifications.session("S13", "pi_S13", 100, "usd");
    List<String> bodies = List.of("", "[]", "null", "{", "{\"type\":1}", "{\"type\":\"charge.refunded\",\"data\":\"x\"}",
        StripeNotifications.event("e1", "checkout.session.completed", session.copy().put("amount_total", "100")).encode(),
        StripeNotifications.event("e2", "checkout.session.completed", session.copy().put("amount_total", -1)).encode(),
        StripeNotifications.event("e3", "checkout.session.completed", session.copy().put("amount_total", 1.5)).encode(),
        StripeNotifications.event("e4", "checkout.session.completed", session.copy().put("client_reference_id", "a b"))
            .encode(),
        StripeNotifications.event("e5", "checkout.session.completed", session.copy().put("currency", "")).encode(),
        StripeNotifications.event("e6", "checkout.session.completed", session).put("created", Long.MAX_VALUE).encode(),
        StripeNotifications.event("e7", "charge.refunded", new JsonObject().put("payment_intent", "pi_S13")
            .put("currency", "usd").put("amount_refunded", 1).put("refunds", new JsonObject().put("data", "x")))
            .encode(),
        StripeNotifications.event("e8", "payment_intent.succeeded", new JsonObject().put("metadata", "x")).encode());
    for (String body : bodies) {
      Reply reply = service.send(StripeNotifications.signed(body, System.currentTimeMillis() / 1000,
          StripeNotifications.SECRET));
      assertThat(reply.status()).as(body).isIn(200, 400);
    }
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    assertThat(db.orderStatus("S13")).isEqualTo("unpaid");
  }
}
