package paynotify.booking;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import paynotify.booking.anomaly.AnomalyKind;
import paynotify.channel.EventKind;
import paynotify.channel.NotifyEvent;
import paynotify.channel.Platform;
import paynotify.store.OrdersTable.Order;
import paynotify.store.OrdersTable;

/** The booking rules for a new payment that did not move its order from unpaid to paid, for every order status. */
class PaymentVerdictTest {
  /** Alipay trade T1 paid 10.00 for order O1. */
  private static final NotifyEvent PAID = new NotifyEvent(Platform.ALIPAY, EventKind.PAYMENT, "O1", "T1", 1000,
      LocalDateTime.of(2026, 3, 14, 12, 0), "TRADE_SUCCESS");

  private static PaymentVerdict judge(Order order) {
    return PaymentVerdict.judge(order, PAID);
  }

  /** An order of the default table, its status as stored there. */
  private static Order order(String status, long cents, String paidByChannel, String paidByTrade) {
    return new Order(OrdersTable.byDefault().values().of(status), status, cents, paidByChannel, paidByTrade);
  }

  @Test
  void anUnknownOrderIsAnAnomaly() {
    assertThat(judge(null)).isEqualTo(new PaymentVerdict(AnomalyKind.UNKNOWN_ORDER,
        "alipay trade T1 paid 10.00 for unknown order O1"));
  }

  @Test
  void anUnpaidOrderForAnotherAmountStaysUnpaid() {
    assertThat(judge(order("unpaid", 900, null, null))).isEqualTo(new PaymentVerdict(AnomalyKind.AMOUNT_MISMATCH,
        "alipay trade T1 paid 10.00 but order O1 is for 9.00: order left unpaid"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"paid", "partially_refunded", "refunded"})
  void anOrderPaidByAnotherTradeIsASecondPayment(String status) {
    assertThat(judge(order(status, 1000, "alipay", "T0"))).isEqualTo(new PaymentVerdict(
        AnomalyKind.SECOND_PAYMENT,
        "alipay trade T1 paid 10.00 but order O1 was already paid by alipay trade T0: the buyer needs a refund"));
  }

  @Test
  void theSameTradeIdOnAnotherPlatformIsAnotherTrade() {
    assertThat(judge(order("paid", 1000, "wechat", "T1")).anomaly()).isEqualTo(AnomalyKind.SECOND_PAYMENT);
  }

  @ParameterizedTest
  @ValueSource(strings = {"paid", "partially_refunded", "refunded"})
  void anOrderMarkedPaidByThisTradeForItsAmountIsNoAnomaly(String status) {
    PaymentVerdict verdict = judge(order(status, 1000, "alipay", "T1"));
    assertThat(verdict.isAnomaly()).isFalse();
    assertThat(verdict.detail())
        .isEqualTo("order O1 was already marked paid by this trade outside paynotify: payment recorded");
  }

  @Test
  void anOrderMarkedPaidByThisTradeForAnotherAmountIsAnAmountMismatch() {
    assertThat(judge(order("paid", 900, "alipay", "T1"))).isEqualTo(new PaymentVerdict(
        AnomalyKind.AMOUNT_MISMATCH,
        "alipay trade T1 paid 10.00 but order O1 was already marked paid by this trade outside paynotify for 9.00"));
  }

  @Test
  void aClosedOrderIsPaidAfterClose() {
    assertThat(judge(order("closed", 1000, null, null))).isEqualTo(
        new PaymentVerdict(AnomalyKind.PAID_AFTER_CLOSE,
            "alipay trade T1 paid 10.00 after order O1 was closed: reopen it or refund the buyer"));
  }

  @Test
  void anUnexpectedStatusIsNamed() {
    assertThat(judge(order("shipped", 1000, null, null))).isEqualTo(new PaymentVerdict(
        AnomalyKind.UNEXPECTED_ORDER_STATUS, "alipay trade T1 paid 10.00 but order O1 has status 'shipped'"));
  }
}
