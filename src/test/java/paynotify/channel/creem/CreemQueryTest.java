package paynotify.channel.creem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import paynotify.booking.Fingerprint;
import paynotify.channel.NotifyEvent;
import paynotify.channel.TradeAnswer;
import paynotify.channel.TradeAnswer.State;
import paynotify.net.OutboundFailure;
import paynotify.net.OutboundHttp;
import paynotify.testsupport.CreemApiStandIn;
import paynotify.testsupport.CreemNotifications;

/**
 * What {@link CreemQuery} makes of Creem's answers (its API played by {@link CreemApiStandIn}, checking the key): a
 * paid checkout is the payment its checkout.completed webhook would book, with the same key and fingerprint; every
 * other answer, refusal and failure is the state or failure recovery acts on.
 */
class CreemQueryTest {
  static final String CHECKOUT = "ch_1QyIQDw9cbFWdA1ry5Qc6I";
  static final String ORDER = "ord_4aDwWXjMLpes4Kj4XqNnUA";

  CreemApiStandIn creem = CreemApiStandIn.start();
  Vertx vertx = Vertx.vertx();
  OutboundHttp http = new OutboundHttp(vertx, Duration.ofSeconds(5), 1024 * 1024);
  CreemChannel live = new CreemChannel(CreemNotifications.SECRET, CreemNotifications.CURRENCY, false);

  @AfterEach
  void stop() {
    vertx.close().await();
    creem.close();
  }

  CreemQuery query(String key, CreemChannel channel) {
    return new CreemQuery(http, creem.url(), key, channel);
  }

  TradeAnswer ask(String orderNo, String id) {
    return query(CreemApiStandIn.KEY, live).query(orderNo, id).await();
  }

  static OutboundFailure failure(Future<?> asked) {
    return (OutboundFailure) catchThrowable(asked::await);
  }

  @Test
  void aPaidCheckoutIsThePaymentItsWebhookBooks() throws Exception {
    creem.paid(CHECKOUT, "Q1", ORDER, 2500, "USD");

    TradeAnswer answer = ask("Q1", CHECKOUT);

    NotifyEvent webhook = live.read(CreemNotifications.event("evt_q1", "checkout.completed", creem.checkout(CHECKOUT)));
    assertThat(answer.state()).isEqualTo(State.PAID);
    assertThat(Fingerprint.of(answer.payment())).isEqualTo(Fingerprint.of(webhook));
    assertThat(answer.payment()).usingRecursiveComparison().ignoringFields("paidAt").isEqualTo(webhook);
    assertThat(answer.payment().detail()).contains(CHECKOUT).contains("tran_" + ORDER);
    assertThat(new String(answer.body())).contains("\"request_id\":\"Q1\"");
  }

  @Test
  void anotherCurrencyIsTheWebhooksForeignPayment() {
    creem.paid(CHECKOUT, "Q2", ORDER, 2500, "EUR");

    assertThat(ask("Q2", CHECKOUT).payment().foreignCurrency()).isEqualTo("EUR");
  }

  @Test
  void moneyGoneBackSinceIsRefundedNotPaid() {
    creem.paid(CHECKOUT, "Q3", ORDER, 2500, "USD");
    creem.refunded(ORDER, "partialRefund", 1000);

    TradeAnswer answer = ask("Q3", CHECKOUT);

    assertThat(answer.state()).isEqualTo(State.REFUNDED);
    assertThat(answer.platformStatus()).isEqualTo("completed, transaction tran_" + ORDER + " partialRefund");
    assertThat(answer.payment().tradeNo()).isEqualTo(ORDER);
  }

  @Test
  void openExpiredAndUnknownCheckouts() {
    creem.open(CHECKOUT, "Q4");
    assertThat(ask("Q4", CHECKOUT)).extracting(TradeAnswer::state, TradeAnswer::platformStatus)
        .containsExactly(State.WAITING, "pending");
    creem.expired(CHECKOUT, "Q4");
    assertThat(ask("Q4", CHECKOUT).state()).isEqualTo(State.CLOSED);
    assertThat(ask("Q4", "ch_2Tpem7XokBz1DRX7YIQFo5")).extracting(TradeAnswer::state, TradeAnswer::platformStatus)
        .containsExactly(State.NOT_FOUND, "checkout ch_2Tpem7XokBz1DRX7YIQFo5 not found");
  }

  /** "Not your number": a checkout made for another order (request_id, else metadata.order_no) books nothing. */
  @Test
  void aCheckoutOfAnotherOrderIsNotBelieved() {
    creem.paid(CHECKOUT, "Q5-other", ORDER, 2500, "USD");

    OutboundFailure f = failure(query(CreemApiStandIn.KEY, live).query("Q5", CHECKOUT));

    assertThat(f.kind()).isEqualTo(OutboundFailure.Kind.UNTRUSTED);
    assertThat(f.getMessage()).contains("answered about another order").contains("request_id Q5-other");
  }

  /** A completed checkout its webhook's reading cannot use (its order names no currency): not believed, said why. */
  @Test
  void aCompletedCheckoutItsWebhookCouldNotBeReadAsIsNotBelieved() {
    creem.paid(CHECKOUT, "Q9", ORDER, 2500, "USD");
    creem.withoutOrderField(CHECKOUT, "currency");

    OutboundFailure f = failure(query(CreemApiStandIn.KEY, live).query("Q9", CHECKOUT));

    assertThat(f.kind()).isEqualTo(OutboundFailure.Kind.UNTRUSTED);
    assertThat(f.getMessage()).contains("completed checkout is not usable");
  }

  @Test
  void aMalformedIdIsNotAsked() {
    for (String id : new String[] {"ord_4aDwWXjMLpes4Kj4XqNnUA", "ch_", "ch_a&checkout_id=ch_b", "ch_" + "a".repeat(62),
        "6f1a2b3c-55bf-93fc-0010-000000000001"}) {
      assertThat(failure(query(CreemApiStandIn.KEY, live).query("Q6", id)).getMessage())
          .contains("is not a Creem checkout id");
    }
    assertThat(failure(query(CreemApiStandIn.KEY, live).query("Q6")).kind()).isEqualTo(OutboundFailure.Kind.REFUSED);
    assertThat(creem.requests()).isZero();
  }

  @Test
  void testModeIsRefusedUnlessTestModeIsOn() {
    creem.paid(CHECKOUT, "Q7", ORDER, 2500, "USD");
    creem.mode(CHECKOUT, "test");

    OutboundFailure f = failure(query(CreemApiStandIn.KEY, live).query("Q7", CHECKOUT));

    assertThat(f.kind()).isEqualTo(OutboundFailure.Kind.REFUSED);
    assertThat(f.getMessage()).contains("mode 'test'").contains("creem.test_mode").contains("creem.api_key_file");
    CreemChannel testing = new CreemChannel(CreemNotifications.SECRET, CreemNotifications.CURRENCY, true);
    assertThat(query(CreemApiStandIn.KEY, testing).query("Q7", CHECKOUT).await().payment().testMode()).isTrue();
  }

  @Test
  void anotherKeyIsRefusedNamingTheKeyFile() {
    creem.paid(CHECKOUT, "Q8", ORDER, 2500, "USD");

    OutboundFailure f = failure(query("creem_another_account_key", live).query("Q8", CHECKOUT));

    assertThat(f.kind()).isEqualTo(OutboundFailure.Kind.REFUSED);
    assertThat(f.getMessage()).startsWith("creem checkout: HTTP 403 Forbidden: creem.api_key_file must hold");
    assertThat(creem.refusedRequests()).isEqualTo(1);
  }

  @Test
  void creemDownIsAskedAgainLater() {
    creem.paid(CHECKOUT, "Q9", ORDER, 2500, "USD");
    creem.down(true);

    assertThat(failure(query(CreemApiStandIn.KEY, live).query("Q9", CHECKOUT)).kind())
        .isEqualTo(OutboundFailure.Kind.UNAVAILABLE);
  }
}
