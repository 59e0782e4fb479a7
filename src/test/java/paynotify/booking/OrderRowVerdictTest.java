package paynotify.booking;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import paynotify.testsupport.ChannelFixture;
import paynotify.testsupport.ServiceTestBase;

/** What the order row says when a new payment did not move exactly one order from unpaid to paid. */
class OrderRowVerdictTest extends ServiceTestBase {
  private final ChannelFixture alipay = ChannelFixture.alipay();

  /** A site table without a unique order number: one payment must never mark two orders, nor vanish as a duplicate. */
  @Test
  void aPaymentForAnOrderNumberOfTwoRowsIsRefusedAndNothingIsBooked() throws Exception {
    db.update("ALTER TABLE orders DROP KEY uk_order_no, ADD KEY k_order_no (order_no)");
    try {
      db.insertOrder("NU1", 1000);
      db.insertOrder("NU1", 1000);

      assertThat(service.send(alipay.payment("NU1", "T-NU1", 1000, 0)).status()).isEqualTo(503);

      assertThat(db.payments("T-NU1")).isZero();
      assertThat(db.column("SELECT status FROM orders WHERE order_no = 'NU1'")).containsExactly("unpaid", "unpaid");
      assertThat(db.count("SELECT COUNT(*) FROM idempotent_keys")).isZero();
      assertThat(db.string("SELECT CONCAT(outcome, ' ', detail) FROM notify_log"))
          .startsWith("error ").contains("2 rows have order_no NU1").contains("must be a UNIQUE key of orders");
    } finally {
      db.update("DELETE FROM orders");
      db.update("ALTER TABLE orders DROP KEY k_order_no, ADD UNIQUE KEY uk_order_no (order_no)");
    }
  }

  /**
   * An amount column SQL compares otherwise than Java reads it (DECIMAL 10.004 read as 1000 cents): the
   * order did not move, the row seems to say it should have; never "processed" with the order left unpaid.
   */
  @Test
  void anOrderThatReadsAsPayableButDidNotMoveIsRefused() throws Exception {
    db.update("ALTER TABLE orders MODIFY amount_cents DECIMAL(12, 2) NOT NULL");
    try {
      db.update("INSERT INTO orders (order_no, amount_cents) VALUES ('DX1', 1000.40)");

      assertThat(service.send(alipay.payment("DX1", "T-DX1", 1000, 0)).status()).isEqualTo(503);

      assertThat(db.payments("T-DX1")).isZero();
      assertThat(db.orderStatus("DX1")).isEqualTo("unpaid");
      assertThat(db.string("SELECT detail FROM notify_log")).contains("MARK_ORDER_PAID matched no row");
    } finally {
      db.update("DELETE FROM orders");
      db.update("ALTER TABLE orders MODIFY amount_cents BIGINT NOT NULL");
    }
  }

  /** The old notify.php, during the cutover, marked the order paid: the payment is still real money. */
  @Test
  void anOrderMarkedPaidByThisTradeOutsidePaynotifyKeepsItsPayment() throws Exception {
    db.insertOrder("OP1", 1000);
    db.update("UPDATE orders SET status = 'paid', channel = 'alipay', trade_no = 'T-OP1' WHERE order_no = 'OP1'");

    assertThat(service.send(alipay.payment("OP1", "T-OP1", 1000, 0))).matches(alipay.success());
    assertThat(service.send(alipay.payment("OP1", "T-OP1", 1000, 1))).matches(alipay.success());

    assertThat(db.payments("T-OP1")).isEqualTo(1);
    assertThat(db.orderStatus("OP1")).isEqualTo("paid");
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
    assertThat(db.outcomes("alipay:pay:T-OP1")).isEqualTo("processed,duplicate");
    assertThat(db.string("SELECT detail FROM notify_log WHERE outcome = 'processed'"))
        .contains("already marked paid by this trade outside paynotify");
  }

  /** ... but for another amount than the order's: the payment is kept, and a human looks at it. */
  @Test
  void anOrderMarkedPaidByThisTradeForAnotherAmountIsAnAnomaly() throws Exception {
    db.insertOrder("OP2", 1000);
    db.update("UPDATE orders SET status = 'paid', channel = 'alipay', trade_no = 'T-OP2' WHERE order_no = 'OP2'");

    assertThat(service.send(alipay.payment("OP2", "T-OP2", 900, 0))).matches(alipay.success());

    assertThat(db.payments("T-OP2")).isEqualTo(1);
    assertThat(db.string("SELECT CONCAT(kind, ': ', detail) FROM anomalies")).isEqualTo("amount_mismatch: alipay trade"
        + " T-OP2 paid 9.00 but order OP2 was already marked paid by this trade outside paynotify for 10.00");
  }
}
