package paynotify.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import paynotify.cli.ExitCode;
import paynotify.testsupport.AlipayNotifications;
import paynotify.testsupport.ChannelFixture;
import paynotify.testsupport.Cli;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.SampleBills;
import paynotify.testsupport.TestService;

/** `repair book` and `anomalies`: fixes that say what they would do, do it once, and leave a record. */
class RepairAndAnomaliesTest extends DatabaseTestBase {
  // A payment of the Alipay sample bill whose notification was lost (answer key: missing_local).
  private static final String TRADE = "2026031422001477480730061433";
  private static final String ORDER = "PN2026031439096925";

  @BeforeEach
  void loadTheSampleState() {
    SampleBills.loadLocalState();
  }

  /** --apply with --unconfirmed: the tools' bare configuration has no client to ask Alipay (RepairBookConfirmationTest). */
  private static Cli.Result repair(boolean apply) {
    return apply
        ? Cli.run("repair", "book", "--channel", "alipay", "--bill", SampleBills.ALIPAY.toString(), "--trade-no", TRADE,
            "--apply", "--unconfirmed")
        : Cli.run("repair", "book", "--channel", "alipay", "--bill", SampleBills.ALIPAY.toString(), "--trade-no", TRADE);
  }

  @Test
  void withoutApplyItOnlySaysWhatItWouldDo() {
    Cli.Result r = repair(false);
    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("would book 1 payment of alipay trade " + TRADE)
        .contains("order " + ORDER + " unpaid -> paid");
    assertThat(db.payments(TRADE)).isZero();
    assertThat(db.orderStatus(ORDER)).isEqualTo("unpaid");
  }

  @Test
  void applyBooksOnceThroughTheNotificationsTransaction() {
    Cli.Result first = repair(true);
    assertThat(first.exit()).as(first.err()).isZero();
    assertThat(first.out()).startsWith("booked 1 payment of alipay trade " + TRADE).contains(ORDER + " unpaid -> paid");
    assertThat(db.payments(TRADE)).isEqualTo(1);
    assertThat(db.orderStatus(ORDER)).isEqualTo("paid");
    assertThat(db.string("SELECT CONCAT(channel, ' ', outcome) FROM notify_log WHERE idem_key = ?", "alipay:pay:" + TRADE))
        .isEqualTo("repair processed");

    Cli.Result again = repair(true);
    assertThat(again.exit()).isZero();
    assertThat(again.out()).startsWith("nothing to do: trade " + TRADE + " already booked");
    assertThat(repair(false).out()).startsWith("nothing to do: trade " + TRADE + " already booked (order " + ORDER + ")");
    assertThat(db.payments(TRADE)).isEqualTo(1);

    // and the bill no longer reports it
    assertThat(Cli.run("reconcile", "--channel", "alipay", "--bill", SampleBills.ALIPAY.toString()).out())
        .doesNotContain("missing_local             trade_no " + TRADE);
  }

  // Review S2: with orders.out_trade_no set, the bill's bare PN... is another site's order on the same account.
  @Test
  void aNumberNotWrittenWithTheTemplateIsNeverBookedAsTheSitesOrder() {
    String template = "orders:\n  out_trade_no: \"{order_no}-shop1\"\n";
    for (String[] mode : new String[][] {{}, {"--apply"}}) {
      Cli.Result r = Cli.runConfigured(template, concat(new String[] {"repair", "book", "--channel", "alipay",
          "--bill", SampleBills.ALIPAY.toString(), "--trade-no", TRADE}, mode));
      assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(1);
      assertThat(r.err()).contains("not booked").contains("orders.out_trade_no");
    }
    assertThat(db.payments(TRADE)).isZero();
    assertThat(db.orderStatus(ORDER)).isEqualTo("unpaid");
  }

  private static String[] concat(String[] a, String[] b) {
    return java.util.stream.Stream.concat(java.util.Arrays.stream(a), java.util.Arrays.stream(b))
        .toArray(String[]::new);
  }

  @Test
  void withoutApplyItSaysWhatTheBookingWouldDecide() {
    db.update("UPDATE orders SET status = 'closed' WHERE order_no = ?", ORDER);
    assertThat(repair(false).out()).contains("would book 1 payment of alipay trade " + TRADE)
        .contains("record an anomaly: paid_after_close");
    assertThat(repair(true).out()).contains("with an anomaly to look at: paid_after_close");

    // the order marked paid by this very trade outside paynotify, no payment row: the money is still booked
    db.update("DELETE FROM payments WHERE trade_no = ?", TRADE);
    db.update("DELETE FROM idempotent_keys");
    db.update("UPDATE orders SET status = 'paid', channel = 'alipay', trade_no = ? WHERE order_no = ?", TRADE, ORDER);
    assertThat(repair(false).out()).contains("would book 1 payment of alipay trade " + TRADE)
        .contains("already marked paid by this trade outside paynotify");
    assertThat(repair(true).out()).startsWith("booked 1 payment");
    assertThat(repair(true).out()).startsWith("nothing to do: trade " + TRADE + " already booked");
    assertThat(db.payments(TRADE)).isEqualTo(1);
  }

  /**
   * M3: the merchant refunded the lost payment before it was booked. The dry run says which pending
   * refunds the booking settles and that the site will be told not to deliver; --apply tells it so.
   */
  @Test
  void aPaymentRefundedBeforeItsRepairIsToldNotToFulfil() throws Exception {
    try (TestService service = TestService.start()) {
      assertThat(service.send(ChannelFixture.alipay().refund(ORDER, TRADE, 34911, "RF-REPAIR", 34911, 34911, 0)))
          .matches(ChannelFixture.alipay().success());
    }
    String forwarding = "forward:\n  url: \"http://127.0.0.1:9/hook\"\n  secret: \"fwd_repair-test-0123456789\"\n";
    Cli.Result plan = Cli.runConfigured(forwarding, "repair", "book", "--channel", "alipay", "--bill",
        SampleBills.ALIPAY.toString(), "--trade-no", TRADE);
    assertThat(plan.exit()).as(plan.err()).isZero();
    assertThat(plan.out()).contains("would book 1 payment of alipay trade " + TRADE)
        .contains("pending refund RF-REPAIR 349.11").contains("fulfil: false");
    assertThat(db.payments(TRADE)).isZero();

    Cli.Result apply = Cli.runConfigured(forwarding, "repair", "book", "--channel", "alipay", "--bill",
        SampleBills.ALIPAY.toString(), "--trade-no", TRADE, "--apply", "--unconfirmed");
    assertThat(apply.exit()).as(apply.err()).isZero();
    assertThat(db.orderStatus(ORDER)).isEqualTo("refunded");
    JsonObject data = new JsonObject(db.string("SELECT body FROM forward_events WHERE order_no = ?"
        + " AND type = 'payment.succeeded'", ORDER)).getJsonObject("data");
    assertThat(data.getLong("refunded_cents")).isEqualTo(34911L);
    assertThat(data.getBoolean("fulfil")).isFalse();
  }

  /** Without a refund waiting, the dry run says nothing of refunds. */
  @Test
  void withoutPendingRefundsTheDryRunSaysNothingOfThem() {
    assertThat(repair(false).out()).doesNotContain("refund");
  }

  /**
   * S1: the order was created after the bill's payment (its number handed out again, e.g. after a database
   * restore): the payment is an earlier order's, not this one's. The dry run says so; --apply books nothing and
   * records it.
   */
  @Test
  void aPaymentMadeBeforeItsOrderExistedIsNotBooked() {
    db.update("UPDATE orders SET created_at = NOW() WHERE order_no = ?", ORDER);
    Cli.Result plan = repair(false);
    assertThat(plan.exit()).as(plan.err()).isZero();
    assertThat(plan.out()).contains("would not book").contains("paid_before_order")
        .contains("paid 2026-03-14 15:35:51");

    Cli.Result apply = repair(true);
    assertThat(apply.exit()).isEqualTo(ExitCode.FOUND);
    assertThat(apply.out() + apply.err()).contains("paid_before_order");
    assertThat(db.payments(TRADE)).isZero();
    assertThat(db.orderStatus(ORDER)).isEqualTo("unpaid");
    assertThat(db.string("SELECT detail FROM anomalies WHERE kind = 'paid_before_order' AND order_no = ?", ORDER))
        .contains(TRADE).contains("2026-03-14 15:35:51");
  }

  @Test
  void repairRacingTheLateNotificationBooksOnce() {
    try (TestService service = TestService.start()) {
      var params = AlipayNotifications.payment(ORDER, TRADE, "349.11");
      params.put("app_id", AlipayNotifications.APP_ID);
      String body = AlipayNotifications.signedBody(params);
      for (int round = 0; round < 3; round++) {
        CompletableFuture<Cli.Result> cli = CompletableFuture.supplyAsync(() -> repair(true));
        CompletableFuture<Reply> notification = service.postAlipayAsync(body);
        assertThat(notification.join()).isEqualTo(new Reply(200, "success"));
        assertThat(cli.join().exit()).isZero();
      }
    }
    assertThat(db.payments(TRADE)).isEqualTo(1);
    assertThat(db.orderStatus(ORDER)).isEqualTo("paid");
    assertThat(db.count("SELECT COUNT(*) FROM notify_log WHERE outcome = 'processed'")).isEqualTo(1);
  }

  @Test
  void tradeThatIsNotOnTheBillIsRefused() {
    Cli.Result r = Cli.run("repair", "book", "--channel", "alipay", "--bill", SampleBills.ALIPAY.toString(),
        "--trade-no", "2026000000000000000000000000", "--apply");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("is not a payment row of this bill");
    assertThat(db.count("SELECT COUNT(*) FROM notify_log")).isZero();
  }

  @Test
  void anomaliesCanBeListedAndResolvedOnce() {
    Cli.run("reconcile", "--channel", "alipay", "--bill", SampleBills.ALIPAY.toString(), "--record");
    long open = db.count("SELECT COUNT(*) FROM anomalies");
    assertThat(open).isEqualTo(7 + 1); // the bill's 7 findings and its own order paid twice (not WeChat's)

    Cli.Result list = Cli.run("anomalies", "list", "--open", "--kind", "amount_mismatch");
    assertThat(list.exit()).isZero();
    assertThat(list.out()).contains("2026031422001447057334490365").contains("2 anomalies");
    String id = db.string("SELECT MIN(id) FROM anomalies WHERE kind = 'amount_mismatch'");

    assertThat(Cli.run("anomalies", "resolve", id, "--note", "order amount corrected").out())
        .isEqualTo("anomaly #" + id + " resolved\n");
    assertThat(Cli.run("anomalies", "list", "--open").out()).contains((open - 1) + " anomalies");
    assertThat(Cli.run("anomalies", "list").out()).contains("resolved").contains("order amount corrected");

    Cli.Result again = Cli.run("anomalies", "resolve", id, "--note", "twice");
    assertThat(again.exit()).isEqualTo(1);
    assertThat(again.err()).contains("already resolved");
    assertThat(Cli.run("anomalies", "resolve", "999999", "--note", "x").err()).contains("no anomaly #999999");
  }
}
