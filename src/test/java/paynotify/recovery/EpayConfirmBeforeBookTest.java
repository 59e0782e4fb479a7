package paynotify.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.EpayNotifications;
import paynotify.testsupport.EpayStandIn;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.Notification;
import paynotify.testsupport.PlatformStandIn.Mode;
import paynotify.testsupport.TestService;

/**
 * epay.confirm_before_book: a signed "paid" books only once the aggregator's order query (the stand-in, over real
 * HTTP) says paid for that trade and amount too; until then it is answered "fail", nothing is booked, and an
 * awaiting_confirmation anomaly keeps it for the sweeper, whose confirming answer books it exactly once.
 */
class EpayConfirmBeforeBookTest extends DatabaseTestBase {
  private static final Reply SUCCESS = new Reply(200, "success");
  private static final Reply FAIL = new Reply(503, "fail");

  EpayStandIn epay;
  TestService service;

  @BeforeEach
  void start() {
    epay = EpayStandIn.start();
    service = start(new JsonObject());
  }

  /** The service with confirm_before_book, and {@code overrides} over its configuration. */
  TestService start(JsonObject overrides) {
    JsonObject config = epay.configure(TestService.configuration(new JsonObject()));
    config.getJsonObject("epay").put("confirm_before_book", true);
    return TestService.start(db.settings(), config.put("recovery", new JsonObject().put("enabled", true)
        .put("interval_seconds", 3600).put("min_age_seconds", 60).put("timeout_ms", 1000)).mergeIn(overrides, true));
  }

  @AfterEach
  void stop() {
    service.close();
    epay.close();
  }

  /** An order of 88.88 made five minutes ago: due for the sweeper. */
  void order(String orderNo) {
    db.update("INSERT INTO orders (order_no, amount_cents, channel, created_at) VALUES (?, 8888, 'epay',"
        + " CONVERT_TZ(NOW(3), @@session.time_zone, '+08:00') - INTERVAL 300 SECOND)", orderNo);
  }

  static Notification paid(String orderNo, String tradeNo, String money) {
    return EpayNotifications.get(EpayNotifications.signed(EpayNotifications.payment(orderNo, tradeNo, money),
        EpayNotifications.KEY));
  }

  /**
   * The order's signed payment of 88.88 by {@code tradeNo}, not confirmed: answered "fail", nothing booked, the order
   * unpaid. Its wait, as {@link #waiting} reads it.
   */
  String unconfirmed(String orderNo, String tradeNo) {
    assertThat(service.send(paid(orderNo, tradeNo, "88.88"))).isEqualTo(FAIL);
    assertThat(db.orderStatus(orderNo)).isEqualTo("unpaid");
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    return waiting(orderNo);
  }

  String waiting(String orderNo) {
    return db.string("SELECT CONCAT(trade_no, ' ', amount_cents, ' ', IF(resolved_at IS NULL, 'open', 'resolved'),"
        + " ': ', detail) FROM anomalies WHERE kind = 'awaiting_confirmation' AND order_no = ?", orderNo);
  }

  @Test
  void confirmedByTheQueryItIsBookedOnce() {
    order("C1");
    epay.paid("C1", "2026120600000100001", "88.88");

    assertThat(service.send(paid("C1", "2026120600000100001", "88.88"))).isEqualTo(SUCCESS);

    assertThat(epay.queries("C1")).isEqualTo(1);
    assertThat(db.orderStatus("C1")).isEqualTo("paid");
    assertThat(db.payments("2026120600000100001")).isEqualTo(1);
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
  }

  @Test
  void unpaidAtTheAggregatorNothingIsBookedAndItWaits() {
    order("C2");
    epay.waiting("C2");

    assertThat(unconfirmed("C2", "2026120600000100002")).startsWith("2026120600000100002 8888 open: ")
        .contains("does not confirm the signed notification").contains("status=0")
        .contains("confirm_before_book").contains("merchant panel");
    service.awaitLogRecorded();
    assertThat(db.outcomes("epay:pay:2026120600000100002")).isEqualTo("anomaly");
  }

  @Test
  void paidForAnotherAmountNothingIsBookedAndTheAnomalySaysSo() {
    order("C3");
    epay.paid("C3", "2026120600000100003", "0.01");

    assertThat(unconfirmed("C3", "2026120600000100003")).contains("TRADE_SUCCESS, trade 2026120600000100003, 0.01");
  }

  @Test
  void paidByAnotherTradeNothingIsBooked() {
    order("C4");
    epay.paid("C4", "2026120600000100099", "88.88");

    assertThat(unconfirmed("C4", "2026120600000100004")).startsWith("2026120600000100004 8888 open: ").contains("trade 2026120600000100099");
  }

  @Test
  void theAggregatorDownNothingIsBooked() {
    order("C5");
    epay.paid("C5", "2026120600000100005", "88.88");
    epay.mode(Mode.DOWN);

    assertThat(unconfirmed("C5", "2026120600000100005")).contains("could not confirm trade 2026120600000100005");
  }

  @Test
  void theAggregatorTooSlowNothingIsBooked() {
    order("C13");
    epay.paid("C13", "2026120600000100013", "88.88");
    epay.mode(Mode.SLOW); // beyond recovery.timeout_ms, within http.request_timeout_ms

    assertThat(unconfirmed("C13", "2026120600000100013")).contains("could not confirm trade 2026120600000100013");
  }

  @Test
  void waitingThenPaidTheSweeperBooksItOnceAndTheRedeliveryIsARepeat() {
    order("C6");
    epay.waiting("C6");
    unconfirmed("C6", "2026120600000100006");
    epay.paid("C6", "2026120600000100006", "88.88");

    assertThat(service.server().recovery().sweepOnce().await().paid()).isEqualTo(1);

    assertThat(db.orderStatus("C6")).isEqualTo("paid");
    assertThat(db.payments("2026120600000100006")).isEqualTo(1);
    assertThat(waiting("C6")).startsWith("2026120600000100006 8888 resolved: ");
    // the notification came: no callback_missing; two pieces of evidence: no query_says_paid
    assertThat(db.count("SELECT COUNT(*) FROM anomalies WHERE kind <> 'awaiting_confirmation'")).isZero();

    assertThat(service.send(paid("C6", "2026120600000100006", "88.88"))).isEqualTo(SUCCESS);
    service.awaitLogRecorded();
    assertThat(db.outcomes("epay:pay:2026120600000100006")).isEqualTo("anomaly,processed,duplicate");
    assertThat(db.payments("2026120600000100006")).isEqualTo(1);
  }

  @Test
  void waitingThenTheRedeliveryConfirmedBooksItAndResolvesTheWait() {
    order("C7");
    epay.mode(Mode.DOWN);
    unconfirmed("C7", "2026120600000100007");
    epay.mode(Mode.NORMAL);
    epay.paid("C7", "2026120600000100007", "88.88");

    assertThat(service.send(paid("C7", "2026120600000100007", "88.88"))).isEqualTo(SUCCESS);

    assertThat(db.payments("2026120600000100007")).isEqualTo(1);
    assertThat(waiting("C7")).startsWith("2026120600000100007 8888 resolved: ");
    // asked again, the order is paid: nothing more to ask about, nothing booked twice
    service.server().recovery().sweepOnce().await();
    assertThat(db.payments("2026120600000100007")).isEqualTo(1);
  }

  /** A redelivery of a booked payment while the aggregator is down is the repeat it is, not a new wait. */
  @Test
  void aBookedPaymentRedeliveredWhileTheAggregatorIsDownIsADuplicate() {
    order("C8");
    epay.paid("C8", "2026120600000100008", "88.88");
    assertThat(service.send(paid("C8", "2026120600000100008", "88.88"))).isEqualTo(SUCCESS);
    epay.mode(Mode.DOWN);

    assertThat(service.send(paid("C8", "2026120600000100008", "88.88"))).isEqualTo(SUCCESS);

    service.awaitLogRecorded();
    assertThat(db.outcomes("epay:pay:2026120600000100008")).isEqualTo("processed,duplicate");
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
  }

  /** The sweeper's unsigned "paid" for another amount than the signed notification said: booked by neither. */
  @Test
  void theSweepersPaidForAnotherAmountThanTheWaitingNotificationBooksNothing() {
    order("C9");
    epay.waiting("C9");
    unconfirmed("C9", "2026120600000100009");
    epay.paid("C9", "2026120600000100009", "8.88");

    assertThat(service.server().recovery().sweepOnce().await().paid()).isZero();

    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    assertThat(waiting("C9")).startsWith("2026120600000100009 8888 open: ");
    assertThat(db.string("SELECT detail FROM anomalies WHERE kind = 'query_says_paid'"))
        .contains("where its signed notification said order C9, 88.88");
  }

  /** Without a signed notification, the sweeper's unsigned "paid" is what it always was: an anomaly to check. */
  @Test
  void aPaidAnswerWithoutANotificationStaysAnAnomaly() {
    order("C10");
    epay.paid("C10", "2026120600000100010", "88.88");

    assertThat(service.server().recovery().sweepOnce().await().paid()).isZero();

    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    assertThat(db.count("SELECT COUNT(*) FROM anomalies WHERE kind = 'query_says_paid'")).isEqualTo(1);
  }

  /** Another site's number (orders.out_trade_no): its not_our_number anomaly, as without confirmation; nothing asked. */
  @Test
  void anotherSitesNumberIsNotAskedAbout() {
    service.close();
    service = start(new JsonObject().put("orders", new JsonObject().put("out_trade_no", "{order_no}-pay")));

    assertThat(service.send(paid("C14", "2026120600000100014", "88.88"))).isEqualTo(SUCCESS);

    assertThat(epay.queries("C14")).isZero();
    assertThat(db.string("SELECT GROUP_CONCAT(kind) FROM anomalies")).isEqualTo("not_our_number");
  }

  @Test
  void twentyFourConcurrentCopiesUnconfirmedBookNothingAndWaitOnce() {
    order("C12");
    epay.waiting("C12");

    List<CompletableFuture<Reply>> copies = IntStream.range(0, 24)
        .mapToObj(i -> service.sendAsync(paid("C12", "2026120600000100012", "88.88"))).toList();

    assertThat(copies.stream().map(CompletableFuture::join).distinct().toList()).containsExactly(FAIL);
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isEqualTo(1);
    assertThat(waiting("C12")).startsWith("2026120600000100012 8888 open: ");
  }

  @Test
  void twentyFourConcurrentCopiesBookOnce() {
    order("C11");
    epay.paid("C11", "2026120600000100011", "88.88");

    List<CompletableFuture<Reply>> copies = IntStream.range(0, 24)
        .mapToObj(i -> service.sendAsync(paid("C11", "2026120600000100011", "88.88"))).toList();

    assertThat(copies.stream().map(CompletableFuture::join).distinct().toList()).containsExactly(SUCCESS);
    assertThat(db.payments("2026120600000100011")).isEqualTo(1);
    service.awaitLogRecorded();
    assertThat(db.count("SELECT COUNT(*) FROM notify_log WHERE idem_key = ? AND outcome = 'processed'",
        "epay:pay:2026120600000100011")).isEqualTo(1);
    assertThat(db.count("SELECT COUNT(*) FROM notify_log WHERE idem_key = ? AND outcome = 'duplicate'",
        "epay:pay:2026120600000100011")).isEqualTo(23);
  }

  /**
   * A wait left open beside its booked trade (a booking on another Galera node certified beside the wait's insert, or
   * the sweeper's signed answer): resolved by the periodic check, not left to tell the owner to change the key.
   */
  @Test
  void aWaitWhoseTradeWasBookedElsewhereIsResolvedByThePeriodicCheck() {
    order("C15");
    epay.waiting("C15");
    unconfirmed("C15", "2026120600000100015");
    db.update("INSERT INTO payments (channel, trade_no, order_no, amount_cents, paid_at)"
        + " VALUES ('epay', ?, 'C15', 8888, NOW(3))", "2026120600000100015");

    service.server().orderlessPayments().runOnce().await();

    assertThat(waiting("C15")).startsWith("2026120600000100015 8888 resolved: ");
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
    epay.paid("C16", "2026120600000100016", "88.88");
    epay.mode(Mode.SLOW);

    assertThat(unconfirmed("C16", "2026120600000100016")).contains("did not confirm trade 2026120600000100016 within"
        + " 2000 ms");
  }

  /** A redelivery of a payment booked here is the repeat it is, without asking an aggregator that hangs. */
  @Test
  void aBookedPaymentRedeliveredWhileTheAggregatorHangsIsADuplicateNotAskedAbout() {
    restartWithAQuestionLongerThanARequest();
    order("C17");
    epay.paid("C17", "2026120600000100017", "88.88");
    assertThat(service.send(paid("C17", "2026120600000100017", "88.88"))).isEqualTo(SUCCESS);
    epay.mode(Mode.SLOW);

    long start = System.nanoTime();
    assertThat(service.send(paid("C17", "2026120600000100017", "88.88"))).isEqualTo(SUCCESS);

    assertThat(Duration.ofNanos(System.nanoTime() - start)).as("answered without asking").isLessThan(
        Duration.ofMillis(1500));
    service.awaitLogRecorded();
    assertThat(db.outcomes("epay:pay:2026120600000100017")).isEqualTo("processed,duplicate");
  }

  /** Signed notifications beyond recovery.max_confirmations_per_minute are not asked about: they wait, saying so. */
  @Test
  void beyondTheConfirmationBudgetNothingIsAskedAndItWaits() {
    service.close();
    service = start(new JsonObject().put("recovery", new JsonObject().put("max_confirmations_per_minute", 1)));
    order("C18");
    order("C19");
    epay.paid("C18", "2026120600000100018", "88.88");
    epay.paid("C19", "2026120600000100019", "88.88");
    assertThat(service.send(paid("C18", "2026120600000100018", "88.88"))).isEqualTo(SUCCESS);

    assertThat(service.send(paid("C19", "2026120600000100019", "88.88"))).isEqualTo(FAIL);

    assertThat(epay.queries("C19")).isZero();
    assertThat(db.payments("2026120600000100019")).isZero();
    assertThat(waiting("C19")).startsWith("2026120600000100019 8888 open: ").contains("not asked")
        .contains("recovery.max_confirmations_per_minute");
  }

  /** The sweeper's "paid" for a payment made before its order was created books nothing: the wait stays open. */
  @Test
  void aConfirmedPaymentMadeBeforeItsOrderLeavesTheWaitOpen() {
    order("C20");
    epay.waiting("C20");
    unconfirmed("C20", "2026120600000100020");
    epay.paid("C20", "2026120600000100020", "88.88");
    epay.paidAt("C20", LocalDateTime.now(ZoneOffset.ofHours(8)).minusHours(1));

    assertThat(service.server().recovery().sweepOnce().await().paid()).isZero();

    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    assertThat(waiting("C20")).startsWith("2026120600000100020 8888 open: ");
    assertThat(db.count("SELECT COUNT(*) FROM anomalies WHERE kind = 'paid_before_order'")).isEqualTo(1);
  }

  /** With confirm_before_book off, an open wait (kept from when it was on) books nothing: no wait is looked for. */
  @Test
  void withTheFlagOffTheSweepersPaidIsAnAnomalyWhateverWaits() {
    order("C21");
    epay.waiting("C21");
    unconfirmed("C21", "2026120600000100021");
    service.close();
    service = start(new JsonObject().put("epay", new JsonObject().put("confirm_before_book", false)));
    epay.paid("C21", "2026120600000100021", "88.88");

    assertThat(service.server().recovery().sweepOnce().await().paid()).isZero();

    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    assertThat(db.count("SELECT COUNT(*) FROM anomalies WHERE kind = 'query_says_paid'")).isEqualTo(1);
  }
}
