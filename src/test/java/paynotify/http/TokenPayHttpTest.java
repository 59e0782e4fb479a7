package paynotify.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.ChannelFixture;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.Notification;
import paynotify.testsupport.ServiceTestBase;
import paynotify.testsupport.TokenPayNotifications;

/** TokenPay's own rules over HTTP; what every channel does is in {@link ChannelContractTest}. */
class TokenPayHttpTest extends ServiceTestBase {
  private static final ChannelFixture TOKENPAY = ChannelFixture.tokenpay();
  private static final String ID = "6f1a2b3c-55bf-93fc-0010-67be493c0c27";

  // OrderNotifyService: StatusCode == 200 && body == "ok", exactly; the redelivery a minute later is a duplicate.
  @Test
  void aNotificationBooksOnceAndIsAnsweredExactlyOk() throws Exception {
    db.insertOrder("K1", 1999);
    Notification n = TokenPayNotifications.signed(TokenPayNotifications.paid("K1", ID, 1999));
    HttpResponse<String> first = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + service.port() + n.path())).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(n.body())).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(first.statusCode()).isEqualTo(200);
    assertThat(first.body()).isEqualTo("ok");
    assertThat(first.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith(
        "text/plain"));
    assertThat(service.send(n)).isEqualTo(new Reply(200, "ok"));

    assertThat(db.string("SELECT CONCAT(status, ' ', channel, ' ', trade_no) FROM orders WHERE order_no = 'K1'"))
        .isEqualTo("paid tokenpay " + ID);
    assertThat(db.payments(ID)).isEqualTo(1);
    assertThat(db.outcomes("tokenpay:pay:" + ID)).isEqualTo("processed,duplicate");
    JsonObject detail = detail(ID);
    assertThat(detail.getMap()).containsOnlyKeys("Amount", "PayAmount", "Currency", "BlockChainName",
        "BlockTransactionId", "IsDynamicAmount");
    assertThat(detail.getString("Currency")).isEqualTo("USDT_TRC20");
    assertThat(detail.getString("BlockTransactionId")).isEqualTo(TokenPayNotifications.TRON_TX);
    assertThat(detail.getInteger("IsDynamicAmount")).isZero();
  }

  // System.Text.Json's escaping (backslash-u escapes) and an amount sent as a number book the same.
  @Test
  void anEscapedBodyAndANumericAmountBook() {
    db.insertOrder("K&2", 2000);
    db.insertOrder("K3", 1550);
    Map<String, Object> escaped = TokenPayNotifications.paid("K&2", id(2), 2000);
    escaped.put("PassThroughInfo", "订单 № 2");
    assertThat(service.send(TokenPayNotifications.postEscaped(TokenPayNotifications.signed(escaped,
        TokenPayNotifications.API_TOKEN)))).isEqualTo(new Reply(200, "ok"));
    Map<String, Object> numeric = TokenPayNotifications.paid("K3", id(3), 1550);
    numeric.put("ActualAmount", new BigDecimal("15.50"));
    assertThat(service.send(TokenPayNotifications.signed(numeric))).isEqualTo(new Reply(200, "ok"));

    assertThat(db.orderStatus("K&2")).isEqualTo("paid");
    assertThat(db.orderStatus("K3")).isEqualTo("paid");
    assertThat(db.string("SELECT amount_cents FROM payments WHERE trade_no = ?", id(3))).isEqualTo("1550");
  }

  // TokenPay notifies paid orders only; a signed 0 (waiting) or 2 (expired) is acknowledged and books nothing.
  @Test
  void aSignedStatusOtherThanPaidBooksNothing() {
    db.insertOrder("K4", 1999);
    for (int status : new int[] {0, 2}) {
      Map<String, Object> f = TokenPayNotifications.paid("K4", ID, 1999);
      f.put("Status", status);
      assertThat(service.send(TokenPayNotifications.signed(f))).as("Status " + status).isEqualTo(new Reply(200, "ok"));
    }
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
    assertThat(db.orderStatus("K4")).isEqualTo("unpaid");
    assertThat(db.column("SELECT outcome FROM notify_log")).containsExactly("ignored", "ignored");
  }

  // BaseCurrency is TokenPay's fiat: another than tokenpay.currency (CNY) is kept, never converted, the order unpaid.
  @Test
  void anotherBaseCurrencyIsACurrencyMismatchAndNoneIsTheConfiguredOne() {
    db.insertOrder("K5", 1999);
    db.insertOrder("K6", 1999);
    Map<String, Object> usd = TokenPayNotifications.paid("K5", id(5), 1999);
    usd.put("BaseCurrency", "USD");
    assertThat(service.send(TokenPayNotifications.signed(usd))).isEqualTo(new Reply(200, "ok"));
    Map<String, Object> none = TokenPayNotifications.paid("K6", id(6), 1999);
    none.remove("BaseCurrency");
    assertThat(service.send(TokenPayNotifications.signed(none))).isEqualTo(new Reply(200, "ok"));

    assertThat(db.orderStatus("K5")).isEqualTo("unpaid");
    assertThat(db.payments(id(5))).isEqualTo(1);
    assertThat(db.string("SELECT CONCAT(kind, ' ', detail) FROM anomalies WHERE trade_no = ?", id(5)))
        .startsWith("currency_mismatch").contains("in USD");
    assertThat(db.orderStatus("K6")).isEqualTo("paid");
  }

  // A dynamic-amount order matched within the owner's tolerance: booked as paid, the coin shortfall in the detail.
  @Test
  void aDynamicAmountPaidShortOfAmountIsBookedWithBothInTheDetail() {
    db.insertOrder("K7", 1999);
    Map<String, Object> f = TokenPayNotifications.paid("K7", ID, 1999);
    f.put("PayAmount", "2.7500");
    f.put("IsDynamicAmount", 1);
    assertThat(service.send(TokenPayNotifications.signed(f))).matches(TOKENPAY.success());

    assertThat(db.orderStatus("K7")).isEqualTo("paid");
    JsonObject detail = detail(ID);
    assertThat(detail.getString("Amount")).isEqualTo("2.7581");
    assertThat(detail.getString("PayAmount")).isEqualTo("2.7500");
    assertThat(detail.getInteger("IsDynamicAmount")).isEqualTo(1);
  }

  // A name twice: the signature over one Status and a read of the other must not meet.
  @Test
  void aBodyWithAFieldTwiceIsRefused() {
    db.insertOrder("K8", 1999);
    Map<String, Object> f = TokenPayNotifications.paid("K8", ID, 1999);
    f.put("Status", 0);
    String signed = new String(TokenPayNotifications.signed(f).body(), StandardCharsets.UTF_8);
    Reply reply = service.send(Notification.post(TokenPayNotifications.PATH, "application/json",
        signed.replace("\"Status\":0", "\"Status\":0,\"Status\":1")));
    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply).matches(TOKENPAY.refusal());
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
  }

  // A signed amount of three places (a TokenPay whose column was widened): nothing booked, the order named.
  @Test
  void anUnreadableAmountIsAnAnomalyNamingTheOrder() {
    db.insertOrder("K9", 1999);
    Map<String, Object> f = TokenPayNotifications.paid("K9", ID, 1999);
    f.put("ActualAmount", "19.990");
    assertThat(service.send(TokenPayNotifications.signed(f))).matches(TOKENPAY.success());
    assertThat(db.string("SELECT CONCAT(kind, ' ', order_no, ' ', trade_no) FROM anomalies"))
        .isEqualTo("unreadable_notification K9 " + ID);
    assertThat(db.orderStatus("K9")).isEqualTo("unpaid");
  }

  /** Another of TokenPay's GUIDs. */
  private static String id(int n) {
    return ID.substring(0, ID.length() - 1) + n;
  }

  private static JsonObject detail(String tradeNo) {
    return new JsonObject(db.string("SELECT detail FROM payments WHERE trade_no = ?", tradeNo));
  }
}
