package paynotify.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.util.Map;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.Notification;
import paynotify.testsupport.TokenPayNotifications;
import paynotify.testsupport.TokenPayStandIn;

/**
 * tokenpay.confirm_before_book against TokenPay's {@code /Query} (its stand-in, checking the Signature with the
 * ApiToken), which is asked by TokenPay's own Id, the one the signed notification carries: what every channel's
 * confirmation does ({@link ConfirmBeforeBookTestBase}), and what asking by Id only adds: an order is never asked
 * about by its number, only the trades whose notifications wait.
 */
class TokenPayConfirmBeforeBookTest extends ConfirmBeforeBookTestBase<TokenPayStandIn> {
  @Override
  TokenPayStandIn startPlatform() {
    return TokenPayStandIn.start();
  }

  @Override
  String section() {
    return "tokenpay";
  }

  @Override
  Reply success() {
    return new Reply(200, "ok");
  }

  @Override
  String trade(int n) {
    return String.format("6f1a2b3c-55bf-93fc-0010-%012d", n);
  }

  @Override
  Notification paid(String orderNo, String tradeNo, String amount) {
    return TokenPayNotifications.signed(TokenPayNotifications.paid(orderNo, tradeNo, cents(amount)));
  }

  @Override
  void pending(String orderNo, String tradeNo) {
    platform.pending(orderNo, tradeNo, "88.88");
  }

  @Override
  String pendingWord() {
    return "is Pending";
  }

  @Override
  String paidWord() {
    return "is Paid";
  }

  private static long cents(String amount) {
    return new BigDecimal(amount).movePointRight(2).longValueExact();
  }

  @Test
  void expiredAtTokenPayNothingIsBooked() {
    order("C15");
    platform.expired("C15", trade(15), "88.88");

    assertThat(unconfirmed("C15", trade(15))).startsWith(trade(15) + " 8888 open: ").contains("is Expired");
  }

  /** TokenPay's Id paid, but for another OutOrderId than the notification named. */
  @Test
  void paidForAnotherOrderNothingIsBooked() {
    order("C16");
    platform.paid("C16-other", trade(16), "88.88");

    assertThat(unconfirmed("C16", trade(16))).contains("could not confirm trade " + trade(16))
        .contains("answered about another order").contains("OutOrderId C16-other");
  }

  @Test
  void anIdTokenPayDoesNotKnowNothingIsBooked() {
    order("C17");

    assertThat(unconfirmed("C17", trade(17))).contains("订单不存在");
  }

  /** A .NET decimal of scale 2 ({@code 88.80}) is the notification's {@code 88.8}: the same money. */
  @Test
  void theAmountIsComparedAsMoneyNotAsText() {
    order("C18");
    platform.paid("C18", trade(18), "88.80");

    assertThat(service.send(paid("C18", trade(18), "88.8"))).isEqualTo(success());

    assertThat(db.payments(trade(18))).isEqualTo(1);
    assertThat(platform.refusedRequests()).isZero();
  }

  /** TokenPay cannot be asked by order number: an unpaid order no notification waits for is never asked about. */
  @Test
  void anOrderNoNotificationWaitsForIsNeverAsked() {
    order("C10");
    platform.paid("C10", trade(10), "88.88");

    service.server().recovery().sweepOnce().await();

    assertThat(platform.queries("C10")).isZero();
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
  }

  /** The site's return page asks about an order whose notification waits: by that Id, and a Paid books it. */
  @Test
  void theReturnPagesCheckAsksByTheWaitingIdAndBooks() {
    order("C21");
    pending("C21", trade(21));
    unconfirmed("C21", trade(21));
    platform.paid("C21", trade(21), "88.88");

    CheckAnswer answer = service.server().recovery().check("C21").await();

    assertThat(answer.state()).isEqualTo(CheckAnswer.State.PAID);
    assertThat(answer.platformStatus()).isEqualTo("Paid");
    assertThat(db.payments(trade(21))).isEqualTo(1);
    assertThat(waiting("C21")).startsWith(trade(21) + " 8888 resolved: ");
  }

  @Test
  void theReturnPagesCheckOfAnOrderNoNotificationWaitsForAsksNothing() {
    order("C22");
    platform.paid("C22", trade(22), "88.88");

    CheckAnswer answer = service.server().recovery().check("C22").await();

    assertThat(answer.state()).isEqualTo(CheckAnswer.State.UNPAID);
    assertThat(answer.detail()).contains("asked by its own id only").contains("order C22 has none")
        .contains("orders.columns.platform_ref is not mapped");
    assertThat(platform.requests()).isZero();
  }

  /** A paynotify holding another ApiToken than TokenPay's: its question refused as TokenPay refuses it, none booked. */
  @Test
  void aQuerySignedWithAnotherApiTokenIsRefusedAndNothingIsBooked() {
    service.close();
    service = start(new JsonObject().put("tokenpay",
        new JsonObject().put("key", TokenPayNotifications.OTHER_API_TOKEN)));
    order("C19");
    platform.paid("C19", trade(19), "88.88");

    assertThat(service.send(TokenPayNotifications.post(TokenPayNotifications.signed(TokenPayNotifications.paid("C19",
        trade(19), 8888), TokenPayNotifications.OTHER_API_TOKEN)))).isEqualTo(new Reply(503, "fail"));

    assertThat(platform.refusedRequests()).isEqualTo(1);
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    assertThat(waiting("C19")).contains("签名验证失败").contains("tokenpay.key_file");
  }

  @Test
  void confirmBeforeBookOffBooksWithoutAsking() {
    service.close();
    service = start(new JsonObject().put("tokenpay", new JsonObject().put("confirm_before_book", false)));
    order("C20");

    assertThat(service.send(paid("C20", trade(20), "88.88"))).isEqualTo(success());

    assertThat(db.payments(trade(20))).isEqualTo(1);
    assertThat(platform.queries("C20")).isZero();
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
  }

  /**
   * A signed payment in another BaseCurrency than tokenpay.currency waits for confirmation as any; the sweeper's
   * confirming answer, which names no currency, does not book it (it would book 88.88 dollars as 88.88 yuan): only
   * its own notification, confirmed, does, as the currency_mismatch it is.
   */
  @Test
  void aPaymentInAnotherCurrencyIsNeverBookedByTheSweepersAnswer() {
    order("C30");
    pending("C30", trade(30));
    Map<String, Object> dollars = TokenPayNotifications.paid("C30", trade(30), 8888);
    dollars.put("BaseCurrency", "USD");
    assertThat(service.send(TokenPayNotifications.signed(dollars)).status()).isEqualTo(503);
    platform.paid("C30", trade(30), "88.88");

    service.server().recovery().sweepOnce().await();

    assertThat(db.orderStatus("C30")).isEqualTo("unpaid");
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    assertThat(db.string("SELECT GROUP_CONCAT(kind ORDER BY kind) FROM anomalies WHERE order_no = 'C30'"))
        .isEqualTo("awaiting_confirmation,query_says_paid");

    assertThat(service.send(TokenPayNotifications.signed(dollars))).isEqualTo(success());

    assertThat(db.orderStatus("C30")).isEqualTo("unpaid");
    assertThat(db.string("SELECT GROUP_CONCAT(kind ORDER BY kind) FROM anomalies WHERE order_no = 'C30'"))
        .isEqualTo("awaiting_confirmation,currency_mismatch,query_says_paid");
    assertThat(waiting("C30")).startsWith(trade(30) + " 8888 resolved: ");
  }
}
