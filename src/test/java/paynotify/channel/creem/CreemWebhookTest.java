package paynotify.channel.creem;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.CreemNotifications;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.Notification;
import paynotify.testsupport.ServiceTestBase;
import paynotify.testsupport.TestService;

/** POST /notify/creem: the real service over real HTTP on the real database. */
class CreemWebhookTest extends ServiceTestBase {

  private static JsonObject checkout(String order, String ord, long cents) {
    return CreemNotifications.checkout(order, ord, cents, CreemNotifications.CURRENCY);
  }

  private static Notification completed(JsonObject checkout) {
    return CreemNotifications.signed(CreemNotifications.event("evt_" + checkout.getString("id"), "checkout.completed",
        checkout));
  }

  private static Notification refundCreated(String ref, String ord, long cents, String status) {
    return CreemNotifications.signed(CreemNotifications.event("evt_" + ref, "refund.created",
        CreemNotifications.refund(ref, ord, cents, status, CreemNotifications.CURRENCY)));
  }

  private static void assertOk(Reply reply) {
    assertThat(reply.status()).isEqualTo(200);
    assertThat(reply.body()).isEqualTo("{\"received\":true}");
  }

  @Test
  void aPaidCheckoutBooksOnceAndItsRedeliveryIsADuplicate() {
    db.insertOrder("C1", 2500);
    Notification paid = completed(checkout("C1", "ord_C1", 2500));
    assertOk(service.send(paid));
    assertOk(service.send(paid)); // Creem's retry: the same request

    assertThat(db.payments("ord_C1")).isEqualTo(1);
    assertThat(db.string("SELECT CONCAT(channel, ' ', order_no, ' ', amount_cents, ' ', paid_at) FROM payments"))
        .isEqualTo("creem C1 2500 2026-11-18 19:06:40.000"); // the event's created_at (ms), Beijing wall clock
    assertThat(new JsonObject(db.string("SELECT detail FROM payments")))
        .isEqualTo(new JsonObject().put("checkout", "ch_ord_C1").put("transaction", "tran_ord_C1").put("amount", 2500)
            .put("tax_amount", 0));
    assertThat(db.string("SELECT CONCAT(status, ' ', trade_no) FROM orders WHERE order_no = 'C1'"))
        .isEqualTo("paid ord_C1");
    assertThat(db.outcomes("creem:pay:ord_C1")).isEqualTo("processed,duplicate");
  }

  /**
   * Creem's SDK (npm creem 1.13) also verifies Standard Webhooks headers: should Creem send those alone, the owner is
   * told what changed, not only that a header is missing.
   */
  @Test
  void aDeliverySignedOnlyByStandardWebhooksHeadersIsRefusedSayingSo() {
    db.insertOrder("C9", 2500);
    byte[] body = CreemNotifications.event("evt_C9", "checkout.completed", checkout("C9", "ord_C9", 2500)).encode()
        .getBytes(java.nio.charset.StandardCharsets.UTF_8);
    Reply reply = service.send(new Notification("POST", CreemNotifications.PATH, java.util.Map.of("Content-Type",
        "application/json", "webhook-id", "msg_C9", "webhook-timestamp", Long.toString(System.currentTimeMillis()
            / 1000), "webhook-signature", "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4="), body, null));

    assertThat(reply.status()).isEqualTo(401);
    assertThat(db.orderStatus("C9")).isEqualTo("unpaid");
    service.awaitLogRecorded();
    assertThat(db.string("SELECT detail FROM notify_log WHERE outcome = 'rejected'"))
        .contains("no creem-signature header", "webhook-signature", "Standard Webhooks");
  }

  @Test
  void theOrderIsTheRequestIdElseMetadataOrderNo() {
    db.insertOrder("C2", 700);
    db.insertOrder("C3", 800);
    JsonObject byMetadata = checkout("C2", "ord_C2", 700).put("metadata", new JsonObject().put("order_no", "C2"));
    byMetadata.remove("request_id");
    assertOk(service.send(completed(byMetadata)));
    JsonObject both = checkout("C3", "ord_C3", 800).put("metadata", new JsonObject().put("order_no", "C2"));
    assertOk(service.send(completed(both)));

    assertThat(db.column("SELECT CONCAT(order_no, ' ', trade_no) FROM payments ORDER BY order_no"))
        .containsExactly("C2 ord_C2", "C3 ord_C3");
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
  }

  @Test
  void aCheckoutWhoseOrderIsNotPaidBooksNothing() {
    db.insertOrder("C4", 500);
    JsonObject pending = checkout("C4", "ord_C4", 500);
    pending.getJsonObject("order").put("status", "pending");
    assertOk(service.send(completed(pending)));
    assertThat(db.orderStatus("C4")).isEqualTo("unpaid");
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
    assertThat(db.string("SELECT detail FROM notify_log")).contains("order status pending");
  }

  // Research C1: with a tax-exclusive price the buyer pays price + tax, which is what is booked: not the order's.
  @Test
  void whatTheBuyerPaidIsBookedTaxIncludedNeverTheAmountBeforeTax() {
    db.insertOrder("C5", 1000);
    JsonObject taxed = checkout("C5", "ord_C5", 1210);
    taxed.getJsonObject("order").put("amount", 1000).put("sub_total", 1000).put("tax_amount", 210);
    assertOk(service.send(completed(taxed)));

    assertThat(db.orderStatus("C5")).isEqualTo("unpaid");
    assertThat(db.string("SELECT CONCAT(amount_cents, ' ', detail) FROM payments"))
        .isEqualTo("1210 {\"checkout\":\"ch_ord_C5\",\"transaction\":\"tran_ord_C5\",\"amount\":1000,\"tax_amount\":210}");
    assertThat(db.string("SELECT kind FROM anomalies WHERE trade_no = 'ord_C5'")).isEqualTo("amount_mismatch");
  }

  @Test
  void withoutAmountPaidTheAmountDueIsBooked() {
    db.insertOrder("C6", 900);
    JsonObject due = checkout("C6", "ord_C6", 900);
    due.getJsonObject("order").remove("amount_paid");
    due.getJsonObject("order").put("amount", 1);
    assertOk(service.send(completed(due)));
    assertThat(db.orderStatus("C6")).isEqualTo("paid");

    JsonObject neither = checkout("C7", "ord_C7", 900);
    neither.getJsonObject("order").remove("amount_paid");
    neither.getJsonObject("order").remove("amount_due");
    assertOk(service.send(completed(neither))); // order.amount alone is never booked
    assertThat(db.payments("ord_C7")).isZero();
    assertThat(db.string("SELECT CONCAT(kind, ' ', order_no, ' ', trade_no) FROM anomalies"))
        .isEqualTo("unreadable_notification C7 ord_C7");
  }

  @Test
  void anotherCurrencyIsKeptWithACurrencyMismatchAndTheOrderStaysUnpaid() {
    db.insertOrder("C8", 2000);
    assertOk(service.send(completed(CreemNotifications.checkout("C8", "ord_C8", 2000, "EUR"))));
    assertThat(db.orderStatus("C8")).isEqualTo("unpaid");
    assertThat(db.payments("ord_C8")).isEqualTo(1);
    assertThat(db.string("SELECT CONCAT(kind, ' ', detail) FROM anomalies WHERE trade_no = 'ord_C8'"))
        .startsWith("currency_mismatch").contains("EUR");
  }

  @Test
  void aCheckoutNamingNoOrderIsAPaymentWithoutOrderRecordedOnce() {
    JsonObject nameless = checkout("x", "ord_C9", 1500);
    nameless.remove("request_id");
    Notification paid = completed(nameless);
    assertOk(service.send(paid));
    assertOk(service.send(paid));
    assertThat(db.column("SELECT CONCAT(kind, ' ', trade_no, ' ', amount_cents) FROM anomalies"))
        .containsExactly("payment_without_order ord_C9 1500");
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
  }

  // metadata values may be numbers; one beyond 2^53 - 1 may be another order's number rounded by JavaScript.
  @Test
  void anOrderNumberJavaScriptMayHaveRoundedBooksNoOrder() {
    db.insertOrder("9007199254740992", 1500);
    JsonObject rounded = checkout("x", "ord_C15", 1500);
    rounded.remove("request_id");
    rounded.put("metadata", new JsonObject().put("order_no", 9_007_199_254_740_992L));
    assertOk(service.send(completed(rounded)));
    assertThat(db.orderStatus("9007199254740992")).isEqualTo("unpaid");
    assertThat(db.string("SELECT CONCAT(kind, ' ', trade_no, ' ', detail) FROM anomalies"))
        .startsWith("unreadable_notification ord_C15").contains("as a string");
  }

  // Test Mode is another environment with its own secret: its events on a live instance mean its secret is here.
  @Test
  void anEventNotInProdModeIsRefusedUnlessTestModeIsOn() {
    db.insertOrder("C10", 2500);
    for (String mode : new String[] {"test", "sandbox", "local"}) {
      JsonObject test = checkout("C10", "ord_C10", 2500).put("mode", mode);
      Reply reply = service.send(completed(test));
      assertThat(reply.status()).isEqualTo(403);
      assertThat(reply.body()).contains("\"error\"");
    }
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();

    try (TestService testing = TestService.start(db.settings(),
        new JsonObject().put("creem", new JsonObject().put("test_mode", true)))) {
      assertOk(testing.send(completed(checkout("C10", "ord_C10", 2500).put("mode", "test"))));
    }
    assertThat(db.orderStatus("C10")).isEqualTo("paid");
  }

  @Test
  void aSucceededRefundIsBookedByItsIdForItsOwnAmount() {
    db.insertOrder("C11", 5000);
    assertOk(service.send(completed(checkout("C11", "ord_C11", 5000))));
    assertOk(service.send(refundCreated("ref_C11a", "ord_C11", 2000, "succeeded")));
    assertThat(db.orderStatus("C11")).isEqualTo("partially_refunded");
    Notification second = refundCreated("ref_C11b", "ord_C11", 3000, "succeeded");
    assertOk(service.send(second));
    assertOk(service.send(second));

    assertThat(db.orderStatus("C11")).isEqualTo("refunded");
    assertThat(db.column("SELECT CONCAT(refund_no, ' ', amount_cents, ' ', status) FROM refunds ORDER BY id"))
        .containsExactly("ref_C11a 2000 settled", "ref_C11b 3000 settled");
    assertThat(db.outcomes("creem:refund:ref_C11b")).isEqualTo("processed,duplicate");
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
  }

  // Research C4: refund.created is the only refund event; a refund not (yet) succeeded is never told again.
  @Test
  void aRefundNotSucceededIsAnUnbookedRefundForAHuman() {
    db.insertOrder("C12", 5000);
    assertOk(service.send(completed(checkout("C12", "ord_C12", 5000))));
    Notification pending = refundCreated("ref_C12", "ord_C12", 5000, "pending");
    assertOk(service.send(pending));
    assertOk(service.send(pending));

    assertThat(db.orderStatus("C12")).isEqualTo("paid");
    assertThat(db.count("SELECT COUNT(*) FROM refunds")).isZero();
    assertThat(db.string("SELECT CONCAT(kind, ' ', trade_no, ' ', amount_cents, ' ', detail) FROM anomalies"))
        .startsWith("unbooked_refund ord_C12 5000").contains("ref_C12").contains("pending");
  }

  // A renewal is a transaction of its own whose refund may name the first order's ord_: never booked against the
  // order's payment unless Creem says the refunded transaction is the order's (order.transaction, when present).
  @Test
  void aRefundOfASubscriptionsOtherTransactionIsNotBookedAgainstTheOrdersPayment() {
    db.insertOrder("C14", 1000);
    assertOk(service.send(completed(checkout("C14", "ord_C14", 1000)))); // a subscription's first order
    JsonObject renewal = CreemNotifications.refund("ref_C14r", "ord_C14", 1000, "succeeded", "USD")
        .put("subscription", "sub_C14");
    renewal.getJsonObject("transaction").put("id", "tran_C14month3").put("subscription", "sub_C14");
    Notification refund = CreemNotifications.signed(CreemNotifications.event("evt_ref_C14r", "refund.created", renewal));
    assertOk(service.send(refund));
    assertOk(service.send(refund));
    JsonObject named = CreemNotifications.refund("ref_C14n", "ord_C14", 1000, "succeeded", "USD");
    named.getJsonObject("transaction").put("id", "tran_C14month2");
    named.getJsonObject("order").put("transaction", "tran_ord_C14");
    assertOk(service.send(CreemNotifications.signed(CreemNotifications.event("evt_ref_C14n", "refund.created", named))));

    assertThat(db.orderStatus("C14")).isEqualTo("paid");
    assertThat(db.count("SELECT COUNT(*) FROM refunds")).isZero();
    assertThat(db.column("SELECT CONCAT(kind, ' ', trade_no, ' ', amount_cents, ' ', detail) FROM anomalies ORDER BY id"))
        .hasSize(2).allMatch(a -> a.startsWith("unbooked_refund ord_C14 1000"))
        .anyMatch(a -> a.contains("tran_C14month3") && a.contains("subscription"))
        .anyMatch(a -> a.contains("tran_C14month2") && a.contains("not the order's own, tran_ord_C14"));

    // the order's own transaction, named as such: booked
    JsonObject own = CreemNotifications.refund("ref_C14o", "ord_C14", 1000, "succeeded", "USD")
        .put("subscription", "sub_C14");
    own.getJsonObject("order").put("transaction", "tran_ord_C14");
    assertOk(service.send(CreemNotifications.signed(CreemNotifications.event("evt_ref_C14o", "refund.created", own))));
    assertThat(db.orderStatus("C14")).isEqualTo("refunded");
  }

  @Test
  void aDisputeIsAnAnomalyNamingItsOrder() {
    db.insertOrder("C13", 1331);
    assertOk(service.send(completed(checkout("C13", "ord_C13", 1331))));
    Notification dispute = CreemNotifications.signed(CreemNotifications.event("evt_disp", "dispute.created",
        CreemNotifications.dispute("disp_C13", "ord_C13", 1331)));
    assertOk(service.send(dispute));
    assertOk(service.send(dispute));
    assertThat(db.column("SELECT CONCAT(kind, ' ', trade_no, ' ', amount_cents) FROM anomalies"))
        .containsExactly("dispute ord_C13 1331");
    assertThat(db.orderStatus("C13")).isEqualTo("paid");
  }

  @Test
  void subscriptionEventsAreAcknowledgedAndBookNothing() {
    JsonObject subscription = new JsonObject().put("id", "sub_1").put("object", "subscription").put("status", "active")
        .put("mode", "prod");
    assertOk(service.send(CreemNotifications.signed(CreemNotifications.event("evt_sub", "subscription.paid",
        subscription))));
    assertThat(db.column("SELECT outcome FROM notify_log")).containsExactly("ignored");
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
  }

  // Signed, so Creem's: an amount of another JSON type is for a human, never a 5xx and never a retry loop.
  @Test
  void aSignedEventOfAnotherShapeIsAnUnreadableAnomalyNamingTheOrder() {
    JsonObject odd = checkout("C14", "ord_C14", 100);
    odd.getJsonObject("order").put("amount_paid", "1.00");
    assertOk(service.send(completed(odd)));
    assertOk(service.send(CreemNotifications.signed("[1,2]", CreemNotifications.SECRET)));
    assertThat(db.column("SELECT CONCAT(kind, ' ', IFNULL(order_no, '-')) FROM anomalies ORDER BY id"))
        .containsExactly("unreadable_notification C14", "unreadable_notification -");
  }
}
