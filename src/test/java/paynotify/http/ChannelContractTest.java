package paynotify.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import paynotify.channel.RejectedNotification.Reason;
import paynotify.testsupport.ChannelFixture;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.Http;
import paynotify.testsupport.Notification;
import paynotify.testsupport.ServiceTestBase;
import paynotify.testsupport.TestService;

/**
 * The same guarantees on every channel: each channel only parses and verifies, and the one
 * booking transaction does the rest. A channel's own rules are tested beside it.
 */
class ChannelContractTest extends ServiceTestBase {

  static Stream<ChannelFixture> channels() {
    return ChannelFixture.all().stream();
  }

  static Stream<ChannelFixture> channelsNamingTheMerchant() {
    return channels().filter(ChannelFixture::namesMerchant);
  }

  static Stream<ChannelFixture> channelsCarryingASignature() {
    return channels().filter(ChannelFixture::carriesSignature);
  }

  static Stream<ChannelFixture> channelsNotifyingOtherStatuses() {
    return channels().filter(ChannelFixture::notifiesOtherStatuses);
  }

  static Stream<ChannelFixture> channelsNamingTheCurrency() {
    return channels().filter(ChannelFixture::namesCurrency);
  }

  static Stream<ChannelFixture> channelsSigningATimestamp() {
    return channels().filter(ChannelFixture::signsATimestamp);
  }

  static Stream<ChannelFixture> channelsMarkingTestMoney() {
    return channels().filter(ChannelFixture::marksTestMoney);
  }

  static Stream<ChannelFixture> channelsSigningTwiceWhileRotating() {
    return channels().filter(ChannelFixture::signsTwiceWhileRotating);
  }

  static Stream<ChannelFixture> channelsNotifyingCumulativeRefunds() {
    return channels().filter(ChannelFixture::notifiesCumulativeRefunds);
  }

  // The same notification delivered again, as is or re-signed as real retries are.
  @ParameterizedTest(name = "{0}")
  @MethodSource("channels")
  void firstDeliveryBooksAndTheSameOrARetryIsADuplicate(ChannelFixture ch) throws Exception {
    db.insertOrder("C1", 8888);
    Notification first = ch.payment("C1", "T-C1", 8888, 0);
    assertThat(service.send(first)).matches(ch.success());
    assertThat(service.send(first)).matches(ch.success());
    assertThat(service.send(ch.payment("C1", "T-C1", 8888, 1))).matches(ch.success());

    assertThat(db.payments("T-C1")).isEqualTo(1);
    assertThat(db.string("SELECT CONCAT(channel, ' ', order_no, ' ', amount_cents) FROM payments"))
        .isEqualTo(ch.platform() + " C1 8888");
    assertThat(db.string("SELECT CONCAT(status, ' ', channel, ' ', trade_no) FROM orders WHERE order_no = 'C1'"))
        .isEqualTo("paid " + ch.platform() + " T-C1");
    assertThat(db.outcomes(ch.platform() + ":pay:T-C1")).isEqualTo("processed,duplicate,duplicate");
  }

  // 20+ concurrent copies.
  @ParameterizedTest(name = "{0}")
  @MethodSource("channels")
  void concurrentCopiesBookOnce(ChannelFixture ch) throws Exception {
    assertCopiesBookOnce(ch, service);
  }

  // Every guarantee lives in the database: a restart or a second instance changes nothing.
  @ParameterizedTest(name = "{0}")
  @MethodSource("channels")
  void bookedBeforeARestartIsADuplicateAfterIt(ChannelFixture ch) throws Exception {
    db.insertOrder("C3", 500);
    try (TestService before = TestService.start()) {
      assertThat(before.send(ch.payment("C3", "T-C3", 500, 0))).matches(ch.success());
    }
    try (TestService after = TestService.start()) {
      assertThat(after.send(ch.payment("C3", "T-C3", 500, 1))).matches(ch.success());
    }
    assertThat(db.payments("T-C3")).isEqualTo(1);
    assertThat(db.outcomes(ch.platform() + ":pay:T-C3")).isEqualTo("processed,duplicate");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("channels")
  void twoInstancesOnOneDatabaseBookOnce(ChannelFixture ch) throws Exception {
    try (TestService a = TestService.start(); TestService b = TestService.start()) {
      assertThat(a.port()).isNotEqualTo(b.port());
      assertCopiesBookOnce(ch, a, b);
    }
  }

  // Real money that does not fit the order: booked, anomaly recorded, acknowledged.
  @ParameterizedTest(name = "{0}")
  @MethodSource("channels")
  void amountMismatchIsBookedAsAnomalyAndOrderStaysUnpaid(ChannelFixture ch) throws Exception {
    db.insertOrder("C7", 10000);
    assertThat(service.send(ch.payment("C7", "T-C7", 100, 0))).matches(ch.success());

    assertThat(db.orderStatus("C7")).isEqualTo("unpaid");
    if (ch.keepsAPaymentOfAnotherAmount()) {
      assertBookedWithAnomaly(ch, "T-C7", "amount_mismatch", "anomaly");
    } else { // no payment kept: its trade stays free for the real payment of the order
      assertThat(db.payments("T-C7")).isZero();
      assertThat(anomalyKinds("T-C7")).isEqualTo("price_shift");
      assertThat(service.send(ch.payment("C7", "T-C7", 10000, 1))).matches(ch.success());
      assertThat(db.orderStatus("C7")).isEqualTo("paid");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("channels")
  void unknownOrderIsBookedAsAnomaly(ChannelFixture ch) throws Exception {
    assertThat(service.send(ch.payment("NO-SUCH", "T-C7u", 500, 0))).matches(ch.success());
    if (ch.keepsAPaymentOfAnotherAmount()) {
      assertBookedWithAnomaly(ch, "T-C7u", "unknown_order", "anomaly");
    } else { // no order, no amount of its own: nothing kept, as for another amount
      assertThat(db.payments("T-C7u")).isZero();
      assertThat(anomalyKinds("T-C7u")).isEqualTo("unknown_order");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("channels")
  void secondPaymentOfAPaidOrderIsAnAnomaly(ChannelFixture ch) throws Exception {
    db.insertOrder("C7s", 500);
    assertThat(service.send(ch.payment("C7s", "T-C7s-1", 500, 0))).matches(ch.success());
    assertThat(service.send(ch.payment("C7s", "T-C7s-2", 500, 0))).matches(ch.success());

    assertThat(db.count("SELECT COUNT(*) FROM payments WHERE order_no = 'C7s'")).isEqualTo(2);
    assertThat(db.string("SELECT trade_no FROM orders WHERE order_no = 'C7s'")).isEqualTo("T-C7s-1");
    assertThat(anomalyKinds("T-C7s-2")).isEqualTo("second_payment");
    assertThat(anomalyKinds("T-C7s-1")).isNull();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("channels")
  void paymentAfterCloseIsAnAnomaly(ChannelFixture ch) throws Exception {
    db.insertOrder("C7c", 500);
    db.update("UPDATE orders SET status = 'closed' WHERE order_no = 'C7c'");
    assertThat(service.send(ch.payment("C7c", "T-C7c", 500, 0))).matches(ch.success());
    assertThat(db.orderStatus("C7c")).isEqualTo("closed");
    assertBookedWithAnomaly(ch, "T-C7c", "paid_after_close", "anomaly");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("channels")
  void anomalyIsRecordedOnceHoweverOftenItIsDelivered(ChannelFixture ch) throws Exception {
    db.insertOrder("C7d", 10000);
    for (int i = 0; i < 3; i++) {
      assertThat(service.send(ch.payment("C7d", "T-C7d", 100, i))).matches(ch.success());
    }
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isEqualTo(1);
    assertThat(db.outcomes(ch.platform() + ":pay:T-C7d")).isEqualTo(ch.keepsAPaymentOfAnotherAmount()
        ? "anomaly,duplicate,duplicate" : "anomaly,anomaly,anomaly"); // no payment kept: nothing to duplicate
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("channels")
  void sameTradeWithOtherAmountIsAConflictNotASecondBooking(ChannelFixture ch) throws Exception {
    db.insertOrder("C7k", 500);
    assertThat(service.send(ch.payment("C7k", "T-C7k", 500, 0))).matches(ch.success());
    assertThat(service.send(ch.payment("C7k", "T-C7k", 600, 1))).matches(ch.success());

    assertThat(db.string("SELECT amount_cents FROM payments WHERE trade_no = 'T-C7k'")).isEqualTo("500");
    assertBookedWithAnomaly(ch, "T-C7k", "conflict", "processed,conflict");
  }

  // Of the order's very amount, in another currency: real money, kept as it was paid, never the order's payment.
  @ParameterizedTest(name = "{0}")
  @MethodSource("channelsNamingTheCurrency")
  void anotherCurrencyIsKeptAsACurrencyMismatchAndTheOrderStaysUnpaid(ChannelFixture ch) throws Exception {
    db.insertOrder("C7m", 2000);
    Notification eur = ch.paymentInCurrency("C7m", "T-C7m", 2000, "EUR");
    assertThat(service.send(eur)).matches(ch.success());
    assertThat(service.send(eur)).matches(ch.success());

    assertThat(db.orderStatus("C7m")).isEqualTo("unpaid");
    assertThat(db.string("SELECT CONCAT(channel, ' ', order_no, ' ', amount_cents) FROM payments"))
        .isEqualTo(ch.platform() + " C7m 2000");
    assertBookedWithAnomaly(ch, "T-C7m", "currency_mismatch", "anomaly,duplicate");
    assertThat(db.string("SELECT detail FROM anomalies")).containsIgnoringCase("paid 2000 in EUR");
  }

  // Refunded totals that carry no refund id, each booked under its total: the larger arrives first, the smaller late,
  // each again at once. The larger total is refunded, once; their sum, more than was paid, never.
  @ParameterizedTest(name = "{0}")
  @MethodSource("channelsNotifyingCumulativeRefunds")
  void cumulativeRefundsInReverseOrderRefundTheLargerTotalOnce(ChannelFixture ch) throws Exception {
    List<CompletableFuture<Reply>> replies = new ArrayList<>();
    db.insertOrder("C9", 10000);
    assertThat(service.send(ch.payment("C9", "T-C9", 10000, 0))).matches(ch.success());
    assertThat(service.send(ch.cumulativeRefund("C9", "T-C9", 10000, 8000, 0))).matches(ch.success());
    for (int i = 1; i <= 8; i++) {
      replies.add(service.sendAsync(ch.cumulativeRefund("C9", "T-C9", 10000, i % 2 == 0 ? 8000 : 6000, i)));
    }
    assertThat(replies).allSatisfy(r -> assertThat(r.join()).matches(ch.success()));

    String larger = ch.cumulativeRefundNo("T-C9", 8000);
    String smaller = ch.cumulativeRefundNo("T-C9", 6000);
    assertThat(db.column("SELECT CONCAT(refund_no, ' ', amount_cents, ' ', status) FROM refunds ORDER BY id"))
        .containsExactly(larger + " 8000 settled", smaller + " 6000 settled");
    assertThat(db.orderStatus("C9")).isEqualTo("partially_refunded");
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
    assertThat(outcomesByKind(ch.refundKey("T-C9", larger))).isEqualTo("duplicate,".repeat(4) + "processed");
    assertThat(outcomesByKind(ch.refundKey("T-C9", smaller))).isEqualTo("duplicate,".repeat(3) + "processed");
    assertThat(db.string("SELECT detail FROM notify_log WHERE idem_key = ? AND outcome = 'processed'",
        ch.refundKey("T-C9", smaller))).contains("refunded 80.00 of 100.00");
  }

  /**
   * While a secret is rotated the platform signs with both. A site that still holds the one secret, and one that holds
   * both (the configured one listed last), each finds its own signature: one payment.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("channelsSigningTwiceWhileRotating")
  void twoSignaturesDuringARotationBookOnce(ChannelFixture ch) throws Exception {
    db.insertOrder("C8", 700);
    assertThat(service.send(ch.paymentSignedTwice("C8", "T-C8", 700, 0))).matches(ch.success());
    service.awaitLogRecorded(); // its notify_log row before the other service's: each writes its rows in batches
    try (TestService both = TestService.start(db.settings(), ch.rotationConfiguration())) {
      assertThat(both.send(ch.paymentSignedTwice("C8", "T-C8", 700, 1))).matches(ch.success());
      assertThat(both.send(ch.payment("C8", "T-C8", 700, 2))).matches(ch.success());
    }
    assertThat(db.payments("T-C8")).isEqualTo(1);
    assertThat(db.string("SELECT CONCAT(status, ' ', channel, ' ', trade_no) FROM orders WHERE order_no = 'C8'"))
        .isEqualTo("paid " + ch.platform() + " T-C8");
    assertThat(db.outcomes(ch.platform() + ":pay:T-C8")).isEqualTo("processed,duplicate,duplicate");
  }

  // Forged or foreign notifications.
  @ParameterizedTest(name = "{0}")
  @MethodSource("channels")
  void signatureWithAnotherKeyIsRejected(ChannelFixture ch) throws Exception {
    assertRefusedAndNothingBooked(ch, ch.signedByAnotherKey("C4", "T-C4", 100), 401);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("channelsNamingTheMerchant")
  void anotherMerchantIsRejected(ChannelFixture ch) throws Exception {
    assertRefusedAndNothingBooked(ch, ch.forAnotherMerchant("C4", "T-C4", 100), 403);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("channelsCarryingASignature")
  void missingSignatureIsRejected(ChannelFixture ch) throws Exception {
    assertRefusedAndNothingBooked(ch, ch.missingSignature("C4", "T-C4", 100), 401);
  }

  // Genuine, but signed too long ago: a replay as far as anyone can tell.
  @ParameterizedTest(name = "{0}")
  @MethodSource("channelsSigningATimestamp")
  void staleTimestampIsRejected(ChannelFixture ch) throws Exception {
    assertRefusedFor(ch, ch.stalePayment("C4", "T-C4", 100), Reason.STALE_TIMESTAMP);
  }

  // Genuine test money (a test endpoint's secret left in a live configuration) never pays a live order.
  @ParameterizedTest(name = "{0}")
  @MethodSource("channelsMarkingTestMoney")
  void testModePaymentIsRejectedByALiveInstance(ChannelFixture ch) throws Exception {
    assertRefusedFor(ch, ch.testModePayment("C4", "T-C4", 100), Reason.WRONG_MERCHANT);
  }

  // Genuine, and no payment: acknowledged so that the platform stops sending it, and only logged.
  @ParameterizedTest(name = "{0}")
  @MethodSource("channelsNotifyingOtherStatuses")
  void otherStatusIsAcknowledgedAndBooksNothing(ChannelFixture ch) throws Exception {
    db.insertOrder("C6", 100);
    assertThat(service.send(ch.notFinal("C6", "T-C6", 100))).matches(ch.success());

    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
    assertThat(db.orderStatus("C6")).isEqualTo("unpaid");
    assertThat(db.column("SELECT outcome FROM notify_log")).containsExactly("ignored");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("channels")
  void tamperedAmountIsRejected(ChannelFixture ch) throws Exception {
    assertRefusedAndNothingBooked(ch, ch.amountTampered("C4", "T-C4", 100), 401);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("channels")
  void oversizedBodyIsRefused(ChannelFixture ch) throws Exception {
    Notification genuine = ch.payment("C5", "T-C5", 100, 0);
    // beyond http.max_body_bytes and any channel's own least limit (Paddle's 128 KiB)
    Notification oversized = new Notification("POST", genuine.path(), genuine.headers(), new byte[200_000], null);
    Reply reply = service.send(oversized);
    assertThat(reply.status()).isEqualTo(413);
    assertThat(reply).matches(ch.refusal());
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
  }

  @Test
  void healthAnswersWhileTheDatabaseDoes() throws Exception {
    assertThat(Http.get(service.port(), "/health").status()).isEqualTo(200);
  }

  /** 24 copies of one payment at once, each made as a retry, spread over {@code targets}: booked once. */
  private static void assertCopiesBookOnce(ChannelFixture ch, TestService... targets) throws Exception {
    db.insertOrder("C2", 1999);
    List<CompletableFuture<Reply>> replies = new ArrayList<>();
    for (int i = 0; i < 24; i++) {
      replies.add(targets[i % targets.length].sendAsync(ch.payment("C2", "T-C2", 1999, i)));
    }
    assertThat(replies).allSatisfy(r -> assertThat(r.join()).matches(ch.success()));
    assertThat(db.payments("T-C2")).isEqualTo(1);
    assertThat(db.count("SELECT COUNT(*) FROM idempotent_keys")).isEqualTo(1);
    assertThat(db.orderStatus("C2")).isEqualTo("paid");
    assertThat(db.count("SELECT COUNT(*) FROM notify_log WHERE outcome = 'processed'")).isEqualTo(1);
    assertThat(db.count("SELECT COUNT(*) FROM notify_log WHERE outcome = 'duplicate'")).isEqualTo(23);
  }

  /** The payment is real money: booked once, and the anomaly recorded for a human. */
  private static void assertBookedWithAnomaly(ChannelFixture ch, String tradeNo, String kind, String outcomes) {
    assertThat(db.payments(tradeNo)).isEqualTo(1);
    assertThat(anomalyKinds(tradeNo)).isEqualTo(kind);
    assertThat(db.outcomes(ch.platform() + ":pay:" + tradeNo)).isEqualTo(outcomes);
  }

  private static String anomalyKinds(String tradeNo) {
    return db.string("SELECT GROUP_CONCAT(kind ORDER BY id) FROM anomalies WHERE trade_no = ?", tradeNo);
  }

  /** Outcomes for a key sorted, not in arrival order: concurrent copies log in any order. */
  private static String outcomesByKind(String idemKey) {
    return db.string("SELECT GROUP_CONCAT(outcome ORDER BY outcome) FROM notify_log WHERE idem_key = ?", idemKey);
  }

  /** Refused for {@code reason}, as its notify_log row says, and nothing booked. */
  private static void assertRefusedFor(ChannelFixture ch, Notification n, Reason reason) {
    assertRefusedAndNothingBooked(ch, n, reason.status);
    assertThat(db.string("SELECT detail FROM notify_log")).startsWith(reason + ":");
  }

  private static void assertRefusedAndNothingBooked(ChannelFixture ch, Notification n, int status) {
    db.insertOrder("C4", 100);
    Reply reply = service.send(n);
    assertThat(reply.status()).isEqualTo(status);
    assertThat(reply).matches(ch.refusal());
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    assertThat(db.count("SELECT COUNT(*) FROM idempotent_keys")).isZero();
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
    assertThat(db.orderStatus("C4")).isEqualTo("unpaid");
    service.awaitLogRecorded();
    assertThat(db.string("SELECT outcome FROM notify_log")).isEqualTo("rejected");
  }
}
