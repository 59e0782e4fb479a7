package paynotify.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.Notification;
import paynotify.testsupport.PlatformStandIn;
import paynotify.testsupport.PlatformStandIn.Mode;
import paynotify.testsupport.TestService;

/**
 * {@code <section>.confirm_before_book}, whatever the channel: a signed "paid" books only once the platform's order
 * query (its stand-in, over real HTTP) says paid for that trade, order and amount too; until then it is answered
 * failure, nothing is booked, and an awaiting_confirmation anomaly keeps it for the sweeper, whose confirming answer
 * books it exactly once. Each channel's test says how its notifications, trades and answers are written.
 */
abstract class ConfirmBeforeBookTestBase<S extends PlatformStandIn> extends DatabaseTestBase {
  private static final Reply FAIL = new Reply(503, "fail");

  S platform;
  TestService service;

  /** The platform's stand-in, started. */
  abstract S startPlatform();

  /** The channel's configuration section (and the value of the orders' channel column). */
  abstract String section();

  /** Its success reply. */
  abstract Reply success();

  /** Trade {@code n} of a test, as the platform writes its trade ids. */
  abstract String trade(int n);

  /** The order's payment of {@code amount} (as the platform writes it) by {@code tradeNo}, signed. */
  abstract Notification paid(String orderNo, String tradeNo, String amount);

  /** At the platform, the order's trade {@code tradeNo} exists, unpaid; {@link #pendingWord()} says it so. */
  abstract void pending(String orderNo, String tradeNo);

  /** What the platform's query says of an unpaid trade. */
  abstract String pendingWord();

  /** What the platform's query says of a paid one. */
  abstract String paidWord();

  @BeforeEach
  void start() {
    platform = startPlatform();
    service = start(new JsonObject());
  }

  /** The service with confirm_before_book, and {@code overrides} over its configuration. */
  TestService start(JsonObject overrides) {
    JsonObject config = platform.configure(TestService.configuration(new JsonObject()));
    config.getJsonObject(section()).put("confirm_before_book", true);
    return TestService.start(db.settings(), config.put("recovery", new JsonObject().put("enabled", true)
        .put("interval_seconds", 3600).put("min_age_seconds", 60).put("timeout_ms", 1000)).mergeIn(overrides, true));
  }

  @AfterEach
  void stop() {
    service.close();
    platform.close();
  }

  /** An order of 88.88 made five minutes ago: due for the sweeper. */
  void order(String orderNo) {
    db.update("INSERT INTO orders (order_no, amount_cents, channel, created_at) VALUES (?, 8888, ?,"
        + " CONVERT_TZ(NOW(3), @@session.time_zone, '+08:00') - INTERVAL 300 SECOND)", orderNo, section());
  }

  String key(String tradeNo) {
    return section() + ":pay:" + tradeNo;
  }

  /**
   * The order's signed payment of 88.88 by {@code tradeNo}, not confirmed: answered failure, nothing booked, the
   * order unpaid. Its wait, as {@link #waiting} reads it.
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
    platform.paid("C1", trade(1), "88.88");

    assertThat(service.send(paid("C1", trade(1), "88.88"))).isEqualTo(success());

    assertThat(platform.queries("C1")).isEqualTo(1);
    assertThat(db.orderStatus("C1")).isEqualTo("paid");
    assertThat(db.payments(trade(1))).isEqualTo(1);
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
  }

  @Test
  void unpaidAtThePlatformNothingIsBookedAndItWaits() {
    order("C2");
    pending("C2", trade(2));

    assertThat(unconfirmed("C2", trade(2))).startsWith(trade(2) + " 8888 open: ")
        .contains("does not confirm the signed notification").contains(pendingWord())
        .contains("confirm_before_book").contains("merchant panel");
    service.awaitLogRecorded();
    assertThat(db.outcomes(key(trade(2)))).isEqualTo("anomaly");
  }

  @Test
  void paidForAnotherAmountNothingIsBookedAndTheAnomalySaysSo() {
    order("C3");
    platform.paid("C3", trade(3), "0.01");

    assertThat(unconfirmed("C3", trade(3))).contains(paidWord() + ", trade " + trade(3) + ", 0.01");
  }

  @Test
  void thePlatformDownNothingIsBooked() {
    order("C5");
    platform.paid("C5", trade(5), "88.88");
    platform.mode(Mode.DOWN);

    assertThat(unconfirmed("C5", trade(5))).contains("could not confirm trade " + trade(5));
  }

  @Test
  void thePlatformTooSlowNothingIsBooked() {
    order("C13");
    platform.paid("C13", trade(13), "88.88");
    platform.mode(Mode.SLOW); // beyond recovery.timeout_ms, within http.request_timeout_ms

    assertThat(unconfirmed("C13", trade(13))).contains("could not confirm trade " + trade(13));
  }

  @Test
  void waitingThenPaidTheSweeperBooksItOnceAndTheRedeliveryIsARepeat() {
    order("C6");
    pending("C6", trade(6));
    unconfirmed("C6", trade(6));
    platform.paid("C6", trade(6), "88.88");

    assertThat(service.server().recovery().sweepOnce().await().paid()).isEqualTo(1);

    assertThat(db.orderStatus("C6")).isEqualTo("paid");
    assertThat(db.payments(trade(6))).isEqualTo(1);
    assertThat(waiting("C6")).startsWith(trade(6) + " 8888 resolved: ");
    // the notification came: no callback_missing; two pieces of evidence: no query_says_paid
    assertThat(db.count("SELECT COUNT(*) FROM anomalies WHERE kind <> 'awaiting_confirmation'")).isZero();

    assertThat(service.send(paid("C6", trade(6), "88.88"))).isEqualTo(success());
    service.awaitLogRecorded();
    assertThat(db.outcomes(key(trade(6)))).isEqualTo("anomaly,processed,duplicate");
    assertThat(db.payments(trade(6))).isEqualTo(1);
  }

  @Test
  void waitingThenTheRedeliveryConfirmedBooksItAndResolvesTheWait() {
    order("C7");
    platform.mode(Mode.DOWN);
    unconfirmed("C7", trade(7));
    platform.mode(Mode.NORMAL);
    platform.paid("C7", trade(7), "88.88");

    assertThat(service.send(paid("C7", trade(7), "88.88"))).isEqualTo(success());

    assertThat(db.payments(trade(7))).isEqualTo(1);
    assertThat(waiting("C7")).startsWith(trade(7) + " 8888 resolved: ");
    // asked again, the order is paid: nothing more to ask about, nothing booked twice
    service.server().recovery().sweepOnce().await();
    assertThat(db.payments(trade(7))).isEqualTo(1);
  }

  /** A redelivery of a booked payment while the platform is down is the repeat it is, not a new wait. */
  @Test
  void aBookedPaymentRedeliveredWhileThePlatformIsDownIsADuplicate() {
    order("C8");
    platform.paid("C8", trade(8), "88.88");
    assertThat(service.send(paid("C8", trade(8), "88.88"))).isEqualTo(success());
    platform.mode(Mode.DOWN);

    assertThat(service.send(paid("C8", trade(8), "88.88"))).isEqualTo(success());

    service.awaitLogRecorded();
    assertThat(db.outcomes(key(trade(8)))).isEqualTo("processed,duplicate");
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
  }

  /** The sweeper's unsigned "paid" for another amount than the signed notification said: booked by neither. */
  @Test
  void theSweepersPaidForAnotherAmountThanTheWaitingNotificationBooksNothing() {
    order("C9");
    pending("C9", trade(9));
    unconfirmed("C9", trade(9));
    platform.paid("C9", trade(9), "8.88");

    assertThat(service.server().recovery().sweepOnce().await().paid()).isZero();

    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    assertThat(waiting("C9")).startsWith(trade(9) + " 8888 open: ");
    assertThat(db.string("SELECT detail FROM anomalies WHERE kind = 'query_says_paid'"))
        .contains("where its signed notification said order C9, 88.88");
  }

  /** Another site's number (orders.out_trade_no): its not_our_number anomaly, as without confirmation; nothing asked. */
  @Test
  void anotherSitesNumberIsNotAskedAbout() {
    service.close();
    service = start(new JsonObject().put("orders", new JsonObject().put("out_trade_no", "{order_no}-pay")));
    platform.paid("C14", trade(14), "88.88");

    assertThat(service.send(paid("C14", trade(14), "88.88"))).isEqualTo(success());

    assertThat(platform.queries("C14")).isZero();
    assertThat(db.string("SELECT GROUP_CONCAT(kind) FROM anomalies")).isEqualTo("not_our_number");
  }

  @Test
  void twentyFourConcurrentCopiesUnconfirmedBookNothingAndWaitOnce() {
    order("C12");
    pending("C12", trade(12));

    List<CompletableFuture<Reply>> copies = IntStream.range(0, 24)
        .mapToObj(i -> service.sendAsync(paid("C12", trade(12), "88.88"))).toList();

    assertThat(copies.stream().map(CompletableFuture::join).distinct().toList()).containsExactly(FAIL);
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isEqualTo(1);
    assertThat(waiting("C12")).startsWith(trade(12) + " 8888 open: ");
  }

  @Test
  void twentyFourConcurrentCopiesBookOnce() {
    order("C11");
    platform.paid("C11", trade(11), "88.88");

    List<CompletableFuture<Reply>> copies = IntStream.range(0, 24)
        .mapToObj(i -> service.sendAsync(paid("C11", trade(11), "88.88"))).toList();

    assertThat(copies.stream().map(CompletableFuture::join).distinct().toList()).containsExactly(success());
    assertThat(db.payments(trade(11))).isEqualTo(1);
    service.awaitLogRecorded();
    assertThat(db.count("SELECT COUNT(*) FROM notify_log WHERE idem_key = ? AND outcome = 'processed'",
        key(trade(11)))).isEqualTo(1);
    assertThat(db.count("SELECT COUNT(*) FROM notify_log WHERE idem_key = ? AND outcome = 'duplicate'",
        key(trade(11)))).isEqualTo(23);
  }
}
