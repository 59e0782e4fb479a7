package paynotify.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.ChannelFixture;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.Notification;
import paynotify.testsupport.ServiceTestBase;
import paynotify.testsupport.TestDatabase;
import paynotify.testsupport.TestService;
import paynotify.testsupport.VmqNotifications;

/**
 * V免签's own rules over HTTP; what every channel does is in {@link ChannelContractTest}. The test
 * configuration reads the order from param (vmq.order_field: param).
 */
class VmqHttpTest extends ServiceTestBase {
  private static final ChannelFixture VMQ = ChannelFixture.vmq();

  // dujiaoka's way: param is the site's order, payId a fresh id for each attempt to pay it.
  @Test
  void withOrderFieldParamTheOrderIsParamAndTheTradePayId() {
    db.insertOrder("SN1001", 1000);
    assertThat(service.send(VmqNotifications.signed(VmqNotifications.payment("2026120112000051234", "SN1001", "10",
        "10")))).isEqualTo(new Reply(200, "success"));
    assertThat(db.string("SELECT CONCAT(status, ' ', trade_no) FROM orders WHERE order_no = 'SN1001'"))
        .isEqualTo("paid 2026120112000051234");
  }

  // The sample receiver's way: payId is the site's order, param empty (sent as "param=").
  @Test
  void withOrderFieldPayIdTheOrderIsPayId() {
    db.insertOrder("SN1002", 1000);
    try (TestService byPayId = TestService.start(TestDatabase.get().settings(),
        new JsonObject().put("vmq", new JsonObject().put("order_field", "payId")))) {
      assertThat(byPayId.send(VmqNotifications.signed(VmqNotifications.payment("SN1002", "", "10", "10"))))
          .isEqualTo(new Reply(200, "success"));
    }
    assertThat(db.string("SELECT CONCAT(status, ' ', trade_no) FROM orders WHERE order_no = 'SN1002'"))
        .isEqualTo("paid SN1002");
  }

  // The PHP server writes its double 10.0 as "10", the Java server as "10.0"; its return URL says "10.00".
  @Test
  void priceAsEitherServerWritesItPaysTheOrder() {
    String[] prices = {"10", "10.0", "10.00"};
    for (int i = 0; i < prices.length; i++) {
      db.insertOrder("V3-" + i, 1000);
      assertThat(service.send(VmqNotifications.signed(VmqNotifications.payment("P3-" + i, "V3-" + i, prices[i],
          prices[i])))).as(prices[i]).matches(VMQ.success());
      assertThat(db.orderStatus("V3-" + i)).as(prices[i]).isEqualTo("paid");
    }
    assertThat(db.column("SELECT amount_cents FROM payments")).containsExactly("1000", "1000", "1000");
  }

  // The server shifts reallyPrice by a cent per concurrent order of the same price, so that the amount
  // tells them apart: the order's price is price.
  @Test
  void reallyPriceWithinTheShiftPaysTheOrder() {
    db.insertOrder("V4", 1000);
    assertThat(service.send(VmqNotifications.signed(VmqNotifications.payment("P4", "V4", "10", "10.01"))))
        .matches(VMQ.success());
    assertThat(db.orderStatus("V4")).isEqualTo("paid");
    assertThat(db.string("SELECT amount_cents FROM payments")).isEqualTo("1000");
    assertThat(new JsonObject(db.string("SELECT detail FROM payments")))
        .isEqualTo(new JsonObject().put("reallyPrice", "10.01").put("type", "1"));
  }

  // Review N2: what the buyer really paid stands beside the booked price wherever a payment is shown: its row
  // and the payment.succeeded the site is told.
  @Test
  void theSiteIsToldWhatWasReallyPaid() {
    db.insertOrder("V4b", 1000);
    try (TestService telling = TestService.start(TestDatabase.get().settings(), new JsonObject()
        .put("forward", new JsonObject().put("url", "http://127.0.0.1:9/hook")
            .put("secret", "a-forward-secret-of-32-characters")))) {
      assertThat(telling.send(VmqNotifications.signed(VmqNotifications.payment("P4b", "V4b", "10", "9.99"))))
          .matches(VMQ.success());
    }
    JsonObject data = new JsonObject(db.string("SELECT body FROM forward_events WHERE order_no = 'V4b'"
        + " AND type = 'payment.succeeded'")).getJsonObject("data");
    assertThat(data.getLong("amount_cents")).isEqualTo(1000L);
    assertThat(data.getJsonObject("detail")).isEqualTo(new JsonObject().put("reallyPrice", "9.99").put("type", "1"));
  }

  // The PHP server shifts at most 0.09: 0.50 is not a shift. Not booked: an anomaly, with what was paid.
  @Test
  void reallyPriceBeyondTheShiftIsAnAnomalyNotAPayment() {
    db.insertOrder("V5", 1000);
    assertThat(service.send(VmqNotifications.signed(VmqNotifications.payment("P5", "V5", "10", "10.50"))))
        .matches(VMQ.success());
    assertThat(db.orderStatus("V5")).isEqualTo("unpaid");
    assertThat(db.payments("P5")).isZero();
    assertThat(db.string("SELECT CONCAT(kind, ' ', order_no, ' ', amount_cents) FROM anomalies WHERE trade_no = 'P5'"))
        .isEqualTo("price_shift V5 1050");
  }

  // 1 WeChat, 2 Alipay: the only types either server creates orders of.
  @Test
  void aTypeTheServersDoNotHaveIsRefused() {
    Map<String, String> p = VmqNotifications.payment("P6", "V6", "10", "10");
    p.put("type", "3");
    assertRefused(VmqNotifications.signed(p), 400);
  }

  // The Java server writes a double of 10^7 or more as "1.0E7".
  @Test
  void aPriceInExponentFormIsRefused() {
    assertRefused(VmqNotifications.signed(VmqNotifications.payment("P7", "V7", "1.0E7", "1.0E7")), 400);
  }

  // The sign concatenates without separators: type 1, price "10", reallyPrice "10.01" hash as type 1, price
  // "101", reallyPrice "0.01". Whoever holds the first must not pay an order of 101.00 with it.
  @Test
  void pricesSplitAnotherWayUnderTheSameSignPayNothing() {
    db.insertOrder("V8", 10100);
    Map<String, String> genuine = VmqNotifications.signed(VmqNotifications.payment("P8", "V8", "10", "10.01"),
        VmqNotifications.KEY);
    Map<String, String> resplit = VmqNotifications.payment("P8", "V8", "101", "0.01");
    resplit.put("sign", genuine.get("sign"));
    assertThat(VmqNotifications.sign(resplit, VmqNotifications.KEY)).isEqualTo(genuine.get("sign"));

    assertThat(service.send(VmqNotifications.get(resplit))).matches(VMQ.success());
    assertThat(db.orderStatus("V8")).isEqualTo("unpaid");
    assertThat(db.payments("P8")).isZero();
    assertThat(db.string("SELECT kind FROM anomalies WHERE trade_no = 'P8'")).isEqualTo("price_shift");
  }

  // No timestamp, no retries: the only resend is the admin's 补单, the very same request.
  @Test
  void theSameRequestAgainIsADuplicate() {
    db.insertOrder("V9", 1000);
    Notification n = VmqNotifications.signed(VmqNotifications.payment("P9", "V9", "10", "10"));
    assertThat(service.send(n)).matches(VMQ.success());
    assertThat(service.send(n)).matches(VMQ.success());
    assertThat(db.payments("P9")).isEqualTo(1);
    assertThat(db.outcomes("vmq:pay:P9")).isEqualTo("processed,duplicate");
  }

  // Issue 40, point 12: a missing or renamed type is the channel's refusal, not a bug of ours (500).
  @Test
  void aMissingOrRenamedTypeIsRefusedNotAnError() {
    db.insertOrder("V10", 995);
    Map<String, String> genuine = VmqNotifications.signed(VmqNotifications.payment("P10", "V10", "9.95", "9.95"),
        VmqNotifications.KEY);
    Map<String, String> renamed = new LinkedHashMap<>();
    genuine.forEach((k, v) -> renamed.put(k.equals("type") ? "typf" : k, v));
    Map<String, String> missing = new LinkedHashMap<>(genuine);
    missing.remove("type");
    for (Map<String, String> mutated : List.of(renamed, missing)) {
      assertRefused(VmqNotifications.get(mutated), 400);
    }
    assertThat(db.orderStatus("V10")).isEqualTo("unpaid");
  }

  // Review S2: shop B on the same V免签 server (one key) numbers its orders as we do; with orders.out_trade_no
  // "A{order_no}" ours are A202612050007, and B's genuine message for its bare 202612050007 pays nothing here.
  @Test
  void anotherSitesNumberWithoutOurPrefixPaysNothing() {
    db.insertOrder("202612050007", 9900);
    db.insertOrder("202612050008", 9900);
    try (TestService a = TestService.start(TestDatabase.get().settings(), new JsonObject()
        .put("orders", new JsonObject().put("out_trade_no", "A{order_no}"))
        .put("vmq", new JsonObject().put("order_field", "payId")))) {
      assertThat(a.send(VmqNotifications.signed(VmqNotifications.payment("202612050007", "", "99", "99"))))
          .matches(VMQ.success()); // genuine: V免签 is told it arrived
      assertThat(a.send(VmqNotifications.signed(VmqNotifications.payment("A202612050008", "", "99", "99"))))
          .matches(VMQ.success());
    }
    assertThat(db.orderStatus("202612050007")).isEqualTo("unpaid");
    assertThat(db.payments("202612050007")).isZero();
    assertThat(db.string("SELECT CONCAT(kind, ' ', order_no, ' ', amount_cents) FROM anomalies"))
        .isEqualTo("not_our_number 202612050007 9900");
    assertThat(db.orderStatus("202612050008")).isEqualTo("paid"); // ours, written with the template
  }

  // vmqphp's own documented callback (its api.html): param "vone666" ends in a digit, and no other reading of
  // the same signed string names another order or another price: booked.
  @Test
  void vmqphpsDocumentedCallbackIsBooked() {
    db.insertOrder("1547130349673", 10);
    try (TestService byPayId = TestService.start(TestDatabase.get().settings(),
        new JsonObject().put("vmq", new JsonObject().put("order_field", "payId")))) {
      Map<String, String> documented = VmqNotifications.payment("1547130349673", "vone666", "0.1", "0.1");
      documented.put("type", "2");
      assertThat(byPayId.send(VmqNotifications.signed(documented))).isEqualTo(new Reply(200, "success"));
    }
    assertThat(db.orderStatus("1547130349673")).isEqualTo("paid");
  }

  // Review N1: createOrder's sign md5(ORD7 . "" . 1 . 11 . key), which the buyer's browser is sent, is the notify
  // sign of (ORD7, "", 1, 1, 1). A price that is not the order's is no payment: no row, the trade's key left free,
  // so the buyer's real payment of 11.00 books when it comes.
  @Test
  void aPriceThatIsNotTheOrdersTakesNoPaymentRowAndTheRealPaymentBooks() {
    db.insertOrder("ORD7", 1100);
    try (TestService byPayId = TestService.start(TestDatabase.get().settings(),
        new JsonObject().put("vmq", new JsonObject().put("order_field", "payId")))) {
      Map<String, String> resplit = VmqNotifications.payment("ORD7", "", "1", "1");
      resplit.put("sign", VmqNotifications.createOrderSign("ORD7", "", "1", "11"));
      assertThat(byPayId.send(VmqNotifications.get(resplit))).matches(VMQ.success());
      assertThat(db.orderStatus("ORD7")).isEqualTo("unpaid");
      assertThat(db.payments("ORD7")).isZero();
      assertThat(db.string("SELECT CONCAT(kind, ' ', order_no, ' ', amount_cents) FROM anomalies"))
          .isEqualTo("price_shift ORD7 100");

      assertThat(byPayId.send(VmqNotifications.signed(VmqNotifications.payment("ORD7", "", "11", "11"))))
          .isEqualTo(new Reply(200, "success"));
    }
    assertThat(db.orderStatus("ORD7")).isEqualTo("paid");
    assertThat(db.string("SELECT amount_cents FROM payments WHERE trade_no = 'ORD7'")).isEqualTo("1100");
  }

  // With the order in param, the string N . 1 . 11 . 11 also reads N11 . 1 . 1 . 1: whoever holds the payment of
  // order N (11.00) could send it as a payment of order N11 (1.00). With both waiting for those prices, either could
  // be the one paid: nothing booked, an anomaly naming both, each message answered (V免签 never retries). With
  // vmq.order_pattern of one length, N11 is no order number, and N's payment books.
  @Test
  void aSignThatAlsoPaysAnotherWaitingOrderIsAnAnomalyUnlessThePatternRulesItOut() {
    db.insertOrder("N", 1100);
    db.insertOrder("N11", 100);
    Map<String, String> paysN = VmqNotifications.signed(VmqNotifications.payment("P11", "N", "11", "11"),
        VmqNotifications.KEY);
    Map<String, String> paysN11 = VmqNotifications.payment("P11", "N11", "1", "1");
    paysN11.put("sign", paysN.get("sign"));
    assertThat(VmqNotifications.sign(paysN11, VmqNotifications.KEY)).isEqualTo(paysN.get("sign"));
    assertThat(service.send(VmqNotifications.get(paysN11))).isEqualTo(new Reply(200, "success"));
    assertThat(service.send(VmqNotifications.get(paysN))).isEqualTo(new Reply(200, "success"));
    assertThat(db.orderStatus("N")).isEqualTo("unpaid");
    assertThat(db.orderStatus("N11")).isEqualTo("unpaid");
    assertThat(db.payments("P11")).isZero();
    assertThat(db.count("SELECT COUNT(*) FROM idempotent_keys WHERE idem_key = 'vmq:pay:P11'")).isZero();

    try (TestService oneLength = TestService.start(TestDatabase.get().settings(),
        new JsonObject().put("vmq", new JsonObject().put("order_pattern", "[A-Z]")))) {
      assertThat(oneLength.send(VmqNotifications.get(paysN))).matches(VMQ.success());
    }
    assertThat(db.orderStatus("N")).isEqualTo("paid");
    assertThat(db.orderStatus("N11")).isEqualTo("unpaid");
  }

  // dujiaoka's param: 16 random letters and digits. ...P . 1 . 19.9 . 19.9 also reads ...P1 . 1 . 9.91 . 9.9, and
  // ...P . 1 . 11 . 11 reads ...P11 . 1 . 1 . 1: other order numbers, but no order of this site waits for them, so
  // the genuine payment books, without vmq.order_pattern.
  @Test
  void aDujiaokaPaymentWhoseSignAlsoReadsAsAnotherOrderNumberBooks() {
    String[][] payments = {{"ABCDEFGHIJKLMNOP", "19.9", "1990"}, {"QRSTUVWXYZ123456", "11", "1100"}};
    for (String[] p : payments) {
      db.insertOrder(p[0], Long.parseLong(p[2]));
      assertThat(service.send(VmqNotifications.signed(VmqNotifications.payment("T" + p[0], p[0], p[1], p[1]))))
          .as(p[0]).isEqualTo(new Reply(200, "success"));
      assertThat(db.orderStatus(p[0])).as(p[0]).isEqualTo("paid");
    }
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
  }

  // The same payment of ...P (11.00) while order ...P11 waits for 1.00, which the same sign also pays: V免签 says
  // which one it was. Nothing booked, the payId's key left free, an anomaly that names both.
  @Test
  void aDujiaokaPaymentWhoseOtherReadingPaysAWaitingOrderIsAnAnomalyNamingBoth() {
    db.insertOrder("ABCDEFGHIJKLMNOP", 1100);
    db.insertOrder("ABCDEFGHIJKLMNOP11", 100);
    assertThat(service.send(VmqNotifications.signed(VmqNotifications.payment("T20", "ABCDEFGHIJKLMNOP", "11",
        "11")))).isEqualTo(new Reply(200, "success"));
    assertThat(db.column("SELECT status FROM orders ORDER BY order_no")).containsExactly("unpaid", "unpaid");
    assertThat(db.payments("T20")).isZero();
    assertThat(db.count("SELECT COUNT(*) FROM idempotent_keys WHERE idem_key = 'vmq:pay:T20'")).isZero();
    assertThat(db.string("SELECT CONCAT(kind, ' ', order_no, ' ', trade_no) FROM anomalies"))
        .isEqualTo("ambiguous_payment ABCDEFGHIJKLMNOP T20");
    assertThat(db.string("SELECT detail FROM anomalies")).contains("ABCDEFGHIJKLMNOP11").contains("1.00")
        .contains("11.00");
  }

  // Review N1 again: a price that is not the order's keeps no payment whatever the order's status, and no order is
  // no payment either (a re-split createOrder sign, or another site's number): no row, the trade's key left free.
  @Test
  void anUnknownOrderOrAPaidOrdersOtherPriceKeepsNoPayment() {
    db.insertOrder("V21A", 1000);
    db.update("UPDATE orders SET status = 'paid', channel = 'vmq', trade_no = 'P21-first' WHERE order_no = 'V21A'");
    assertThat(service.send(VmqNotifications.signed(VmqNotifications.payment("P21", "V21A", "1", "1"))))
        .isEqualTo(new Reply(200, "success"));
    assertThat(service.send(VmqNotifications.signed(VmqNotifications.payment("P22", "V22A", "10", "10"))))
        .isEqualTo(new Reply(200, "success"));
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    assertThat(db.count("SELECT COUNT(*) FROM idempotent_keys WHERE idem_key IN ('vmq:pay:P21', 'vmq:pay:P22')"))
        .isZero();
    assertThat(db.column("SELECT CONCAT(kind, ' ', order_no, ' ', trade_no, ' ', amount_cents) FROM anomalies"
        + " ORDER BY trade_no")).containsExactly("price_shift V21A P21 100", "unknown_order V22A P22 1000");

    // The order's own price on a paid order is real money: a second payment, kept.
    assertThat(service.send(VmqNotifications.signed(VmqNotifications.payment("P23", "V21A", "10", "10"))))
        .isEqualTo(new Reply(200, "success"));
    assertThat(db.payments("P23")).isEqualTo(1);
    assertThat(db.string("SELECT kind FROM anomalies WHERE trade_no = 'P23'")).isEqualTo("second_payment");
  }

  // Issue 40, point 5: signed, but its payId is empty (the trade): an anomaly that names the order param names.
  @Test
  void anUnreadableNotificationKeepsTheOrderItNames() {
    db.insertOrder("V13", 1000);
    assertThat(service.send(VmqNotifications.signed(VmqNotifications.payment("", "V13", "10", "10"))))
        .matches(VMQ.success());
    assertThat(db.string("SELECT CONCAT(kind, ' ', order_no) FROM anomalies")).isEqualTo("unreadable_notification V13");
    assertThat(db.orderStatus("V13")).isEqualTo("unpaid");
  }

  private static void assertRefused(Notification n, int status) {
    Reply reply = service.send(n);
    assertThat(reply.status()).isEqualTo(status);
    assertThat(reply).matches(VMQ.refusal());
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
  }
}
