package paynotify.booking;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import paynotify.booking.check.PendingRefundCheck;
import paynotify.testsupport.ChannelFixture;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.Notification;
import paynotify.testsupport.ServiceTestBase;
import paynotify.testsupport.WechatV3Notifications;

/**
 * Refunds on every channel that has them, over real HTTP on the real database: once, in any
 * order relative to their payment, however often and concurrently delivered.
 */
class RefundFlowTest extends ServiceTestBase {

  static Stream<ChannelFixture> channels() {
    return ChannelFixture.sendsRefunds().stream();
  }

  static Stream<ChannelFixture> channelsResigningRetries() {
    return channels().filter(ChannelFixture::resignsRetries);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("channels")
  void refundAfterPaymentMovesTheOrderForward(ChannelFixture ch) throws Exception {
    db.insertOrder("R1", 10000);
    assertThat(service.send(ch.payment("R1", "T-R1", 10000, 0))).matches(ch.success());
    assertThat(service.send(ch.refund("R1", "T-R1", 10000, "RF-R1-a", 3000, 3000, 0))).matches(ch.success());

    assertThat(db.orderStatus("R1")).isEqualTo("partially_refunded");
    assertThat(refunds()).containsExactly("RF-R1-a T-R1 settled");
    assertThat(db.outcomes(ch.refundKey("T-R1", "RF-R1-a"))).isEqualTo("processed");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("channels")
  void refundBeforePaymentWaitsAndThePaymentSettlesItOnce(ChannelFixture ch) throws Exception {
    db.insertOrder("R2", 5000);
    assertThat(service.send(ch.refund("R2", "T-R2", 5000, "RF-R2", 5000, 5000, 0))).matches(ch.success());
    assertThat(refunds()).containsExactly("RF-R2 T-R2 pending");
    assertThat(db.orderStatus("R2")).isEqualTo("unpaid");

    assertThat(service.send(ch.payment("R2", "T-R2", 5000, 0))).matches(ch.success());
    assertThat(db.orderStatus("R2")).isEqualTo("refunded");
    assertThat(refunds()).containsExactly("RF-R2 T-R2 settled");
    assertThat(db.payments("T-R2")).isEqualTo(1);
    assertThat(db.string("SELECT detail FROM notify_log WHERE idem_key = ?", ch.platform() + ":pay:T-R2"))
        .contains("1 pending refund(s) settled");

    // Both again, in the other order: nothing more happens.
    assertThat(service.send(ch.payment("R2", "T-R2", 5000, 1))).matches(ch.success());
    assertThat(service.send(ch.refund("R2", "T-R2", 5000, "RF-R2", 5000, 5000, 1))).matches(ch.success());
    assertThat(db.orderStatus("R2")).isEqualTo("refunded");
    assertThat(db.count("SELECT COUNT(*) FROM refunds")).isEqualTo(1);
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
  }

  /**
   * A refund that finds no payment holds the payment's key: that is how the payment learns of it. The key
   * purge leaves it however old; the payment, coming after the retention, takes it and settles the refund.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("channels")
  void aWaitingRefundHoldsItsPaymentsKeyThroughThePurge(ChannelFixture ch) throws Exception {
    db.insertOrder("R13", 6000);
    String paymentKey = ch.platform() + ":pay:T-R13";
    assertThat(service.send(ch.refund("R13", "T-R13", 6000, "RF-R13", 2000, 2000, 0))).matches(ch.success());
    assertThat(db.column("SELECT fingerprint FROM idempotent_keys WHERE idem_key = ?", paymentKey))
        .containsExactly("refunds-waiting");
    db.update("UPDATE idempotent_keys SET created_at = NOW(3) - INTERVAL 30 DAY");
    db.update("UPDATE refunds SET created_at = NOW(3) - INTERVAL 30 DAY");

    service.server().purge().runOnce().await();
    assertThat(db.column("SELECT idem_key FROM idempotent_keys")).containsExactly(paymentKey);

    assertThat(service.send(ch.payment("R13", "T-R13", 6000, 0))).matches(ch.success());
    assertThat(refunds()).containsExactly("RF-R13 T-R13 settled");
    assertThat(db.orderStatus("R13")).isEqualTo("partially_refunded");
    assertThat(db.column("SELECT fingerprint FROM idempotent_keys WHERE idem_key = ?", paymentKey))
        .singleElement().asString().hasSize(64);
    assertThat(db.count("SELECT COUNT(*) FROM idempotent_keys WHERE created_at < NOW(3) - INTERVAL 1 DAY"))
        .as("the claimed key's retention starts with its payment").isZero();
    assertThat(service.send(ch.payment("R13", "T-R13", 6000, 1))).matches(ch.success());
    assertThat(db.outcomes(paymentKey)).isEqualTo("processed,duplicate");
    assertThat(db.payments("T-R13")).isEqualTo(1);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("channels")
  void partialRefundsAddingUpToTheTotalEndRefunded(ChannelFixture ch) throws Exception {
    db.insertOrder("R3", 10000);
    assertThat(service.send(ch.payment("R3", "T-R3", 10000, 0))).matches(ch.success());
    assertThat(service.send(ch.refund("R3", "T-R3", 10000, "RF-R3-a", 3000, 3000, 0))).matches(ch.success());
    assertThat(db.orderStatus("R3")).isEqualTo("partially_refunded");
    assertThat(service.send(ch.refund("R3", "T-R3", 10000, "RF-R3-b", 7000, 10000, 0))).matches(ch.success());
    assertThat(db.orderStatus("R3")).isEqualTo("refunded");
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("channels")
  void refundsInReverseOrderEndTheSameAndNeverMoveTheOrderBack(ChannelFixture ch) throws Exception {
    db.insertOrder("R4", 10000);
    assertThat(service.send(ch.payment("R4", "T-R4", 10000, 0))).matches(ch.success());
    assertThat(service.send(ch.refund("R4", "T-R4", 10000, "RF-R4-b", 7000, 10000, 0))).matches(ch.success());
    assertThat(service.send(ch.refund("R4", "T-R4", 10000, "RF-R4-a", 3000, 3000, 0))).matches(ch.success());
    assertThat(db.orderStatus("R4")).isEqualTo("refunded");
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("channels")
  void overRefundIsAnAnomaly(ChannelFixture ch) throws Exception {
    db.insertOrder("R5", 10000);
    assertThat(service.send(ch.payment("R5", "T-R5", 10000, 0))).matches(ch.success());
    assertThat(service.send(ch.refund("R5", "T-R5", 10000, "RF-R5-a", 6000, 6000, 0))).matches(ch.success());
    assertThat(service.send(ch.refund("R5", "T-R5", 10000, "RF-R5-b", 6000, 12000, 0))).matches(ch.success());

    assertThat(db.orderStatus("R5")).isEqualTo("refunded");
    assertThat(db.string("SELECT CONCAT(kind, ' ', trade_no, ' ', amount_cents) FROM anomalies"))
        .isEqualTo("over_refund T-R5 12000");
    assertThat(db.outcomes(ch.refundKey("T-R5", "RF-R5-b"))).isEqualTo("anomaly");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("channels")
  void sameRefundIdWithAnotherAmountIsAConflict(ChannelFixture ch) throws Exception {
    db.insertOrder("R6", 10000);
    assertThat(service.send(ch.payment("R6", "T-R6", 10000, 0))).matches(ch.success());
    assertThat(service.send(ch.refund("R6", "T-R6", 10000, "RF-R6", 3000, 3000, 0))).matches(ch.success());
    assertThat(service.send(ch.refund("R6", "T-R6", 10000, "RF-R6", 4000, 4000, 1))).matches(ch.success());

    assertThat(db.orderStatus("R6")).isEqualTo("partially_refunded");
    assertThat(db.string("SELECT amount_cents FROM refunds")).isEqualTo("3000");
    assertThat(db.string("SELECT kind FROM anomalies")).isEqualTo("conflict");
    assertThat(db.outcomes(ch.refundKey("T-R6", "RF-R6"))).isEqualTo("processed,conflict");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("channelsResigningRetries")
  void retryWithANewTimestampAndSignatureIsADuplicate(ChannelFixture ch) throws Exception {
    db.insertOrder("R7", 10000);
    assertThat(service.send(ch.payment("R7", "T-R7", 10000, 0))).matches(ch.success());
    Notification first = ch.refund("R7", "T-R7", 10000, "RF-R7", 3000, 3000, 0);
    Notification retry = ch.refund("R7", "T-R7", 10000, "RF-R7", 3000, 3000, 1);
    // Stripe resends the very same body, signed anew in its header
    assertThat(Arrays.equals(retry.body(), first.body()) && retry.headers().equals(first.headers())).isFalse();
    assertThat(service.send(first)).matches(ch.success());
    assertThat(service.send(retry)).matches(ch.success());

    assertThat(db.outcomes(ch.refundKey("T-R7", "RF-R7"))).isEqualTo("processed,duplicate");
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("channels")
  void refundOfASecondPaymentLeavesTheOrderAlone(ChannelFixture ch) throws Exception {
    db.insertOrder("R8", 1000);
    assertThat(service.send(ch.payment("R8", "T-R8-1", 1000, 0))).matches(ch.success());
    assertThat(service.send(ch.payment("R8", "T-R8-2", 1000, 0))).matches(ch.success()); // paid twice: anomaly
    assertThat(service.send(ch.refund("R8", "T-R8-2", 1000, "RF-R8", 1000, 1000, 0))).matches(ch.success());

    assertThat(db.orderStatus("R8")).isEqualTo("paid");
    assertThat(refunds()).containsExactly("RF-R8 T-R8-2 settled");
  }

  /**
   * The payment and its refund, each delivered 10 times, all at once, shuffled by a seed: one
   * payment, one settled refund, the order refunded; and the same with the refund's copies first.
   */
  @ParameterizedTest(name = "{0} seed {1}")
  @MethodSource("interleavings")
  void anyInterleavingOfCopiesEndsInTheSameState(ChannelFixture ch, long seed) throws Exception {
    db.insertOrder("R9", 8000);
    List<Map.Entry<Boolean, Notification>> deliveries = new ArrayList<>(); // true: a payment copy
    for (int i = 0; i < 10; i++) {
      deliveries.add(Map.entry(true, ch.payment("R9", "T-R9", 8000, i)));
      deliveries.add(Map.entry(false, ch.refund("R9", "T-R9", 8000, "RF-R9", 8000, 8000, i)));
    }
    Random random = new Random(seed);
    Collections.shuffle(deliveries, random);
    if (seed % 2 == 0) { // half of the runs: every refund copy is sent before any payment copy
      deliveries.sort(Map.Entry.comparingByKey());
    }
    List<CompletableFuture<Reply>> replies = new ArrayList<>();
    for (Map.Entry<Boolean, Notification> delivery : deliveries) {
      replies.add(service.sendAsync(delivery.getValue()));
      if (random.nextInt(4) == 0) {
        Thread.sleep(random.nextInt(5));
      }
    }
    assertThat(replies).allSatisfy(r -> assertThat(r.join()).matches(ch.success()));

    assertThat(db.payments("T-R9")).isEqualTo(1);
    assertThat(refunds()).containsExactly("RF-R9 T-R9 settled");
    assertThat(db.orderStatus("R9")).isEqualTo("refunded");
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
    assertThat(db.count("SELECT COUNT(*) FROM notify_log WHERE outcome = 'processed'")).isEqualTo(2);
    assertThat(db.count("SELECT COUNT(*) FROM notify_log WHERE outcome = 'duplicate'")).isEqualTo(18);
  }

  static Stream<Arguments> interleavings() {
    return channels().flatMap(ch -> IntStream.range(0, 6).mapToObj(seed -> Arguments.of(ch, (long) seed)));
  }

  private static List<String> refunds() {
    return db.column("SELECT CONCAT(refund_no, ' ', trade_no, ' ', status) FROM refunds ORDER BY id");
  }

  @Test
  void refundStillWaitingAfterTheRetentionBecomesOneAnomalyAndALatePaymentStillSettlesIt() throws Exception {
    ChannelFixture ch = ChannelFixture.wechatV3();
    db.insertOrder("R10", 100);
    assertThat(service.send(ch.refund("R10", "T-R10", 100, "RF-R10", 100, 100, 0))).matches(ch.success());
    assertThat(service.server().pendingRefunds().runOnce().await().flagged()).isZero();

    db.update("UPDATE refunds SET created_at = NOW(3) - INTERVAL 8 DAY");
    assertThat(service.server().pendingRefunds().runOnce().await().flagged()).isEqualTo(1);
    assertThat(service.server().pendingRefunds().runOnce().await().flagged()).isZero();
    assertThat(db.string("SELECT CONCAT(kind, ' ', trade_no) FROM anomalies")).isEqualTo("refund_without_payment T-R10");

    assertThat(service.send(ch.payment("R10", "T-R10", 100, 0))).matches(ch.success());
    assertThat(refunds()).containsExactly("RF-R10 T-R10 settled");
    assertThat(db.orderStatus("R10")).isEqualTo("refunded");
  }

  /**
   * The same refund number on two trades. Alipay's out_biz_no is unique only within its trade (sites
   * number every trade's refunds 1, 2, ...): both are booked. WeChat's refund_id is unique on the whole
   * platform: the second is a conflict.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("channels")
  void theSameRefundNumberOnTwoTrades(ChannelFixture ch) throws Exception {
    boolean uniquePerTrade = ch.platform().equals("alipay");
    for (String order : List.of("RA", "RB")) {
      db.insertOrder(order, 1000);
      assertThat(service.send(ch.payment(order, "T-" + order, 1000, 0))).matches(ch.success());
    }
    assertThat(service.send(ch.refund("RA", "T-RA", 1000, "1", 1000, 1000, 0))).matches(ch.success());
    assertThat(service.send(ch.refund("RB", "T-RB", 1000, "1", 1000, 1000, 0))).matches(ch.success());
    assertThat(service.send(ch.refund("RB", "T-RB", 1000, "1", 1000, 1000, 1))).matches(ch.success());

    if (uniquePerTrade) {
      assertThat(refunds()).containsExactly("1 T-RA settled", "1 T-RB settled");
      assertThat(db.orderStatus("RB")).isEqualTo("refunded");
      assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
      assertThat(db.outcomes(ch.refundKey("T-RB", "1"))).isEqualTo("processed,duplicate");
    } else {
      assertThat(refunds()).containsExactly("1 T-RA settled");
      assertThat(db.orderStatus("RB")).isEqualTo("paid");
      assertThat(db.string("SELECT kind FROM anomalies")).isEqualTo("conflict");
    }
    assertThat(db.orderStatus("RA")).isEqualTo("refunded");
  }

  /** A refund booked before V4 kept its key alipay:refund:<out_biz_no>: its retry after the upgrade is a duplicate. */
  @Test
  void anAlipayRefundBookedBeforeTheUpgradeIsADuplicateWhenRetried() throws Exception {
    ChannelFixture ch = ChannelFixture.alipay();
    db.insertOrder("RU", 1000);
    assertThat(service.send(ch.payment("RU", "T-RU", 1000, 0))).matches(ch.success());
    assertThat(service.send(ch.refund("RU", "T-RU", 1000, "RF-RU", 400, 400, 0))).matches(ch.success());
    db.update("UPDATE idempotent_keys SET idem_key = 'alipay:refund:RF-RU' WHERE idem_key = ?",
        ch.refundKey("T-RU", "RF-RU"));

    assertThat(service.send(ch.refund("RU", "T-RU", 1000, "RF-RU", 400, 400, 1))).matches(ch.success());
    assertThat(db.outcomes(ch.refundKey("T-RU", "RF-RU"))).isEqualTo("processed,duplicate");
    assertThat(refunds()).containsExactly("RF-RU T-RU settled");
  }

  /** Alipay's ids are up to 64 characters each: the longest refund key (143 characters) is booked. */
  @Test
  void theLongestAlipayRefundKeyFits() throws Exception {
    ChannelFixture ch = ChannelFixture.alipay();
    String trade = "T".repeat(64);
    String refundNo = "R".repeat(64);
    db.insertOrder("RL", 1000);
    assertThat(service.send(ch.payment("RL", trade, 1000, 0))).matches(ch.success());
    assertThat(service.send(ch.refund("RL", trade, 1000, refundNo, 1000, 1000, 0))).matches(ch.success());
    assertThat(db.outcomes(ch.refundKey(trade, refundNo))).isEqualTo("processed");
    assertThat(db.orderStatus("RL")).isEqualTo("refunded");
  }

  /**
   * A refund left pending beside its booked payment (as a READ COMMITTED session could leave it, before
   * sessions were pinned): the periodic check settles it and moves the order, once.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("channels")
  void aRefundStrandedBesideItsPaymentIsSettledByThePeriodicCheck(ChannelFixture ch) throws Exception {
    db.insertOrder("R12", 4000);
    assertThat(service.send(ch.payment("R12", "T-R12", 4000, 0))).matches(ch.success());
    assertThat(service.send(ch.refund("R12", "T-R12", 4000, "RF-R12-a", 1000, 1000, 0))).matches(ch.success());
    assertThat(service.send(ch.refund("R12", "T-R12", 4000, "RF-R12-b", 3000, 4000, 0))).matches(ch.success());
    db.update("UPDATE refunds SET status = 'pending'");
    db.update("UPDATE orders SET status = 'paid'");
    // as if a refund had held the payment's key, the payment booked around it (notify.php during the cutover)
    db.update("UPDATE idempotent_keys SET fingerprint = 'refunds-waiting' WHERE idem_key = ?", ch.platform() + ":pay:T-R12");

    assertThat(service.server().pendingRefunds().runOnce().await().tradesSettled()).isEqualTo(1);
    assertThat(refunds()).containsExactly("RF-R12-a T-R12 settled", "RF-R12-b T-R12 settled");
    assertThat(db.orderStatus("R12")).isEqualTo("refunded");
    assertThat(service.server().pendingRefunds().runOnce().await()).isEqualTo(new PendingRefundCheck.Result(0, 0));
    assertThat(db.count("SELECT COUNT(*) FROM idempotent_keys WHERE fingerprint = 'refunds-waiting'")).isZero();
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
  }

  @Test
  void abnormalRefundIsRecordedAndMovesNoMoney() {
    db.insertOrder("R11", 100);
    assertThat(service.send(WechatV3Notifications.payment("R11", "T-R11", 100)).status()).isEqualTo(204);
    assertThat(service.send(WechatV3Notifications.refund("R11", "T-R11", 100, "RF-R11", 100,
        "ABNORMAL")).status()).isEqualTo(204);
    assertThat(db.orderStatus("R11")).isEqualTo("paid");
    assertThat(db.count("SELECT COUNT(*) FROM refunds")).isZero();
    assertThat(db.string("SELECT CONCAT(outcome, ' ', detail) FROM notify_log WHERE outcome <> 'processed'"))
        .isEqualTo("ignored status REFUND.ABNORMAL books nothing");
  }
}
