package paynotify.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.EpayNotifications;
import paynotify.testsupport.EpayStandIn;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.Notification;
import paynotify.testsupport.PlatformStandIn.Mode;

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

  /**
   * A wait left open beside its booked trade (a booking on another Galera node certified beside the wait's insert):
   * resolved by the periodic check, not left to tell the owner to change the key.
   */
  @Test
  void aWaitWhoseTradeWasBookedElsewhereIsResolvedByThePeriodicCheck() {
    order("C15");
    platform.waiting("C15");
    unconfirmed("C15", trade(15));
    db.update("INSERT INTO payments (channel, trade_no, order_no, amount_cents, paid_at)"
        + " VALUES ('epay', ?, 'C15', 8888, NOW(3))", trade(15));

    assertThat(service.server().bookedWaits().runOnce().await()).isEqualTo(1);

    assertThat(waiting("C15")).startsWith(trade(15) + " 8888 resolved: ");
  }

  /**
   * epay.query_books: the sweeper books from the aggregator's answer as from a signed one, and resolves the wait of the
   * trade it booked then, not the periodic check minutes later (which would tell the owner of a wait for nothing).
   */
  @Test
  void aWaitTheSweepersTrustedAnswerBooksIsResolvedWithTheBooking() {
    service.close();
    service = start(new JsonObject().put("epay", new JsonObject().put("query_books", true)));
    order("C16");
    platform.waiting("C16");
    unconfirmed("C16", trade(16));
    platform.paid("C16", trade(16), "88.88");

    assertThat(service.server().recovery().sweepOnce().await().paid()).isEqualTo(1);

    assertThat(db.orderStatus("C16")).isEqualTo("paid");
    assertThat(db.payments(trade(16))).isEqualTo(1);
    assertThat(waiting("C16")).startsWith(trade(16) + " 8888 resolved: ");
    assertThat(db.string("SELECT resolution_note FROM anomalies WHERE order_no = 'C16'"))
        .isEqualTo("confirmed by its platform's order query, and booked");
    // its notification came: the booking is no evidence of callbacks missing
    assertThat(db.count("SELECT COUNT(*) FROM anomalies WHERE kind <> 'awaiting_confirmation'")).isZero();
  }

  /**
   * The trusted answer books the trade as it says (here another amount: an amount_mismatch), but it contradicts the
   * signed notification that waits: that is what confirm_before_book is for, so the wait stays open for a human, now
   * and at the periodic check, never resolved as confirmed.
   */
  @Test
  void aTrustedAnswerContradictingTheWaitBooksItsOwnAndLeavesTheWaitOpen() {
    service.close();
    service = start(new JsonObject().put("epay", new JsonObject().put("query_books", true)));
    order("C17");
    platform.waiting("C17");
    unconfirmed("C17", trade(17));
    platform.paid("C17", trade(17), "77.77");

    service.server().recovery().sweepOnce().await();
    assertThat(service.server().bookedWaits().runOnce().await()).isZero();

    assertThat(db.string("SELECT CONCAT(order_no, ' ', amount_cents) FROM payments")).isEqualTo("C17 7777");
    assertThat(db.orderStatus("C17")).isEqualTo("unpaid");
    assertThat(waiting("C17")).startsWith(trade(17) + " 8888 open: ");
    assertThat(db.column("SELECT kind FROM anomalies WHERE resolved_at IS NULL ORDER BY kind"))
        .containsExactly("amount_mismatch", "awaiting_confirmation");
  }

  /** recovery.timeout_ms 5 s, beyond http.request_timeout_ms 3 s. */
  void restartWithAQuestionLongerThanARequest() {
    service.close();
    service = start(new JsonObject().put("http", new JsonObject().put("request_timeout_ms", 3000))
        .put("recovery", new JsonObject().put("timeout_ms", 5000)));
  }

  /** An aggregator that hangs: its question is cut below http.request_timeout_ms, the wait recorded before replying. */
  @Test
  void theAggregatorHangingTheWaitIsRecordedBeforeTheRequestTimesOut() {
    restartWithAQuestionLongerThanARequest();
    order("C16");
    platform.paid("C16", trade(16), "88.88");
    platform.mode(Mode.SLOW);

    assertThat(unconfirmed("C16", trade(16))).contains("did not confirm trade " + trade(16) + " within 2000 ms");
  }

  /** A redelivery of a payment booked here is the repeat it is, without asking an aggregator that hangs. */
  @Test
  void aBookedPaymentRedeliveredWhileTheAggregatorHangsIsADuplicateNotAskedAbout() {
    restartWithAQuestionLongerThanARequest();
    order("C17");
    platform.paid("C17", trade(17), "88.88");
    assertThat(service.send(paid("C17", trade(17), "88.88"))).isEqualTo(success());
    platform.mode(Mode.SLOW);

    long start = System.nanoTime();
    assertThat(service.send(paid("C17", trade(17), "88.88"))).isEqualTo(success());

    assertThat(Duration.ofNanos(System.nanoTime() - start)).as("answered without asking").isLessThan(
        Duration.ofMillis(1500));
    service.awaitLogRecorded();
    assertThat(db.outcomes("epay:pay:" + trade(17))).isEqualTo("processed,duplicate");
  }

  /** Signed notifications beyond recovery.max_confirmations_per_minute are not asked about: they wait, saying so. */
  @Test
  void beyondTheConfirmationBudgetNothingIsAskedAndItWaits() {
    service.close();
    service = start(new JsonObject().put("recovery", new JsonObject().put("max_confirmations_per_minute", 1)));
    order("C18");
    order("C19");
    platform.paid("C18", trade(18), "88.88");
    platform.paid("C19", trade(19), "88.88");
    assertThat(service.send(paid("C18", trade(18), "88.88"))).isEqualTo(success());

    assertThat(service.send(paid("C19", trade(19), "88.88"))).isNotEqualTo(success());

    assertThat(platform.queries("C19")).isZero();
    assertThat(db.payments(trade(19))).isZero();
    assertThat(waiting("C19")).startsWith(trade(19) + " 8888 open: ").contains("not asked")
        .contains("recovery.max_confirmations_per_minute");
  }

  /** The sweeper's "paid" for a payment made before its order was created books nothing: the wait stays open. */
  @Test
  void aConfirmedPaymentMadeBeforeItsOrderLeavesTheWaitOpen() {
    order("C20");
    platform.waiting("C20");
    unconfirmed("C20", trade(20));
    platform.paid("C20", trade(20), "88.88");
    platform.paidAt("C20", LocalDateTime.now(ZoneOffset.ofHours(8)).minusHours(1));

    assertThat(service.server().recovery().sweepOnce().await().paid()).isZero();

    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    assertThat(waiting("C20")).startsWith(trade(20) + " 8888 open: ");
    assertThat(db.count("SELECT COUNT(*) FROM anomalies WHERE kind = 'paid_before_order'")).isEqualTo(1);
  }

  /** With confirm_before_book off, an open wait (kept from when it was on) books nothing: no wait is looked for. */
  @Test
  void withTheFlagOffTheSweepersPaidIsAnAnomalyWhateverWaits() {
    order("C21");
    platform.waiting("C21");
    unconfirmed("C21", trade(21));
    service.close();
    service = start(new JsonObject().put("epay", new JsonObject().put("confirm_before_book", false)));
    platform.paid("C21", trade(21), "88.88");

    assertThat(service.server().recovery().sweepOnce().await().paid()).isZero();

    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    assertThat(db.count("SELECT COUNT(*) FROM anomalies WHERE kind = 'query_says_paid'")).isEqualTo(1);
  }
}
