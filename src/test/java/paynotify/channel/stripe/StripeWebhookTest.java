package paynotify.channel.stripe;

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
  /**
   * A service of its own that writes anomaly.created to the outbox (to a site nobody listens at: the rows
   * are what the tests read).
   */
  private static JsonObject telling() {
    return new JsonObject().put("forward", new JsonObject().put("url", "http://127.0.0.1:9/site-hook")
        .put("secret", "a-forward-secret-of-32-characters"));
  }


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

  // Issue 40, point 5: signed, then unreadable (an amount of another JSON type): the anomaly names the order.
  @Test
  void anUnreadableEventKeepsTheOrderItNames() {
    db.insertOrder("S14", 100);
    JsonObject session = StripeNotifications.session("S14", "pi_S14", 100, "usd").put("amount_total", "100");
    assertOk(service.send(StripeNotifications.signed(StripeNotifications.event("evt_S14", "checkout.session.completed",
        session))));
    assertThat(db.string("SELECT CONCAT(kind, ' ', order_no) FROM anomalies")).isEqualTo("unreadable_notification S14");
  }

  // Review S5: a test-mode Payment Link (anyone with the URL pays with 4242...) must not pay a live order.
  @Test
  void aTestModeEventIsRefusedByALiveConfigurationAndBooksNothing() {
    db.insertOrder("ST1", 2500);
    JsonObject event = StripeNotifications.event("evt_test_ST1", "checkout.session.completed",
        StripeNotifications.session("ST1", "pi_ST1", 2500, "usd").put("livemode", false)).put("livemode", false);

    Reply reply = service.send(StripeNotifications.signed(event));

    assertThat(reply.status()).isBetween(400, 499);
    assertThat(db.orderStatus("ST1")).isEqualTo("unpaid");
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
  }

  // Review S6: signed, so genuine, but it names no order: kept with its body for a human, and Stripe gets its 2xx.
  @Test
  void aSignedSessionWithoutOrderNumberIsAnAnomalyWithItsBody() throws Exception {
    Notification session = StripeNotifications.signed(StripeNotifications.event("evt_cs_noorder",
        "checkout.session.completed", StripeNotifications.session(null, "pi_NOORDER", 1500, "usd")));

    assertOk(service.send(session));
    assertOk(service.send(session)); // Stripe's retry: one anomaly

    assertThat(db.column("SELECT CONCAT(kind, ' ', trade_no, ' ', amount_cents) FROM anomalies"))
        .containsExactly("payment_without_order pi_NOORDER 1500");
    assertThat(db.column("SELECT outcome FROM notify_log WHERE raw_body = ?", session.body())).isNotEmpty()
        .containsOnly("anomaly"); // kept with its body
  }

  // docs/channels.md's other place for the order number: payment_intent_data.metadata. Then the Session names no
  // order, its PaymentIntent does, and the payment is booked: no human is needed, before or after.
  @Test
  void aSessionWithoutOrderWhosePaymentIntentNamesItIsNoAnomaly() {
    try (TestService site = TestService.start(db.settings(), telling())) {
      db.insertOrder("SSA", 1500);
      db.insertOrder("SSB", 1600);
      assertOk(site.send(intentSucceeded("SSA", "pi_SSA", 1500)));
      assertOk(site.send(StripeNotifications.signed(StripeNotifications.event("evt_cs_ssa",
          "checkout.session.completed", StripeNotifications.session(null, "pi_SSA", 1500, "usd")))));
      assertOk(site.send(StripeNotifications.signed(StripeNotifications.event("evt_cs_ssb",
          "checkout.session.completed", StripeNotifications.session(null, "pi_SSB", 1600, "usd")))));
      assertOk(site.send(intentSucceeded("SSB", "pi_SSB", 1600)));

      assertThat(db.column("SELECT order_no FROM orders WHERE status = 'paid' ORDER BY order_no"))
          .containsExactly("SSA", "SSB");
      assertThat(db.count("SELECT COUNT(*) FROM anomalies WHERE resolved_at IS NULL")).isZero();
      assertThat(db.count("SELECT COUNT(*) FROM forward_events WHERE type = 'anomaly.created'")).isZero();
    }
  }

  @Test
  void aDisputeAndAFailedRefundAreAnomaliesNotIgnored() {
    JsonObject dispute = new JsonObject().put("id", "dp_1").put("object", "dispute").put("amount", 2500)
        .put("currency", "usd").put("charge", "ch_pi_SD").put("payment_intent", "pi_SD").put("reason", "fraudulent")
        .put("status", "needs_response");
    JsonObject refund = new JsonObject().put("id", "re_SDfail").put("object", "refund").put("amount", 1000)
        .put("currency", "usd").put("payment_intent", "pi_SD").put("status", "failed")
        .put("failure_reason", "expired_or_canceled_card");

    assertOk(service.send(StripeNotifications.signed(StripeNotifications.event("evt_dp_1", "charge.dispute.created",
        dispute))));
    assertOk(service.send(StripeNotifications.signed(StripeNotifications.event("evt_re_fail", "charge.refund.updated",
        refund))));

    assertThat(db.column("SELECT CONCAT(kind, ' ', trade_no, ' ', amount_cents) FROM anomalies ORDER BY id"))
        .containsExactly("dispute pi_SD 2500", "refund_failed pi_SD 1000");
    assertThat(db.column("SELECT outcome FROM notify_log")).containsOnly("anomaly");
  }

  // Review S6: a site that creates PaymentIntents itself and forgot metadata.order_no: no Session ever books it.
  @Test
  void aPaymentIntentWithoutOrderIsRecordedUnlessItsSessionBookedIt() {
    db.insertOrder("SPI", 800);
    assertOk(service.send(sessionCompleted("SPI", "pi_SPI", 800, "usd")));
    assertOk(service.send(intentSucceeded(null, "pi_SPI", 800))); // booked by its Session: nothing to record

    assertOk(service.send(intentSucceeded(null, "pi_LOST", 4200))); // no Session: a human must find the order

    assertThat(db.column("SELECT CONCAT(kind, ' ', trade_no, ' ', amount_cents) FROM anomalies"))
        .containsExactly("payment_without_order pi_LOST 4200");
  }

  /** The wait is an hour: the test ages the anomalies instead, and runs the periodic check itself. */
  @Test
  void aPaymentIntentThatNoSessionBooksIsToldAfterTheWaitAndOneItsSessionBooksIsResolved() {
    try (TestService site = TestService.start(db.settings(), telling())) {
      db.insertOrder("SPR", 600);
      assertOk(site.send(intentSucceeded(null, "pi_WAITS", 4200))); // nobody will book this one
      assertOk(site.send(intentSucceeded(null, "pi_SPR", 600))); // before its Session, as Stripe may send them
      assertOk(site.send(sessionCompleted("SPR", "pi_SPR", 600, "usd")));
      assertThat(db.column("SELECT CONCAT(trade_no, ' ', resolved_at IS NULL) FROM anomalies ORDER BY id"))
          .containsExactly("pi_WAITS 1", "pi_SPR 0"); // resolved by the Session's booking
      // one that the Session's booking missed (it raced the PaymentIntent's record) the periodic check resolves
      db.update("UPDATE anomalies SET resolved_at = NULL WHERE trade_no = 'pi_SPR'");
      assertThat(site.server().orderlessPayments().runOnce().await()).isEqualTo(1);
      assertThat(db.column("SELECT CONCAT(trade_no, ' ', resolved_at IS NULL) FROM anomalies ORDER BY id"))
          .containsExactly("pi_WAITS 1", "pi_SPR 0");
      assertThat(db.count("SELECT COUNT(*) FROM forward_events WHERE type = 'anomaly.created'")).isZero(); // it waits

      db.update("UPDATE anomalies SET created_at = NOW(3) - INTERVAL 2 HOUR");
      assertThat(site.server().orderlessPayments().runOnce().await()).isZero();
      assertThat(site.server().orderlessPayments().runOnce().await()).isZero();

      assertThat(db.column("SELECT body FROM forward_events WHERE type = 'anomaly.created'")).singleElement()
          .satisfies(body -> assertThat(new JsonObject(body).getJsonObject("data").getString("trade_no"))
              .isEqualTo("pi_WAITS"));
    }
  }
}
