package paynotify.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
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

  private static void assertRefused(Notification n, int status) {
    Reply reply = service.send(n);
    assertThat(reply.status()).isEqualTo(status);
    assertThat(reply).matches(VMQ.refusal());
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
  }
}
