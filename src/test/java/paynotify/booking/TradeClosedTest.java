package paynotify.booking;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.util.Map;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.AlipayNotifications;
import paynotify.testsupport.ChannelFixture;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.ServiceTestBase;
import paynotify.testsupport.TestService;

/**
 * A platform closing its own unpaid trade (Alipay's timeout) says nothing of the buyer's other
 * ways to pay the order: by default the site's order is left alone.
 */
class TradeClosedTest extends ServiceTestBase {
  private final ChannelFixture wechat = ChannelFixture.wechatV2();

  @Test
  void anAlipayTimeoutDoesNotTurnAWechatPaymentIntoAnAnomaly() throws Exception {
    db.insertOrder("TC1", 1000);
    assertThat(service.postAlipay(closed("TC1"))).isEqualTo(new Reply(200, "success"));
    assertThat(db.orderStatus("TC1")).isEqualTo("unpaid");
    assertThat(db.string("SELECT CONCAT(outcome, ' ', detail) FROM notify_log"))
        .isEqualTo("ignored alipay closed trade T-TC1; order TC1 left as it is (booking.trade_closed_closes_order)");

    assertThat(service.send(wechat.payment("TC1", "W-TC1", 1000, 0))).matches(wechat.success());
    assertThat(db.orderStatus("TC1")).isEqualTo("paid");
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
  }

  /** Switched on, a close moves only an unpaid order, and a later payment is an anomaly, as the site asked. */
  @Test
  void switchedOnATradeCloseClosesAnUnpaidOrderOnly() throws Exception {
    db.insertOrder("TC2", 100);
    db.insertOrder("TC3", 100);
    try (TestService closing = TestService.start(db.settings(),
        new JsonObject().put("booking", new JsonObject().put("trade_closed_closes_order", true)))) {
      assertThat(closing.postAlipay(AlipayNotifications.signedBody(AlipayNotifications.payment("TC3", "T-TC3", "1.00"))))
          .isEqualTo(new Reply(200, "success"));
      for (String order : new String[] {"TC2", "TC3"}) {
        assertThat(closing.postAlipay(closed(order))).isEqualTo(new Reply(200, "success"));
      }
      assertThat(db.orderStatus("TC2")).isEqualTo("closed");
      assertThat(db.orderStatus("TC3")).isEqualTo("paid");

      assertThat(closing.send(wechat.payment("TC2", "W-TC2", 100, 0))).matches(wechat.success());
    }
    assertThat(db.orderStatus("TC2")).isEqualTo("closed");
    assertThat(db.string("SELECT kind FROM anomalies")).isEqualTo("paid_after_close");
  }

  private static String closed(String orderNo) {
    Map<String, String> params = AlipayNotifications.payment(orderNo, "T-" + orderNo, "1.00");
    params.put("trade_status", "TRADE_CLOSED");
    return AlipayNotifications.signedBody(params);
  }
}
