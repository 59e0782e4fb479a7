package paynotify.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import paynotify.testsupport.AlipayStandIn;
import paynotify.testsupport.ChannelFixture;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.Http;
import paynotify.testsupport.PlatformStandIn;
import paynotify.testsupport.TestService;
import paynotify.testsupport.WechatV2StandIn;
import paynotify.testsupport.WechatV3StandIn;

/**
 * The review's M1: a trade paid, then refunded in the platform's merchant console (no refund notification) while
 * its payment's notification never came. Asked about, the platform says so (WeChat REFUND, Alipay TRADE_CLOSED
 * with its payment time): never booked as a deliverable payment, neither by the return page's check nor by the
 * sweeper; one paid_then_refunded anomaly, and the order is asked about no more.
 */
class RefundedAtThePlatformTest extends DatabaseTestBase {
  static Stream<Arguments> platforms() {
    return Stream.of(
        Arguments.of("alipay", (Supplier<PlatformStandIn>) AlipayStandIn::start, "2026120522001400001", "88.88",
            "TRADE_CLOSED"),
        Arguments.of("wechat v2", (Supplier<PlatformStandIn>) WechatV2StandIn::start, "4200001234202612050000000001",
            "8888", "REFUND"),
        Arguments.of("wechat v3", (Supplier<PlatformStandIn>) WechatV3StandIn::start, "4200001234202612050000000002",
            "8888", "REFUND"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("platforms")
  void aTradeRefundedAtThePlatformIsNotBookedAsADeliverablePayment(String name, Supplier<PlatformStandIn> start,
      String trade, String amount, String status) {
    try (PlatformStandIn platform = start.get(); TestService s = service(platform)) {
      order("WR1", name.startsWith("alipay") ? "alipay" : "wechat");
      platform.paid("WR1", trade, amount);
      platform.refunded("WR1"); // in the merchant console: no refund notification

      CheckAnswer answer = s.server().recovery().check("WR1").await(); // what the return page does

      assertThat(answer.state()).isEqualTo(CheckAnswer.State.UNPAID);
      assertThat(answer.platformStatus()).isEqualTo(status);
      assertThat(answer.detail()).contains("paid, then refunded at the platform");
      assertThat(db.orderStatus("WR1")).isEqualTo("unpaid");
      assertThat(db.payments(trade)).isZero();
      assertThat(db.count("SELECT COUNT(*) FROM forward_events WHERE order_no = 'WR1' AND type = 'payment.succeeded'"))
          .isZero();
      assertThat(db.string("SELECT CONCAT(trade_no, ' ', amount_cents, ': ', detail) FROM anomalies"
          + " WHERE kind = 'paid_then_refunded' AND order_no = 'WR1'")).startsWith(trade + " 8888: ")
          .contains("check before delivering");

      // The sweeper comes to the same answer: nothing booked, the anomaly not told twice, the order done
      assertThat(s.server().recovery().sweepOnce().await().paid()).isZero();
      assertThat(db.orderStatus("WR1")).isEqualTo("unpaid");
      assertThat(db.count("SELECT COUNT(*) FROM anomalies WHERE kind = 'paid_then_refunded'")).isEqualTo(1);
      assertThat(db.string("SELECT CONCAT(done, ':', last_state) FROM order_checks WHERE order_no = 'WR1'"))
          .isEqualTo("1:" + status);
      s.awaitLogRecorded();
      assertThat(db.column("SELECT outcome FROM notify_log WHERE channel = 'query'")).containsOnly("anomaly");
    }
  }

  static Stream<Arguments> notified() {
    return Stream.of(false, true).flatMap(refundFirst -> Stream.of(
        Arguments.of("alipay", ChannelFixture.alipay(), (Supplier<PlatformStandIn>) AlipayStandIn::start,
            "2026120522001400011", "88.88", refundFirst),
        Arguments.of("wechat v2", ChannelFixture.wechatV2(), (Supplier<PlatformStandIn>) WechatV2StandIn::start,
            "4200001234202612050000000011", "8888", refundFirst),
        Arguments.of("wechat v3", ChannelFixture.wechatV3(), (Supplier<PlatformStandIn>) WechatV3StandIn::start,
            "4200001234202612050000000012", "8888", refundFirst)));
  }

  // The payment's own notification comes after the sweeper heard "refunded" (WeChat retries a failed one for about
  // 24 h, Alipay 25 h: the site was down, and the merchant refunded in the console meanwhile). The trade's key was
  // taken with its anomaly: the notification is a duplicate, answered success, and nothing is delivered. The same
  // when a refund's notification came first (the trade unbooked, the refund waits and holds the payment's key): the
  // anomaly takes the key from it.
  @ParameterizedTest(name = "{0}, a refund notified first: {5}")
  @MethodSource("notified")
  void theLateNotificationOfATradeRefundedSinceIsADuplicateAndBooksNothing(String name, ChannelFixture notifies,
      Supplier<PlatformStandIn> start, String trade, String amount, boolean refundFirst) throws Exception {
    try (PlatformStandIn platform = start.get(); TestService s = service(platform)) {
      order("WR2", notifies.platform());
      platform.paid("WR2", trade, amount);
      platform.refunded("WR2");
      if (refundFirst) {
        assertThat(s.send(notifies.refund("WR2", trade, 8888, "RF-WR2", 8888, 8888, 0))).matches(notifies.success(),
            "the channel's success reply");
        db.update("UPDATE idempotent_keys SET created_at = NOW(3) - INTERVAL 8 DAY WHERE fingerprint = 'refunds-waiting'");
      }
      assertThat(s.server().recovery().sweepOnce().await().asked()).isEqualTo(1);
      assertThat(db.string("SELECT detail FROM anomalies WHERE kind = 'paid_then_refunded'"))
          .contains("not booked, nor will its notification be");
      assertThat(db.count("SELECT COUNT(*) FROM idempotent_keys WHERE idem_key = ? AND created_at > NOW(3) - INTERVAL 1 DAY",
          notifies.platform() + ":pay:" + trade)).as("a key taken (one held for a week, too) starts its retention now")
          .isEqualTo(1);

      Http.Reply late = s.send(notifies.payment("WR2", trade, 8888, 1));

      assertThat(late).matches(notifies.success(), "the channel's success reply");
      assertThat(db.orderStatus("WR2")).isEqualTo("unpaid");
      assertThat(db.payments(trade)).isZero();
      assertThat(db.count("SELECT COUNT(*) FROM forward_events WHERE order_no = 'WR2' AND type = 'payment.succeeded'"))
          .isZero();
      assertThat(db.column("SELECT kind FROM anomalies WHERE order_no = 'WR2'")).containsExactly("paid_then_refunded");
      s.awaitLogRecorded();
      assertThat(db.outcomes(notifies.platform() + ":pay:" + trade)).isEqualTo("anomaly,duplicate");
    }
  }

  /** The service asking {@code platform}, telling a site that is not there (so forward_events keeps what it would). */
  private TestService service(PlatformStandIn platform) {
    return TestService.start(db.settings(), platform.configure(TestService.configuration(new JsonObject()
        .put("recovery", new JsonObject().put("enabled", true).put("interval_seconds", 3600))
        .put("forward", new JsonObject().put("url", "http://127.0.0.1:9/hook")
            .put("secret", "a-forward-secret-of-32-characters")))));
  }

  /** An unpaid order made 40 minutes ago, of the platform its channel column names. */
  private void order(String orderNo, String channel) {
    db.update("INSERT INTO orders (order_no, amount_cents, channel, created_at) VALUES (?, 8888, ?,"
        + " CONVERT_TZ(NOW(3), @@session.time_zone, '+08:00') - INTERVAL 40 MINUTE)", orderNo, channel);
  }
}
