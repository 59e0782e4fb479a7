package paynotify.http;

import static org.assertj.core.api.Assertions.assertThat;
import static paynotify.testsupport.AlipayNotifications.payment;
import static paynotify.testsupport.AlipayNotifications.retry;
import static paynotify.testsupport.AlipayNotifications.signedBody;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.AlipayNotifications;
import paynotify.testsupport.Http;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.ServiceTestBase;

/** POST /notify/alipay end to end: real HTTP, real database. */
class AlipayNotifyFlowTest extends ServiceTestBase {
  // 1. The same notification delivered twice.
  @Test
  void secondDeliveryIsAcknowledgedAndNotBookedAgain() {
    db.insertOrder("A1", 8888);
    String body = signedBody(payment("A1", "T1", "88.88"));

    assertThat(service.postAlipay(body)).isEqualTo(new Reply(200, "success"));
    assertThat(service.postAlipay(body)).isEqualTo(new Reply(200, "success"));

    assertThat(db.payments("T1")).isEqualTo(1);
    assertThat(db.orderStatus("A1")).isEqualTo("paid");
    assertThat(db.string("SELECT trade_no FROM orders WHERE order_no = 'A1'")).isEqualTo("T1");
    assertThat(db.outcomes("alipay:pay:T1")).isEqualTo("processed,duplicate");
  }

  // 2. 20+ concurrent copies, each re-signed with its own notify_time as real retries are.
  @Test
  void concurrentCopiesBookOnce() {
    db.insertOrder("A2", 1999);
    Map<String, String> first = payment("A2", "T2", "19.99");
    List<CompletableFuture<Reply>> replies = new ArrayList<>();
    for (int i = 0; i < 24; i++) {
      replies.add(service.postAlipayAsync(signedBody(retry(first, i))));
    }

    assertThat(replies).allSatisfy(r -> assertThat(r.join()).isEqualTo(new Reply(200, "success")));
    assertThat(db.payments("T2")).isEqualTo(1);
    assertThat(db.count("SELECT COUNT(*) FROM idempotent_keys")).isEqualTo(1);
    assertThat(db.orderStatus("A2")).isEqualTo("paid");
    assertThat(db.count("SELECT COUNT(*) FROM notify_log WHERE outcome = 'processed'")).isEqualTo(1);
    assertThat(db.count("SELECT COUNT(*) FROM notify_log WHERE outcome = 'duplicate'")).isEqualTo(23);
  }

  // 4. Empty or absent ids: rejected before anything is written.
  @Test
  void emptyOrAbsentIdsAreRejected() {
    db.insertOrder("A4", 100);
    Map<String, String> emptyTrade = payment("A4", "T4", "1.00");
    emptyTrade.put("trade_no", "");
    Map<String, String> absentTrade = payment("A4", "T4", "1.00");
    absentTrade.remove("trade_no");
    Map<String, String> emptyOrder = payment("A4", "T4", "1.00");
    emptyOrder.put("out_trade_no", "");
    Map<String, String> absentOrder = payment("A4", "T4", "1.00");
    absentOrder.remove("out_trade_no");

    for (Map<String, String> params : List.of(emptyTrade, absentTrade, emptyOrder, absentOrder)) {
      assertThat(service.postAlipay(signedBody(params))).isEqualTo(new Reply(400, "fail"));
    }
    assertNothingBooked("A4");
    service.awaitRejectedRecorded();
    assertThat(db.count("SELECT COUNT(*) FROM notify_log WHERE outcome = 'rejected'")).isEqualTo(4);
  }

  @Test
  void amountThatIsNotAPlainDecimalIsRejected() {
    db.insertOrder("A4b", 100);
    for (String amount : List.of("1.001", "1e2", "-1.00", "01.00", " 1.00", "1,00", "")) {
      assertThat(service.postAlipay(signedBody(payment("A4b", "T4b", amount))).status()).isEqualTo(400);
    }
    assertNothingBooked("A4b");
  }

  // 7. Real money that does not fit the order: booked, anomaly recorded, acknowledged.
  @Test
  void amountMismatchIsBookedAsAnomalyAndOrderStaysUnpaid() {
    db.insertOrder("A7", 10000);
    assertThat(service.postAlipay(signedBody(payment("A7", "T7", "1.00")))).isEqualTo(new Reply(200, "success"));

    assertThat(db.payments("T7")).isEqualTo(1);
    assertThat(db.orderStatus("A7")).isEqualTo("unpaid");
    assertThat(anomalyKinds("T7")).isEqualTo("amount_mismatch");
    assertThat(db.outcomes("alipay:pay:T7")).isEqualTo("anomaly");
  }

  @Test
  void unknownOrderIsBookedAsAnomaly() {
    assertThat(service.postAlipay(signedBody(payment("NO-SUCH", "T7u", "5.00")))).isEqualTo(new Reply(200, "success"));
    assertThat(db.payments("T7u")).isEqualTo(1);
    assertThat(anomalyKinds("T7u")).isEqualTo("unknown_order");
  }

  @Test
  void secondPaymentOfAPaidOrderIsAnAnomaly() {
    db.insertOrder("A7s", 500);
    assertThat(service.postAlipay(signedBody(payment("A7s", "T7s-1", "5.00"))).body()).isEqualTo("success");
    assertThat(service.postAlipay(signedBody(payment("A7s", "T7s-2", "5.00")))).isEqualTo(new Reply(200, "success"));

    assertThat(db.count("SELECT COUNT(*) FROM payments WHERE order_no = 'A7s'")).isEqualTo(2);
    assertThat(db.string("SELECT trade_no FROM orders WHERE order_no = 'A7s'")).isEqualTo("T7s-1");
    assertThat(anomalyKinds("T7s-2")).isEqualTo("second_payment");
    assertThat(anomalyKinds("T7s-1")).isNull();
  }

  @Test
  void paymentAfterCloseIsAnAnomaly() {
    db.insertOrder("A7c", 500);
    db.update("UPDATE orders SET status = 'closed' WHERE order_no = 'A7c'");
    assertThat(service.postAlipay(signedBody(payment("A7c", "T7c", "5.00")))).isEqualTo(new Reply(200, "success"));
    assertThat(db.payments("T7c")).isEqualTo(1);
    assertThat(db.orderStatus("A7c")).isEqualTo("closed");
    assertThat(anomalyKinds("T7c")).isEqualTo("paid_after_close");
  }

  @Test
  void anomalyIsRecordedOnceHoweverOftenItIsDelivered() {
    db.insertOrder("A7d", 10000);
    Map<String, String> params = payment("A7d", "T7d", "1.00");
    for (int i = 0; i < 3; i++) {
      assertThat(service.postAlipay(signedBody(retry(params, i))).body()).isEqualTo("success");
    }
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isEqualTo(1);
    assertThat(db.outcomes("alipay:pay:T7d")).isEqualTo("anomaly,duplicate,duplicate");
  }

  @Test
  void sameTradeWithOtherAmountIsAConflictNotASecondBooking() {
    db.insertOrder("A7k", 500);
    assertThat(service.postAlipay(signedBody(payment("A7k", "T7k", "5.00"))).body()).isEqualTo("success");
    assertThat(service.postAlipay(signedBody(payment("A7k", "T7k", "6.00")))).isEqualTo(new Reply(200, "success"));

    assertThat(db.payments("T7k")).isEqualTo(1);
    assertThat(db.string("SELECT amount_cents FROM payments WHERE trade_no = 'T7k'")).isEqualTo("500");
    assertThat(anomalyKinds("T7k")).isEqualTo("conflict");
    assertThat(db.outcomes("alipay:pay:T7k")).isEqualTo("processed,conflict");
  }

  // 8. Forged or foreign notifications.
  @Test
  void badSignatureIsRejected() {
    db.insertOrder("A8", 100);
    Map<String, String> params = payment("A8", "T8", "1.00");
    params.put("sign_type", "RSA2");
    params.put("sign", Base64.getEncoder().encodeToString(new byte[256]));
    assertThat(service.postAlipay(AlipayNotifications.form(params, StandardCharsets.UTF_8)))
        .isEqualTo(new Reply(401, "fail"));
    assertNothingBooked("A8");
  }

  @Test
  void signatureFromAnotherKeyIsRejected() {
    db.insertOrder("A8", 100);
    String body = AlipayNotifications.signedBody(payment("A8", "T8", "1.00"), AlipayNotifications.OTHER_PRIVATE_KEY,
        StandardCharsets.UTF_8);
    assertThat(service.postAlipay(body)).isEqualTo(new Reply(401, "fail"));
    assertNothingBooked("A8");
  }

  @Test
  void tamperedAmountIsRejected() {
    db.insertOrder("A8", 10000);
    String body = signedBody(payment("A8", "T8", "1.00")).replace("total_amount=1.00", "total_amount=100.00");
    assertThat(body).contains("total_amount=100.00");
    assertThat(service.postAlipay(body)).isEqualTo(new Reply(401, "fail"));
    assertNothingBooked("A8");
  }

  @Test
  void wrongAppIdIsRejected() {
    db.insertOrder("A8", 100);
    Map<String, String> params = payment("A8", "T8", "1.00");
    params.put("app_id", "2021000000000000");
    assertThat(service.postAlipay(signedBody(params))).isEqualTo(new Reply(403, "fail"));
    assertNothingBooked("A8");
  }

  @Test
  void wrongSellerIdIsRejected() {
    db.insertOrder("A8", 100);
    Map<String, String> params = payment("A8", "T8", "1.00");
    params.put("seller_id", "2088000000000000");
    assertThat(service.postAlipay(signedBody(params))).isEqualTo(new Reply(403, "fail"));
    assertNothingBooked("A8");
  }

  @Test
  void rejectionsLeaveOnlyANotifyLogLine() {
    db.insertOrder("A8", 100);
    service.postAlipay(signedBody(payment("A8", "T8", "1.00")).replace("T8", "T9"));
    service.awaitRejectedRecorded();
    assertThat(db.string("SELECT CONCAT(outcome, ' ', detail) FROM notify_log"))
        .startsWith("rejected BAD_SIGNATURE");
  }

  // Statuses that book nothing.
  @Test
  void waitBuyerPayIsAcknowledgedAndIgnored() {
    db.insertOrder("A9", 100);
    Map<String, String> params = payment("A9", "T9", "1.00");
    params.put("trade_status", "WAIT_BUYER_PAY");
    params.remove("gmt_payment");
    assertThat(service.postAlipay(signedBody(params))).isEqualTo(new Reply(200, "success"));
    assertThat(db.orderStatus("A9")).isEqualTo("unpaid");
    assertThat(db.payments("T9")).isZero();
    assertThat(db.string("SELECT outcome FROM notify_log")).isEqualTo("ignored");
  }

  @Test
  void refundNotificationIsBookedAsARefundNeverAsAPayment() {
    db.insertOrder("A12", 6660);
    assertThat(service.postAlipay(signedBody(payment("A12", "T12", "66.60"))).body()).isEqualTo("success");
    Map<String, String> refund = payment("A12", "T12", "66.60");
    refund.put("refund_fee", "20.00");
    refund.put("gmt_refund", "2026-11-29 14:02:33.512");
    refund.put("out_biz_no", "RF1");

    assertThat(service.postAlipay(signedBody(refund))).isEqualTo(new Reply(200, "success"));

    assertThat(db.payments("T12")).isEqualTo(1);
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
    assertThat(db.orderStatus("A12")).isEqualTo("partially_refunded");
    assertThat(db.string("SELECT CONCAT(refund_no, ' ', amount_cents, ' ', status) FROM refunds"))
        .isEqualTo("RF1 2000 settled");
    assertThat(db.outcomes("alipay:refund:T12:RF1")).isEqualTo("processed");
  }

  @Test
  void gbkNotificationIsVerifiedInItsOwnCharset() {
    db.insertOrder("A13", 25600);
    Map<String, String> params = payment("A13", "T13", "256.00");
    params.put("charset", "gbk");
    params.put("subject", "测试商品·年度会员");
    String body = AlipayNotifications.signedBody(params, AlipayNotifications.PRIVATE_KEY,
        Charset.forName("GBK"));
    Reply reply = Http.post(service.port(), "/notify/alipay", "application/x-www-form-urlencoded; charset=gbk",
        body.getBytes(StandardCharsets.US_ASCII));
    assertThat(reply).isEqualTo(new Reply(200, "success"));
    assertThat(db.orderStatus("A13")).isEqualTo("paid");
  }

  @Test
  void oversizedBodyIsRefusedWith413() {
    String body = signedBody(payment("A14", "T14", "1.00")) + "&pad=" + "x".repeat(70_000);
    assertThat(service.postAlipay(body)).isEqualTo(new Reply(413, "fail"));
  }

  @Test
  void healthAnswersWhileTheDatabaseDoes() throws Exception {
    assertThat(Http.get(service.port(), "/health").status()).isEqualTo(200);
  }

  private static String anomalyKinds(String tradeNo) {
    return db.string("SELECT GROUP_CONCAT(kind ORDER BY id) FROM anomalies WHERE trade_no = ?", tradeNo);
  }

  private static void assertNothingBooked(String orderNo) {
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    assertThat(db.count("SELECT COUNT(*) FROM idempotent_keys")).isZero();
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
    assertThat(db.orderStatus(orderNo)).isEqualTo("unpaid");
  }
}
