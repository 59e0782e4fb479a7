package paynotify.booking;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.ChannelFixture;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.SiteTable;
import paynotify.testsupport.TestService;

/**
 * A site table that records only a status (no trade_no, channel or paid_at column): which trade
 * paid an order is then decided from our payments (moved_order), never guessed. A refund moves only
 * the order its own trade paid; a second payment names the trade that paid first; an order found
 * paid outside paynotify, with nothing to say by which trade, is left to a human.
 */
class TableWithoutTradeColumnsTest extends DatabaseTestBase {
  private static final ChannelFixture ALIPAY = ChannelFixture.alipay();
  private static final SiteTable SHOP = SiteTable.statusOnly(db); // 0 unpaid, 1 paid, 3 partially, 4 refunded
  private static TestService service;

  @BeforeAll
  static void start() {
    SHOP.drop();
    SHOP.create();
    service = TestService.start(db.settings(), SHOP.overrides());
  }

  @AfterAll
  static void stop() {
    service.close();
    SHOP.drop();
  }

  @BeforeEach
  void noOrders() {
    SHOP.empty();
  }

  @Test
  void thePaymentThatMovedTheOrderIsRecorded() throws Exception {
    order("S1", 1000);
    assertThat(service.send(ALIPAY.payment("S1", "T-S1", 1000, 0))).matches(ALIPAY.success());
    assertThat(service.send(ALIPAY.payment("S1", "T-S1", 1000, 1))).matches(ALIPAY.success());

    assertThat(status("S1")).isEqualTo("1");
    assertThat(db.string("SELECT moved_order FROM payments WHERE trade_no = 'T-S1'")).isEqualTo("1");
    assertThat(db.outcomes("alipay:pay:T-S1")).isEqualTo("processed,duplicate");
  }

  @Test
  void aSecondPaymentNamesTheTradeThatPaidAndItsRefundLeavesTheOrderAlone() throws Exception {
    order("S2", 1000);
    assertThat(service.send(ALIPAY.payment("S2", "T-S2-a", 1000, 0))).matches(ALIPAY.success());
    assertThat(service.send(ALIPAY.payment("S2", "T-S2-b", 1000, 0))).matches(ALIPAY.success());
    assertThat(db.string("SELECT detail FROM anomalies WHERE trade_no = 'T-S2-b' AND kind = 'second_payment'"))
        .contains("already paid by alipay trade T-S2-a");
    assertThat(db.string("SELECT moved_order FROM payments WHERE trade_no = 'T-S2-b'")).isEqualTo("0");

    // The buyer is refunded the second payment: the order stays paid by the first.
    assertThat(service.send(ALIPAY.refund("S2", "T-S2-b", 1000, "R1", 1000, 1000, 0))).matches(ALIPAY.success());
    assertThat(status("S2")).isEqualTo("1");

    // The first trade refunded in part, then in full: its order moves.
    assertThat(service.send(ALIPAY.refund("S2", "T-S2-a", 1000, "R1", 400, 400, 0))).matches(ALIPAY.success());
    assertThat(status("S2")).isEqualTo("3");
    assertThat(service.send(ALIPAY.refund("S2", "T-S2-a", 1000, "R2", 600, 1000, 0))).matches(ALIPAY.success());
    assertThat(status("S2")).isEqualTo("4");
  }

  @Test
  void anOrderPaidOutsidePaynotifyIsLeftToAHuman() throws Exception {
    order("S3", 1000);
    SHOP.setStatus("S3", 1); // the old notify.php
    assertThat(service.send(ALIPAY.payment("S3", "T-S3", 1000, 0))).matches(ALIPAY.success());

    assertThat(db.payments("T-S3")).isEqualTo(1);
    assertThat(db.string("SELECT CONCAT(kind, ': ', detail) FROM anomalies")).isEqualTo("already_paid: alipay trade"
        + " T-S3 paid 10.00 but order S3 was already marked paid outside paynotify, and nothing says by which trade:"
        + " if not by this one, refund the buyer");
    // Nor does its refund move an order nothing says it paid.
    assertThat(service.send(ALIPAY.refund("S3", "T-S3", 1000, "R1", 1000, 1000, 0))).matches(ALIPAY.success());
    assertThat(status("S3")).isEqualTo("1");
  }

  @Test
  void anAmountInAnotherUnitIsNeverTakenForTheOrders() throws Exception {
    order("S4", 1000);
    assertThat(service.send(ALIPAY.payment("S4", "T-S4", 10, 0))).matches(ALIPAY.success());
    assertThat(status("S4")).isEqualTo("0");
    assertThat(db.string("SELECT kind FROM anomalies WHERE trade_no = 'T-S4'")).isEqualTo("amount_mismatch");
  }

  private static void order(String orderNo, int fen) {
    SHOP.insertOrder(orderNo, fen);
  }

  private static String status(String orderNo) {
    return SHOP.status(orderNo);
  }
}
