package paynotify.channel.alipay;

import static org.assertj.core.api.Assertions.assertThat;
import static paynotify.testsupport.AlipayNotifications.payment;
import static paynotify.testsupport.AlipayNotifications.signedBody;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.AlipayNotifications;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.Http;
import paynotify.testsupport.ServiceTestBase;

/**
 * Alipay's own rules over POST /notify/alipay, real HTTP, real database: its ids, amounts, seller,
 * statuses, refunds and charsets. What every channel guarantees is in {@code http.ChannelContractTest}.
 */
class AlipayNotifyFlowTest extends ServiceTestBase {
  // Empty or absent ids: rejected before anything is written.
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
    service.awaitLogRecorded();
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

  // Forged or foreign notifications.
  @Test
  void badSignatureIsRejected() {
    db.insertOrder("A8", 100);
    Map<String, String> params = payment("A8", "T8", "1.00");
    params.put(AlipaySignature.SIGN_TYPE, AlipaySignature.Algorithm.RSA2.name());
    params.put(AlipaySignature.SIGN, Base64.getEncoder().encodeToString(new byte[256]));
    assertThat(service.postAlipay(AlipayNotifications.form(params, StandardCharsets.UTF_8)))
        .isEqualTo(new Reply(401, "fail"));
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
    service.awaitLogRecorded();
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

  /**
   * Review S2: the buyer's return_url parameters are signed like a notification but carry no
   * notify_type and notify_id (nor trade_status): refused as malformed, kept without their body.
   */
  @Test
  void returnUrlParametersAreRefused() {
    db.insertOrder("A20", 100);
    Map<String, String> returnUrl = payment("A20", "T20", "1.00");
    returnUrl.remove("notify_type");
    returnUrl.remove("notify_id");
    returnUrl.remove("trade_status");
    returnUrl.put("method", "alipay.trade.page.pay.return");
    returnUrl.put("timestamp", "2026-11-29 10:15:12");
    Map<String, String> otherType = payment("A20", "T20", "1.00");
    otherType.put("notify_type", "batch_refund_notify");
    Map<String, String> emptyId = payment("A20", "T20", "1.00");
    emptyId.put("notify_id", " ");

    for (Map<String, String> params : List.of(returnUrl, otherType, emptyId)) {
      assertThat(service.postAlipay(signedBody(params))).isEqualTo(new Reply(400, "fail"));
    }
    assertNothingBooked("A20");
    service.awaitLogRecorded();
    assertThat(db.column("SELECT CONCAT(outcome, ' ', body_bytes, ' ', raw_body IS NULL, ' ', detail) FROM notify_log"))
        .hasSize(3).allMatch(row -> row.startsWith("rejected ") && row.contains(" 1 MALFORMED: not an asynchronous"
            + " notification"));
  }

  /** Review N1: a signed text field holding &<an Alipay parameter>= could be re-split under the same signature. */
  @Test
  void textThatCouldBeReSplitIsRefused() {
    db.insertOrder("A21", 100);
    db.insertOrder("A22", 100);
    Map<String, String> params = payment("A21", "T21", "1.00");
    params.put("body", "x&out_trade_no=A22&trade_no=T22");
    assertThat(service.postAlipay(signedBody(params))).isEqualTo(new Reply(400, "fail"));
    assertNothingBooked("A21");
    assertNothingBooked("A22");
    service.awaitLogRecorded();
    assertThat(db.string("SELECT CONCAT(outcome, ' ', detail) FROM notify_log"))
        .startsWith("rejected MALFORMED: body holds '&out_trade_no='");
  }

  @Test
  void textWithAnAmpersandOfItsOwnStillBooks() {
    db.insertOrder("A23", 100);
    Map<String, String> params = payment("A23", "T23", "1.00");
    params.put("subject", "Tea & Cake");
    params.put("passback_params", "{\"uid\":7,\"note\":\"a&b=c\"}");
    assertThat(service.postAlipay(signedBody(params))).isEqualTo(new Reply(200, "success"));
    assertThat(db.orderStatus("A23")).isEqualTo("paid");
  }

  private static void assertNothingBooked(String orderNo) {
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    assertThat(db.count("SELECT COUNT(*) FROM idempotent_keys")).isZero();
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
    assertThat(db.orderStatus(orderNo)).isEqualTo("unpaid");
  }

  /**
   * S2: every buyer holds a genuine signed message that books nothing (the return URL's parameters,
   * no trade_status). Its rows keep no body, and padding it with blank parameters (unsigned, so it
   * still verified: 16 KiB per replay into notify_log) is refused before verification.
   */
  @Test
  void returnUrlMessageKeepsNoBodyAndBlankPaddingIsRefused() {
    db.insertOrder("RU1", 100);
    Map<String, String> returned = payment("RU1", "T-RU1", "1.00");
    returned.remove("trade_status");
    String body = signedBody(returned);
    assertThat(service.postAlipay(body)).isEqualTo(new Reply(200, "success"));
    String padded = body + IntStream.range(0, 100)
        .mapToObj(i -> "&p" + i + "=").collect(Collectors.joining());
    for (int replay = 0; replay < 30; replay++) {
      assertThat(service.postAlipay(padded).status()).isEqualTo(400);
    }
    service.awaitLogRecorded();
    assertThat(db.count("SELECT COUNT(*) FROM notify_log WHERE outcome = 'ignored'")).isEqualTo(1);
    assertThat(db.count("SELECT COUNT(*) FROM notify_log WHERE raw_body IS NOT NULL")).isZero();
    assertThat(db.string("SELECT detail FROM notify_log WHERE outcome = 'rejected' LIMIT 1"))
        .contains("more than 32 blank values");
    assertThat(db.orderStatus("RU1")).isEqualTo("unpaid");
  }
}
