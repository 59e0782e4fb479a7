package paynotify.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import paynotify.testsupport.AlipayNotifications;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.ServiceTestBase;
import paynotify.testsupport.WechatV2Notifications;
import paynotify.testsupport.WechatV3Notifications;

/** One order, paid through two platforms: booked once; the second payment needs a refund. */
class CrossChannelTest extends ServiceTestBase {

  @Test
  void orderPaidByAlipayThenWechatIsBookedOnceAndTheSecondIsAnAnomaly() {
    db.insertOrder("X1", 5000);
    assertThat(service.postAlipay(AlipayNotifications.signedBody(AlipayNotifications.payment("X1", "2026ALI1", "50.00"))))
        .isEqualTo(new Reply(200, "success"));
    assertThat(service.send(WechatV3Notifications.payment("X1", "4200000000202611290000000X01", 5000)).status())
        .isEqualTo(204);

    assertThat(db.orderStatus("X1")).isEqualTo("paid");
    assertThat(db.string("SELECT CONCAT(channel, ' ', trade_no) FROM orders WHERE order_no = 'X1'"))
        .isEqualTo("alipay 2026ALI1");
    assertThat(db.count("SELECT COUNT(*) FROM payments WHERE order_no = 'X1'")).isEqualTo(2);
    assertThat(db.string("SELECT CONCAT(kind, ' ', channel, ' ', trade_no) FROM anomalies"))
        .isEqualTo("second_payment wechat 4200000000202611290000000X01");
  }

  @Test
  void theSameWechatTransactionThroughV2AndV3IsOneBooking() {
    db.insertOrder("X2", 300);
    String transaction = "4200000000202611290000000X02";
    assertThat(service.send(WechatV2Notifications.signed(WechatV2Notifications.payment("X2", transaction, 300, 0)))
        .body()).contains("SUCCESS");
    assertThat(service.send(WechatV3Notifications.payment("X2", transaction, 300)).status()).isEqualTo(204);

    assertThat(db.payments(transaction)).isEqualTo(1);
    assertThat(db.outcomes("wechat:pay:" + transaction)).isEqualTo("processed,duplicate");
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
  }
}
