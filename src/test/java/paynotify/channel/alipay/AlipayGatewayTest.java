package paynotify.channel.alipay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.security.KeyPairGenerator;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import paynotify.channel.EventKind;
import paynotify.channel.NotifyEvent;
import paynotify.channel.NotifyRequest;
import paynotify.channel.TradeAnswer.State;
import paynotify.channel.TradeAnswer;
import paynotify.crypto.MerchantKey;
import paynotify.crypto.MerchantKeyTest;
import paynotify.crypto.PublicKeys;
import paynotify.net.OutboundFailure;
import paynotify.net.OutboundHttp;
import paynotify.testsupport.AlipayNotifications;
import paynotify.testsupport.AlipayStandIn;
import paynotify.testsupport.PlatformStandIn.Mode;
import paynotify.testsupport.SyncCheck;

/**
 * alipay.trade.query and alipay.trade.close against Alipay's gateway played by {@link AlipayStandIn}, which
 * checks every request's sign with the SDK and signs its answers with the SDK.
 */
class AlipayGatewayTest {
  static final AlipaySignature SIGNATURE = new AlipaySignature(PublicKeys.parseRsa(AlipayNotifications.PUBLIC_KEY_PEM),
      AlipaySignature.Algorithm.RSA2, AlipayNotifications.APP_ID, AlipayNotifications.SELLER_ID);

  Vertx vertx;
  OutboundHttp http;
  AlipayStandIn alipay;
  AlipayGateway gateway;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    http = new OutboundHttp(vertx, Duration.ofSeconds(2), 64 * 1024);
    alipay = AlipayStandIn.start();
    gateway = gateway(MerchantKeyTest.read(alipay.appKeyFile()));
  }

  AlipayGateway gateway(MerchantKey key) {
    return new AlipayGateway(new AlipayOpenApi(http, alipay.url(), AlipayNotifications.APP_ID, key, SIGNATURE,
        Clock.systemUTC()));
  }

  @AfterEach
  void stop() {
    alipay.close();
    vertx.close().await();
  }

  @Test
  void aPaidTradeIsThePaymentItsNotificationWouldHaveCarried() throws Exception {
    alipay.paid("Q1", "2026120422001400001", "88.88");
    TradeAnswer answer = gateway.query("Q1").await();
    assertThat(answer.state()).isEqualTo(State.PAID);
    assertThat(answer.platformStatus()).isEqualTo("TRADE_SUCCESS");
    NotifyEvent notified = SyncCheck.event(new AlipayChannel(SIGNATURE), new NotifyRequest("POST",
        MultiMap.caseInsensitiveMultiMap(), null, Buffer.buffer(AlipayNotifications.signedBody(
            AlipayNotifications.payment("Q1", "2026120422001400001", "88.88")))));
    assertThat(answer.payment()).usingRecursiveComparison().ignoringFields("paidAt").isEqualTo(notified);
    assertThat(answer.payment().kind()).isEqualTo(EventKind.PAYMENT);
    assertThat(answer.payment().amountCents()).isEqualTo(8888);
    assertThat(new String(answer.body())).contains("\"alipay_trade_query_response\"");
    assertThat(alipay.queries("Q1")).isEqualTo(1);
  }

  @Test
  void aFinishedTradeIsPaidToo() {
    alipay.finished("Q2", "2026120422001400002", "1.00");
    assertThat(gateway.query("Q2").await()).extracting(TradeAnswer::state, TradeAnswer::platformStatus)
        .containsExactly(State.PAID, "TRADE_FINISHED");
  }

  @Test
  void waitingUnknownAndClosedTradesAreNotPayments() {
    alipay.waiting("W");
    alipay.closed("C");
    assertThat(gateway.query("W").await()).extracting(TradeAnswer::state, TradeAnswer::platformStatus)
        .containsExactly(State.WAITING, "WAIT_BUYER_PAY");
    assertThat(gateway.query("N").await()).extracting(TradeAnswer::state, TradeAnswer::platformStatus)
        .containsExactly(State.NOT_FOUND, "ACQ.TRADE_NOT_EXIST");
    assertThat(gateway.query("C").await()).extracting(TradeAnswer::state, TradeAnswer::platformStatus)
        .containsExactly(State.CLOSED, "TRADE_CLOSED");
  }

  /**
   * TRADE_CLOSED is also a trade paid, then refunded in full (未付款交易超时关闭，或支付完成后全额退款): its answer keeps the
   * payment's send_pay_date, which a trade closed unpaid has not. Never a payment to book as paid (M1).
   */
  @Test
  void aTradeClosedAfterItWasPaidWasRefunded() {
    alipay.paid("R", "2026120422001400009", "88.88");
    alipay.refunded("R");
    TradeAnswer answer = gateway.query("R").await();
    assertThat(answer.state()).isEqualTo(State.REFUNDED);
    assertThat(answer.platformStatus()).isEqualTo("TRADE_CLOSED");
    assertThat(answer.payment().tradeNo()).isEqualTo("2026120422001400009");
    assertThat(answer.payment().amountCents()).isEqualTo(8888);
  }

  @Test
  void anAnswerSignedWithAnotherKeyIsNotTrusted() {
    alipay.paid("B1", "2026120422001400003", "88.88");
    alipay.mode(Mode.BAD_SIGNATURE);
    assertThat(failure(gateway.query("B1"))).extracting(OutboundFailure::kind).isEqualTo(OutboundFailure.Kind.UNTRUSTED);
    // a "does not exist" that does not verify is not believed either: it could close the order
    assertThat(failure(gateway.query("B2"))).extracting(OutboundFailure::kind).isEqualTo(OutboundFailure.Kind.UNTRUSTED);
  }

  @Test
  void aRequestSignedWithAnotherApplicationKeyIsRefusedByAlipay() throws Exception {
    KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
    rsa.initialize(2048);
    MerchantKey other = MerchantKey.parse(Base64.getEncoder().encodeToString(rsa.generateKeyPair().getPrivate()
        .getEncoded()), "test key");
    alipay.paid("K1", "2026120422001400004", "88.88");
    OutboundFailure refused = failure(gateway(other).query("K1"));
    assertThat(refused.kind()).isEqualTo(OutboundFailure.Kind.REFUSED);
    assertThat(refused.getMessage()).contains("isv.invalid-signature");
    assertThat(alipay.refusedRequests()).isEqualTo(1);
    assertThat(alipay.queries("K1")).isZero();
  }

  @Test
  void aPlatformDownOrSlowIsUnavailable() {
    alipay.mode(Mode.DOWN);
    assertThat(failure(gateway.query("D1")).kind()).isEqualTo(OutboundFailure.Kind.UNAVAILABLE);
    alipay.mode(Mode.SLOW);
    long started = System.nanoTime();
    assertThat(failure(gateway.query("S1")).kind()).isEqualTo(OutboundFailure.Kind.UNAVAILABLE);
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(15));
  }

  @Test
  void closingAWaitingTradeClosesItAndAPaidOneIsNotClosed() {
    alipay.waiting("X1");
    gateway.close("X1").await();
    assertThat(alipay.state("X1")).isEqualTo("TRADE_CLOSED");
    assertThat(alipay.closes("X1")).isEqualTo(1);

    gateway.close("X2").await(); // no trade: nothing can be paid on it either
    assertThat(alipay.closes("X2")).isEqualTo(1);

    alipay.paid("X3", "2026120422001400005", "88.88");
    OutboundFailure paid = failure(gateway.close("X3"));
    assertThat(paid.kind()).isEqualTo(OutboundFailure.Kind.REFUSED);
    assertThat(paid.getMessage()).contains("ACQ.TRADE_STATUS_ERROR");
    assertThat(alipay.state("X3")).isEqualTo("TRADE_SUCCESS");
  }

  static OutboundFailure failure(Future<?> call) {
    assertThatThrownBy(call::await).isInstanceOf(OutboundFailure.class);
    try {
      call.await();
      throw new AssertionError("did not fail");
    } catch (OutboundFailure e) {
      return e;
    }
  }
}
