package paynotify.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import paynotify.testsupport.EpayNotifications;
import paynotify.testsupport.EpayStandIn;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.Notification;

/**
 * epay.confirm_before_book against the aggregator's {@code api.php?act=order} (its stand-in), which is asked by the
 * site's order number: what every channel's confirmation does ({@link ConfirmBeforeBookTestBase}), and what epay's
 * answer about an order, not a trade, adds.
 */
class EpayConfirmBeforeBookTest extends ConfirmBeforeBookTestBase<EpayStandIn> {
  @Override
  EpayStandIn startPlatform() {
    return EpayStandIn.start();
  }

  @Override
  String section() {
    return "epay";
  }

  @Override
  Reply success() {
    return new Reply(200, "success");
  }

  @Override
  String trade(int n) {
    return String.format("20261206000001%05d", n);
  }

  @Override
  Notification paid(String orderNo, String tradeNo, String money) {
    return EpayNotifications.get(EpayNotifications.signed(EpayNotifications.payment(orderNo, tradeNo, money),
        EpayNotifications.KEY));
  }

  /** epay's order, waiting under a trade number of its own. */
  @Override
  void pending(String orderNo, String tradeNo) {
    platform.waiting(orderNo);
  }

  @Override
  String pendingWord() {
    return "status=0";
  }

  @Override
  String paidWord() {
    return "TRADE_SUCCESS";
  }

  @Test
  void paidByAnotherTradeNothingIsBooked() {
    order("C4");
    platform.paid("C4", trade(99), "88.88");

    assertThat(unconfirmed("C4", trade(4))).startsWith(trade(4) + " 8888 open: ").contains("trade " + trade(99));
  }

  /** Without a signed notification, the sweeper's unsigned "paid" is what it always was: an anomaly to check. */
  @Test
  void aPaidAnswerWithoutANotificationStaysAnAnomaly() {
    order("C10");
    platform.paid("C10", trade(10), "88.88");

    assertThat(service.server().recovery().sweepOnce().await().paid()).isZero();

    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    assertThat(db.count("SELECT COUNT(*) FROM anomalies WHERE kind = 'query_says_paid'")).isEqualTo(1);
  }
}
