package paynotify.channel.wechat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static paynotify.testsupport.WechatV2Notifications.API_KEY;
import static paynotify.testsupport.WechatV2Notifications.APP_ID;
import static paynotify.testsupport.WechatV2Notifications.MCH_ID;
import static paynotify.testsupport.WechatV2Notifications.OTHER_API_KEY;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import paynotify.booking.Fingerprint;
import paynotify.channel.EventKind;
import paynotify.channel.NotifyEvent;
import paynotify.channel.NotifyRequest;
import paynotify.channel.Platform;
import paynotify.channel.TradeAnswer.State;
import paynotify.channel.TradeAnswer;
import paynotify.net.OutboundFailure;
import paynotify.net.OutboundHttp;
import paynotify.testsupport.Notification;
import paynotify.testsupport.PlatformStandIn.Mode;
import paynotify.testsupport.WechatV2Notifications;
import paynotify.testsupport.WechatV2StandIn;

/** WechatV2Gateway against the stand-in of WeChat Pay v2's order API, over real HTTP. */
class WechatV2GatewayTest {
  private static Vertx vertx;
  private static OutboundHttp http;
  private final WechatV2StandIn wechat = WechatV2StandIn.start();

  /**
   * The first call loads the classes of both sides (Vert.x's client, the SDK's XML): on a busy machine that
   * alone can pass the 2 s limit, which is for the platform's answer, so it is made once beforehand.
   */
  @BeforeAll
  static void startVertx() {
    vertx = Vertx.vertx();
    http = new OutboundHttp(vertx, Duration.ofSeconds(2), 64 * 1024);
    try (WechatV2StandIn warm = WechatV2StandIn.start()) {
      done(new WechatV2Gateway(new WechatV2Client(new OutboundHttp(vertx, Duration.ofSeconds(30), 64 * 1024),
          warm.url(), new WechatV2Signature(API_KEY, WechatV2Signature.MD5, APP_ID, MCH_ID)))
          .query("WARM-UP"));
    }
  }

  @AfterAll
  static void stopVertx() {
    vertx.close().await();
  }

  @AfterEach
  void stopStandIn() {
    wechat.close();
  }

  private WechatV2Gateway gateway(String apiKey, String signType) {
    return new WechatV2Gateway(new WechatV2Client(http, wechat.url(),
        new WechatV2Signature(apiKey, signType, APP_ID, MCH_ID)));
  }

  private WechatV2Gateway gateway() {
    return gateway(API_KEY, WechatV2Signature.MD5);
  }

  @Test
  void paidTradeIsThePaymentItsNotificationBooks() {
    wechat.paid("WQ-1", "4200000001202611290001", "8888");
    wechat.paidAt("WQ-1", LocalDateTime.of(2026, 11, 29, 10, 15, 9)); // the notification's time_end: both book alike

    TradeAnswer answer = done(gateway().query("WQ-1"));

    assertThat(answer.state()).isEqualTo(State.PAID);
    assertThat(answer.platformStatus()).isEqualTo("SUCCESS");
    NotifyEvent payment = answer.payment();
    assertThat(payment.kind()).isEqualTo(EventKind.PAYMENT);
    assertThat(payment.platform()).isEqualTo(Platform.WECHAT);
    assertThat(payment.orderNo()).isEqualTo("WQ-1");
    assertThat(payment.tradeNo()).isEqualTo("4200000001202611290001");
    assertThat(payment.amountCents()).isEqualTo(8888);
    NotifyEvent notified = notified(WechatV2Notifications.signed(
        WechatV2Notifications.payment("WQ-1", "4200000001202611290001", 8888, 1)));
    assertThat(payment).usingRecursiveComparison().isEqualTo(notified);
    assertThat(payment.idempotencyKey()).isEqualTo(notified.idempotencyKey());
    assertThat(Fingerprint.of(payment)).isEqualTo(Fingerprint.of(notified));
    assertThat(new String(answer.body(), StandardCharsets.UTF_8)).contains("4200000001202611290001");
    assertThat(wechat.queries("WQ-1")).isEqualTo(1);
  }

  /** 转入退款: paid, then refunded (how much, the answer does not say): never a payment to book as paid (M1). */
  @Test
  void refundedTradeIsNotAPaymentToBook() {
    wechat.paid("WQ-2", "4200000001202611290002", "100");
    wechat.refunded("WQ-2");

    TradeAnswer answer = done(gateway().query("WQ-2"));

    assertThat(answer.state()).isEqualTo(State.REFUNDED);
    assertThat(answer.platformStatus()).isEqualTo("REFUND");
    assertThat(answer.payment().tradeNo()).isEqualTo("4200000001202611290002");
    assertThat(answer.payment().amountCents()).isEqualTo(100);
    assertThat(answer.payment().kind()).isEqualTo(EventKind.PAYMENT);
  }

  @Test
  void waitingTradeWaits() {
    wechat.waiting("WQ-3");

    TradeAnswer answer = done(gateway().query("WQ-3"));

    assertThat(answer.state()).isEqualTo(State.WAITING);
    assertThat(answer.platformStatus()).isEqualTo("NOTPAY");
    assertThat(answer.payment()).isNull();
  }

  @Test
  void unknownTradeIsNotFound() {
    TradeAnswer answer = done(gateway().query("WQ-4"));

    assertThat(answer.state()).isEqualTo(State.NOT_FOUND);
    assertThat(answer.platformStatus()).isEqualTo("ORDERNOTEXIST");
  }

  @Test
  void closedTradeIsClosed() {
    wechat.closed("WQ-5");

    TradeAnswer answer = done(gateway().query("WQ-5"));

    assertThat(answer.state()).isEqualTo(State.CLOSED);
    assertThat(answer.platformStatus()).isEqualTo("CLOSED");
  }

  @Test
  void answerSignedWithAnotherKeyIsUntrusted() {
    wechat.paid("WQ-6", "4200000001202611290006", "8888");
    wechat.mode(Mode.BAD_SIGNATURE);

    OutboundFailure failure = failure(gateway().query("WQ-6"));

    assertThat(failure.kind()).isEqualTo(OutboundFailure.Kind.UNTRUSTED);
    assertThat(failure.getMessage()).contains("sign does not verify", "wechat_v2.api_key_file");
  }

  @Test
  void answerForAnotherMerchantIsUntrusted() {
    wechat.paid("WQ-7", "4200000001202611290007", "8888");
    wechat.answerAsMerchant(APP_ID, "1900000999");

    OutboundFailure failure = failure(gateway().query("WQ-7"));

    assertThat(failure.kind()).isEqualTo(OutboundFailure.Kind.UNTRUSTED);
    assertThat(failure.getMessage()).contains("mch_id '1900000999'", "wechat_v2.mch_id");
  }

  @Test
  void platformDownIsUnavailable() {
    wechat.mode(Mode.DOWN);

    OutboundFailure failure = failure(gateway().query("WQ-8"));

    assertThat(failure.kind()).isEqualTo(OutboundFailure.Kind.UNAVAILABLE);
    assertThat(failure.getMessage()).contains("HTTP 503");
  }

  @Test
  void slowPlatformIsCutAtTheTimeLimit() {
    wechat.paid("WQ-9", "4200000001202611290009", "8888");
    wechat.mode(Mode.SLOW);
    long start = System.nanoTime();

    OutboundFailure failure = failure(gateway().query("WQ-9"));

    assertThat(failure.kind()).isEqualTo(OutboundFailure.Kind.UNAVAILABLE);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(Duration.ofMillis(1900), Duration.ofSeconds(10));
  }

  @Test
  void wrongApiKeyIsRefusedByThePlatform() {
    wechat.paid("WQ-10", "4200000001202611290010", "8888");

    OutboundFailure failure = failure(gateway(OTHER_API_KEY, WechatV2Signature.MD5).query("WQ-10"));

    assertThat(failure.kind()).isEqualTo(OutboundFailure.Kind.REFUSED);
    assertThat(failure.getMessage()).contains("签名错误", "wechat_v2.api_key_file").doesNotContain(OTHER_API_KEY);
    assertThat(wechat.refusedRequests()).isEqualTo(1);
    assertThat(wechat.queries("WQ-10")).isZero();
  }

  @Test
  void closingWaitingTradeClosesIt() {
    wechat.waiting("WQ-11");

    done(gateway().close("WQ-11"));

    assertThat(wechat.state("WQ-11")).isEqualTo("CLOSED");
    assertThat(wechat.closes("WQ-11")).isEqualTo(1);
    assertThat(done(gateway().query("WQ-11")).state()).isEqualTo(State.CLOSED);
  }

  @Test
  void closingClosedOrUnknownTradeSucceeds() {
    wechat.closed("WQ-12");

    done(gateway().close("WQ-12"));
    done(gateway().close("WQ-13"));

    assertThat(wechat.closes("WQ-12")).isEqualTo(1);
    assertThat(wechat.closes("WQ-13")).isEqualTo(1);
    assertThat(wechat.state("WQ-13")).isNull();
  }

  @Test
  void closingPaidTradeFails() {
    wechat.paid("WQ-14", "4200000001202611290014", "8888");

    OutboundFailure failure = failure(gateway().close("WQ-14"));

    assertThat(failure.kind()).isEqualTo(OutboundFailure.Kind.REFUSED);
    assertThat(failure.getMessage()).contains("ORDERPAID", "query it again");
    assertThat(wechat.state("WQ-14")).isEqualTo("SUCCESS");
  }

  @Test
  void hmacSha256MerchantSignsAndVerifiesWithIt() {
    wechat.paid("WQ-15", "4200000001202611290015", "8888");
    WechatV2Gateway hmac = gateway(API_KEY, WechatV2Signature.HMAC_SHA256);

    TradeAnswer answer = done(hmac.query("WQ-15"));

    assertThat(answer.state()).isEqualTo(State.PAID);
    assertThat(wechat.refusedRequests()).isZero();
    assertThat(wechat.queries("WQ-15")).isEqualTo(1);
  }

  /** What the channel makes of the same trade's payment notification. */
  private static NotifyEvent notified(Notification notification) {
    WechatV2Channel channel = new WechatV2Channel(API_KEY, WechatV2Signature.MD5, APP_ID, MCH_ID);
    return done(channel.check(new NotifyRequest("POST", MultiMap.caseInsensitiveMultiMap(), null,
        Buffer.buffer(notification.body()))));
  }

  static <T> T done(Future<T> future) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError("expected an answer, got " + e, e);
    }
  }

  static OutboundFailure failure(Future<?> future) {
    Throwable thrown = catchThrowable(() -> future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS));
    assertThat(thrown).isInstanceOf(ExecutionException.class).cause().isInstanceOf(OutboundFailure.class);
    return (OutboundFailure) thrown.getCause();
  }
}
