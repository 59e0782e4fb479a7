package paynotify.channel.wechat;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import paynotify.channel.EventKind;
import paynotify.channel.NotifyEvent;
import paynotify.channel.NotifyRequest;
import paynotify.channel.TradeAnswer.State;
import paynotify.channel.TradeAnswer;
import paynotify.config.AppConfig;
import paynotify.crypto.MerchantKeyTest;
import paynotify.net.OutboundFailure.Kind;
import paynotify.net.OutboundFailure;
import paynotify.net.OutboundHttp;
import paynotify.testsupport.Notification;
import paynotify.testsupport.PlatformStandIn.Mode;
import paynotify.testsupport.SyncCheck;
import paynotify.testsupport.TestService;
import paynotify.testsupport.WechatV3Notifications;
import paynotify.testsupport.WechatV3StandIn;

/** The gateway against the stand-in, with the channel the test service's configuration builds. */
class WechatV3GatewayTest {
  static final String TRADE = "4200000000202612040000001234";

  static Vertx vertx;
  static OutboundHttp http;
  static WechatV3StandIn standIn;
  static WechatV3Channel channel;
  static WechatV3Gateway gateway;

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
    http = new OutboundHttp(vertx, Duration.ofSeconds(2), 64 * 1024);
    standIn = WechatV3StandIn.start();
    JsonObject config = standIn.configure(TestService.configuration(new JsonObject()));
    channel = AppConfig.from(config, "test", Map.of()).channels().enabled().stream()
        .filter(WechatV3Channel.class::isInstance).map(WechatV3Channel.class::cast).findFirst().orElseThrow();
    gateway = gateway(Path.of(config.getJsonObject("wechat_v3").getString("merchant_private_key_file")));
  }

  /** As the service would build it from {@code wechat_v3.*}, with the merchant key in {@code keyFile}. */
  static WechatV3Gateway gateway(Path keyFile) {
    return new WechatV3Gateway(new WechatV3Client(http, standIn.url(), WechatV3Notifications.MCH_ID,
        standIn.merchantSerial(), MerchantKeyTest.read(keyFile), channel.signature()));
  }

  @AfterEach
  void normal() {
    standIn.mode(Mode.NORMAL);
    standIn.answerMchId(WechatV3Notifications.MCH_ID);
    standIn.answerSerial(WechatV3Notifications.PUBLIC_KEY_ID);
    standIn.answerOutTradeNo(null);
  }

  @AfterAll
  static void stop() {
    standIn.close();
    vertx.close().await();
  }

  static <T> T await(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  static OutboundFailure failure(Future<?> future) throws Exception {
    try {
      await(future);
    } catch (ExecutionException e) {
      assertThat(e.getCause()).isInstanceOf(OutboundFailure.class);
      return (OutboundFailure) e.getCause();
    }
    throw new AssertionError("succeeded, a failure was expected");
  }

  @Test
  void paidIsTheEventOfThePaymentNotification() throws Exception {
    standIn.paid("GW-PAID-1", TRADE, "8888");
    standIn.paidAt("GW-PAID-1", LocalDateTime.of(2026, 11, 29, 14, 29, 57)); // the notification's success_time

    TradeAnswer answer = await(gateway.query("GW-PAID-1"));

    Notification n = WechatV3Notifications.payment("GW-PAID-1", TRADE, 8888);
    MultiMap headers = MultiMap.caseInsensitiveMultiMap();
    n.headers().forEach(headers::add);
    NotifyEvent notified = SyncCheck.event(channel, new NotifyRequest("POST", headers, null, Buffer.buffer(n.body())));
    assertThat(answer.state()).isEqualTo(State.PAID);
    assertThat(answer.platformStatus()).isEqualTo("SUCCESS");
    assertThat(answer.payment()).isEqualTo(notified);
    assertThat(answer.payment().kind()).isEqualTo(EventKind.PAYMENT);
    assertThat(answer.payment().amountCents()).isEqualTo(8888);
    assertThat(new JsonObject(Buffer.buffer(answer.body())).getString("transaction_id")).isEqualTo(TRADE);
    assertThat(standIn.queries("GW-PAID-1")).isEqualTo(1);
  }

  /** 转入退款: paid, then refunded (how much, the answer does not say): never a payment to book as paid (M1). */
  @Test
  void refundedIsNotAPaymentToBook() throws Exception {
    standIn.paid("GW-REFUND-1", TRADE + "1", "100");
    standIn.refunded("GW-REFUND-1");

    TradeAnswer answer = await(gateway.query("GW-REFUND-1"));

    assertThat(answer.state()).isEqualTo(State.REFUNDED);
    assertThat(answer.platformStatus()).isEqualTo("REFUND");
    assertThat(answer.payment().tradeNo()).isEqualTo(TRADE + "1");
    assertThat(answer.payment().amountCents()).isEqualTo(100);
  }

  @Test
  void notpayIsWaiting() throws Exception {
    standIn.waiting("GW-WAIT-1");

    TradeAnswer answer = await(gateway.query("GW-WAIT-1"));

    assertThat(answer.state()).isEqualTo(State.WAITING);
    assertThat(answer.platformStatus()).isEqualTo("NOTPAY");
    assertThat(answer.payment()).isNull();
  }

  @Test
  void noTradeIsNotFound() throws Exception {
    TradeAnswer answer = await(gateway.query("GW-NONE-1"));

    assertThat(answer.state()).isEqualTo(State.NOT_FOUND);
    assertThat(answer.platformStatus()).isEqualTo("ORDER_NOT_EXIST");
    assertThat(standIn.queries("GW-NONE-1")).isEqualTo(1);
  }

  @Test
  void closedIsClosed() throws Exception {
    standIn.closed("GW-CLOSED-1");

    assertThat(await(gateway.query("GW-CLOSED-1")).state()).isEqualTo(State.CLOSED);
  }

  @Test
  void anAnswerSignedWithAnotherKeyIsUntrusted() throws Exception {
    standIn.paid("GW-BADSIG-1", TRADE, "8888");
    standIn.mode(Mode.BAD_SIGNATURE);

    OutboundFailure failure = failure(gateway.query("GW-BADSIG-1"));

    assertThat(failure.kind()).isEqualTo(Kind.UNTRUSTED);
    assertThat(failure.getMessage()).contains("does not verify");
  }

  @Test
  void aTransactionOfAnotherMerchantIsUntrusted() throws Exception {
    standIn.paid("GW-OTHER-1", TRADE, "8888");
    standIn.answerMchId("1900000999");

    OutboundFailure failure = failure(gateway.query("GW-OTHER-1"));

    assertThat(failure.kind()).isEqualTo(Kind.UNTRUSTED);
    assertThat(failure.getMessage()).contains("mchid '1900000999'");
  }

  @Test
  void anAnswerAboutAnotherOrderIsUntrusted() throws Exception {
    standIn.paid("GW-ORDER-1", TRADE, "8888");
    standIn.answerOutTradeNo("GW-ORDER-2");

    OutboundFailure failure = failure(gateway.query("GW-ORDER-1"));

    assertThat(failure.kind()).isEqualTo(Kind.UNTRUSTED);
    assertThat(failure.getMessage()).contains("'GW-ORDER-2'");
  }

  @Test
  void anAnswerNamingAnUnknownPlatformKeyIsUntrusted() throws Exception {
    standIn.paid("GW-SERIAL-1", TRADE, "8888");
    standIn.answerSerial("PUB_KEY_ID_0000000000000000000000000000");

    OutboundFailure failure = failure(gateway.query("GW-SERIAL-1"));

    assertThat(failure.kind()).isEqualTo(Kind.UNTRUSTED);
    assertThat(failure.getMessage()).contains("wechat_v3.platform_keys");
  }

  @Test
  void downIsUnavailable() throws Exception {
    standIn.mode(Mode.DOWN);

    OutboundFailure failure = failure(gateway.query("GW-DOWN-1"));

    assertThat(failure.kind()).isEqualTo(Kind.UNAVAILABLE);
    assertThat(failure.getMessage()).contains("503");
  }

  @Test
  void slowIsUnavailableWithinTheLimit() throws Exception {
    standIn.waiting("GW-SLOW-1");
    standIn.mode(Mode.SLOW);
    long start = System.nanoTime();

    OutboundFailure failure = failure(gateway.query("GW-SLOW-1"));

    assertThat(failure.kind()).isEqualTo(Kind.UNAVAILABLE);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
  }

  @Test
  void aKeyWeChatDoesNotKnowIsRefusedNamingTheConfiguration() throws Exception {
    int refusedBefore = standIn.refusedRequests();
    try (WechatV3StandIn other = WechatV3StandIn.start()) { // another merchant key pair
      OutboundFailure failure = failure(gateway(other.merchantKeyFile()).query("GW-KEY-1"));

      assertThat(failure.kind()).isEqualTo(Kind.REFUSED);
      assertThat(failure.getMessage()).contains("SIGN_ERROR", "wechat_v3.merchant_private_key_file",
          "merchant_serial_no", "wechat_v3.mchid");
    }
    assertThat(standIn.refusedRequests()).isEqualTo(refusedBefore + 1);
    assertThat(standIn.queries("GW-KEY-1")).isZero();
  }

  @Test
  void closingAWaitingTradeClosesIt() throws Exception {
    standIn.waiting("GW-CLOSE-1");

    await(gateway.close("GW-CLOSE-1"));

    assertThat(standIn.state("GW-CLOSE-1")).isEqualTo("CLOSED");
    assertThat(standIn.closes("GW-CLOSE-1")).isEqualTo(1);
    await(gateway.close("GW-CLOSE-1")); // ORDER_CLOSED: nothing left to pay, done
    await(gateway.close("GW-CLOSE-NONE")); // ORDER_NOT_EXIST: likewise
  }

  @Test
  void closingAPaidTradeFailsToQueryAgain() throws Exception {
    standIn.paid("GW-CLOSE-PAID", TRADE, "8888");

    OutboundFailure failure = failure(gateway.close("GW-CLOSE-PAID"));

    assertThat(failure.kind()).isEqualTo(Kind.REFUSED);
    assertThat(failure.getMessage()).contains("paid meanwhile");
    assertThat(standIn.state("GW-CLOSE-PAID")).isEqualTo("SUCCESS");
  }
}
