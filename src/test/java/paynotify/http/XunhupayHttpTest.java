package paynotify.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.util.Map;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.ChannelFixture;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.ServiceTestBase;
import paynotify.testsupport.XunhupayNotifications;

/** 虎皮椒's own rules over HTTP; what every channel does is in {@link ChannelContractTest}. */
class XunhupayHttpTest extends ServiceTestBase {
  private static final ChannelFixture XUNHUPAY = ChannelFixture.xunhupay();

  // What the platform sent for its public test account, the test configuration's: the real thing, as captured.
  @Test
  void theTestAccountsNotificationBooksUnderOpenOrderId() {
    db.insertOrder("19112309425538", 10);
    assertThat(service.send(XunhupayNotifications.post(XunhupayNotifications.testAccountNotification())))
        .isEqualTo(new Reply(200, "success"));
    assertThat(db.string("SELECT CONCAT(status, ' ', trade_no) FROM orders WHERE order_no = '19112309425538'"))
        .isEqualTo("paid 20201085773");
    assertThat(new JsonObject(db.string("SELECT detail FROM payments")))
        .isEqualTo(new JsonObject().put("transaction_id", "4200000452201911236648686816"));
    assertThat(db.outcomes("xunhupay:pay:20201085773")).isEqualTo("processed");
  }

  // OD is the only paid status; WP and CD are the query API's unpaid and cancelled.
  @Test
  void otherStatusesAreAcknowledgedAndBookNothing() {
    db.insertOrder("X1", 100);
    for (String status : new String[] {"WP", "CD"}) {
      Map<String, String> f = XunhupayNotifications.payment("X1", "20261000001", "1.00", 0);
      f.put("status", status);
      assertThat(service.send(XunhupayNotifications.signed(f))).as(status).matches(XUNHUPAY.success());
    }
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    assertThat(db.orderStatus("X1")).isEqualTo("unpaid");
    assertThat(db.column("SELECT outcome FROM notify_log")).containsExactly("ignored", "ignored");
  }

  // Review N10: RD and UD are refunds at 虎皮椒 (made, or failed), which paynotify does not book: each an anomaly
  // naming the order, once however often it is sent, never silence.
  @Test
  void refundStatusesAreAnomaliesNotSilence() {
    db.insertOrder("X7", 500);
    assertThat(service.send(XunhupayNotifications.signed(XunhupayNotifications.payment("X7", "20261000007", "5.00",
        0)))).matches(XUNHUPAY.success());
    for (String status : new String[] {"RD", "UD", "RD"}) {
      Map<String, String> f = XunhupayNotifications.payment("X7", "20261000007", "5.00", 1);
      f.put("status", status);
      assertThat(service.send(XunhupayNotifications.signed(f))).as(status).matches(XUNHUPAY.success());
    }
    assertThat(db.column("SELECT CONCAT(kind, ' ', order_no, ' ', trade_no, ' ', amount_cents) FROM anomalies"
        + " ORDER BY id")).containsExactly("unbooked_refund X7 20261000007 500", "unbooked_refund X7 20261000007 500");
    assertThat(db.string("SELECT detail FROM anomalies ORDER BY id LIMIT 1")).contains("RD").contains("not booked");
    assertThat(db.orderStatus("X7")).isEqualTo("paid"); // a human decides
    assertThat(db.count("SELECT COUNT(*) FROM refunds")).isZero();
  }

  // Issue 40, point 5: what the signed notification names is kept in its anomaly, the order too.
  @Test
  void anUnreadableAmountKeepsTheOrderTheNotificationNames() {
    db.insertOrder("X8", 500);
    assertThat(service.send(XunhupayNotifications.signed(XunhupayNotifications.payment("X8", "20261000008", "5.005",
        0)))).matches(XUNHUPAY.success());
    assertThat(db.string("SELECT CONCAT(kind, ' ', order_no, ' ', trade_no) FROM anomalies"))
        .isEqualTo("unreadable_notification X8 20261000008");
  }

  // The docs: "验证签名时必须支持增加的扩展字段". A receiver signing a fixed list would refuse this.
  @Test
  void aFieldTheDocsDoNotListIsSigned() {
    db.insertOrder("X2", 500);
    Map<String, String> f = XunhupayNotifications.payment("X2", "20261000002", "5.00", 0);
    f.put("payer", "oUpF8uMuAJO_M2pxb1Q9zNjWeS6o");
    assertThat(service.send(XunhupayNotifications.signed(f))).matches(XUNHUPAY.success());
    assertThat(db.orderStatus("X2")).isEqualTo("paid");
  }

  @Test
  void aFieldOutsideTheHashIsRefused() {
    db.insertOrder("X3", 500);
    Map<String, String> signed = XunhupayNotifications.signed(
        XunhupayNotifications.payment("X3", "20261000003", "5.00", 0), XunhupayNotifications.APPSECRET);
    signed.put("attach", "added-in-transit");
    Reply reply = service.send(XunhupayNotifications.post(signed));
    assertThat(reply.status()).isEqualTo(401);
    assertThat(reply).matches(XUNHUPAY.refusal());
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
  }

  // The SDK skips a value only when it is === '': "0" and " " are signed, untrimmed.
  @Test
  void zeroAndBlankValuesAreSignedAndOnlyEmptyOnesLeftOut() {
    db.insertOrder("X4", 500);
    Map<String, String> f = XunhupayNotifications.payment("X4", "20261000004", "5.00", 0);
    f.put("attach", "0");
    f.put("plugins", " ");
    f.put("order_title", "");
    assertThat(service.send(XunhupayNotifications.signed(f))).matches(XUNHUPAY.success());
    assertThat(db.orderStatus("X4")).isEqualTo("paid");
  }

  // The SDK sends total_fee '0.1'; notifications seen carry two decimals, which the docs do not promise.
  @Test
  void amountsWithFewerThanTwoDecimalsAreYuan() {
    db.insertOrder("X5a", 10);
    db.insertOrder("X5b", 100);
    for (String[] paid : new String[][] {{"X5a", "0.1"}, {"X5b", "1"}}) {
      assertThat(service.send(XunhupayNotifications.signed(XunhupayNotifications.payment(paid[0], "T-" + paid[0],
          paid[1], 0)))).as(paid[1]).matches(XUNHUPAY.success());
    }
    assertThat(db.column("SELECT CONCAT(order_no, ' ', amount_cents) FROM payments ORDER BY order_no"))
        .containsExactly("X5a 10", "X5b 100");
    assertThat(db.orderStatus("X5a")).isEqualTo("paid");
    assertThat(db.orderStatus("X5b")).isEqualTo("paid");
  }

  // The hash joins k=v with '&' unescaped: a value holding "&trade_order_id=" reads as two fields to the
  // platform's joiner, so the same hash would fit another split.
  @Test
  void aValueHoldingAFieldOfTheProtocolIsRefused() {
    db.insertOrder("X6", 500);
    Map<String, String> f = XunhupayNotifications.payment("X6", "20261000006", "5.00", 0);
    f.put("order_title", "x&trade_order_id=Y");
    Reply reply = service.send(XunhupayNotifications.signed(f));
    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply).matches(XUNHUPAY.refusal());
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
  }
}
