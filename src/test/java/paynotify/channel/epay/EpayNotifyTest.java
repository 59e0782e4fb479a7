package paynotify.channel.epay;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import paynotify.testsupport.EpayNotifications;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.Notification;
import paynotify.testsupport.ServiceTestBase;
import paynotify.testsupport.Vectors;

/** GET and POST /notify/epay over HTTP on the real database. */
class EpayNotifyTest extends ServiceTestBase {

  static Stream<JsonObject> cases() {
    return Vectors.cases(EpayNotifications.VECTORS).stream();
  }

  @ParameterizedTest(name = "{index} {0}")
  @MethodSource("cases")
  void serviceAcceptsExactlyTheValidVectors(JsonObject c) {
    JsonObject n = c.getJsonObject("expect").getJsonObject("normalized");
    JsonObject params = c.getJsonObject("request").getJsonObject("params");
    db.insertOrder(params.getString("out_trade_no"), 0);
    if (n != null) {
      db.update("UPDATE orders SET amount_cents = ? WHERE order_no = ?", n.getLong("amount_cents"), n.getString("order_no"));
    }
    Reply reply = service.send(Notification.get(EpayNotifications.PATH, c.getJsonObject("request").getString("query")));

    if (!c.getJsonObject("expect").getBoolean("valid")) {
      assertThat(reply).isEqualTo(new Reply(reply.status(), "fail"));
      assertThat(reply.status()).isBetween(400, 499);
      assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
      return;
    }
    assertThat(reply).isEqualTo(new Reply(200, "success"));
    assertThat(db.orderStatus(n.getString("order_no"))).isEqualTo("paid");
    assertThat(db.string("SELECT CONCAT(channel, ' ', trade_no, ' ', amount_cents) FROM payments"))
        .isEqualTo("epay " + n.getString("trade_no") + " " + n.getLong("amount_cents"));
  }

  @Test
  void formPostIsAcceptedLikeTheQuery() throws Exception {
    db.insertOrder("E1", 1250);
    Map<String, String> signed = EpayNotifications.signed(EpayNotifications.payment("E1", "TE1", "12.5"),
        EpayNotifications.KEY);
    assertThat(service.send(EpayNotifications.post(signed))).isEqualTo(new Reply(200, "success"));
    assertThat(db.orderStatus("E1")).isEqualTo("paid");
  }

  @Test
  void onlyTradeSuccessBooks() throws Exception {
    db.insertOrder("E2", 100);
    Map<String, String> params = EpayNotifications.payment("E2", "TE2", "1");
    params.put("trade_status", "TRADE_CLOSED");
    assertThat(service.send(EpayNotifications.get(EpayNotifications.signed(params, EpayNotifications.KEY))))
        .isEqualTo(new Reply(200, "success"));
    assertThat(db.orderStatus("E2")).isEqualTo("unpaid");
    assertThat(db.string("SELECT outcome FROM notify_log")).isEqualTo("ignored");
  }

  @Test
  void missingSignIsRejected() {
    db.insertOrder("E3", 100);
    Reply reply = service.send(EpayNotifications.get(EpayNotifications.payment("E3", "TE3", "1")));
    assertThat(reply).isEqualTo(new Reply(401, "fail"));
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
  }

  /** A GET carries the notification in its query string: that is what notify_log keeps as the raw body. */
  @Test
  void getKeepsItsQueryAsTheRawBody() throws Exception {
    db.insertOrder("E4", 100);
    Notification n = EpayNotifications.get(EpayNotifications.signed(EpayNotifications.payment("E4", "TE4", "1"),
        EpayNotifications.KEY));
    assertThat(service.send(n)).isEqualTo(new Reply(200, "success"));
    assertThat(db.string("SELECT CONCAT(outcome, ' ', body_bytes, ' ', CAST(raw_body AS CHAR)) FROM notify_log"))
        .isEqualTo("processed " + n.query().length() + " " + n.query());
  }

  /**
   * Review M1, variant A: the buyer's own genuine message (its sign on the return URL), whose name
   * the buyer wrote, re-split into a payment of another order with the same sign.
   */
  @Test
  void buyerTextInNameCannotPayAnotherOrder() {
    db.insertOrder("MINE", 1000);
    db.insertOrder("VICTIM", 1000);
    Map<String, String> genuine = EpayNotifications.payment("MINE", "T0", "10.00");
    genuine.put("name", "z&out_trade_no=VICTIM&pid=" + EpayNotifications.PID
        + "&trade_no=FAKE1&trade_status=TRADE_SUCCESS&type=");
    Map<String, String> forged = new LinkedHashMap<>(Map.of("pid", EpayNotifications.PID, "trade_no", "FAKE1",
        "out_trade_no", "VICTIM", "name", "z", "money", "10.00", "trade_status", "TRADE_SUCCESS",
        "type", "&out_trade_no=MINE&pid=" + EpayNotifications.PID + "&trade_no=T0&trade_status=TRADE_SUCCESS&type=alipay"));

    assertRefusedUnderTheGenuineSign(genuine, forged, "VICTIM");
    assertThat(db.orderStatus("MINE")).isEqualTo("unpaid");
  }

  /** Review M1, variant B: buyer text in param re-split into a trade the platform never made, for the same order. */
  @Test
  void buyerTextInParamCannotInventATrade() {
    db.insertOrder("MINE", 1000);
    Map<String, String> genuine = EpayNotifications.payment("MINE", "T0", "10.00");
    genuine.put("param", "X&pid=" + EpayNotifications.PID + "&trade_no=FAKE&trade_status=TRADE_SUCCESS&type=");
    Map<String, String> forged = EpayNotifications.payment("MINE", "FAKE", "10.00");
    forged.put("param", "X");
    forged.put("type", "&pid=" + EpayNotifications.PID + "&trade_no=T0&trade_status=TRADE_SUCCESS&type=alipay");

    assertRefusedUnderTheGenuineSign(genuine, forged, "MINE");
  }

  /** The forged parameters verify under the genuine message's sign, and are refused anyway: 400, recorded, nothing booked. */
  private void assertRefusedUnderTheGenuineSign(Map<String, String> genuine, Map<String, String> forged, String order) {
    String sign = EpayNotifications.signed(genuine, EpayNotifications.KEY).get(EpaySignature.SIGN);
    assertThat(EpayNotifications.signed(forged, EpayNotifications.KEY).get(EpaySignature.SIGN)).as("same sign")
        .isEqualTo(sign);
    forged.put(EpaySignature.SIGN, sign);
    forged.put(EpaySignature.SIGN_TYPE, "MD5");

    assertThat(service.send(EpayNotifications.post(forged))).isEqualTo(new Reply(400, "fail"));
    assertThat(db.orderStatus(order)).isEqualTo("unpaid");
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    service.awaitLogRecorded();
    assertThat(db.string("SELECT CONCAT(outcome, ' ', detail) FROM notify_log"))
        .startsWith("rejected MALFORMED: type holds '&").endsWith("refused as ambiguous");
  }

  /** The site's own text keeps booking: a plain &, and JSON whose strings hold & and = of names epay does not send. */
  @Test
  void textWithAnAmpersandOfItsOwnStillBooks() throws Exception {
    db.insertOrder("E5", 500);
    Map<String, String> params = EpayNotifications.payment("E5", "TE5", "5");
    params.put("name", "Tea & Cake");
    params.put("param", "{\"uid\":7,\"note\":\"a&b=c\"}");
    assertThat(service.send(EpayNotifications.post(EpayNotifications.signed(params, EpayNotifications.KEY))))
        .isEqualTo(new Reply(200, "success"));
    assertThat(db.orderStatus("E5")).isEqualTo("paid");
  }

  /** type is one of the platform's payment types; another is refused with the key that would accept it. */
  @Test
  void unknownPaymentTypeIsRefusedNamingTheKey() throws Exception {
    db.insertOrder("E6", 100);
    Map<String, String> params = EpayNotifications.payment("E6", "TE6", "1");
    params.put("type", "cashapp");
    assertThat(service.send(EpayNotifications.get(EpayNotifications.signed(params, EpayNotifications.KEY))))
        .isEqualTo(new Reply(400, "fail"));
    assertThat(db.orderStatus("E6")).isEqualTo("unpaid");
    service.awaitLogRecorded();
    assertThat(db.string("SELECT detail FROM notify_log")).isEqualTo("MALFORMED: type 'cashapp' is not one of"
        + " epay.payment_types [alipay, wxpay, qqpay, bank, jdpay, paypal, usdt, ecny]: if the platform offers it,"
        + " add it there");
  }
}
