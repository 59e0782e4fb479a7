package paynotify.channel.wechat;

import static org.assertj.core.api.Assertions.assertThat;
import static paynotify.channel.wechat.WechatV2GatewayTest.done;
import static paynotify.channel.wechat.WechatV2GatewayTest.failure;
import static paynotify.testsupport.WechatV2Notifications.API_KEY;
import static paynotify.testsupport.WechatV2Notifications.APP_ID;
import static paynotify.testsupport.WechatV2Notifications.MCH_ID;
import static paynotify.testsupport.WechatV2Notifications.OTHER_API_KEY;

import io.vertx.core.Vertx;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import paynotify.channel.DayBill;
import paynotify.channel.PlatformTime;
import paynotify.net.OutboundFailure;
import paynotify.net.OutboundHttp;
import paynotify.reconcile.BillFormatException;
import paynotify.reconcile.WechatBill;
import paynotify.testsupport.PlatformStandIn.Mode;
import paynotify.testsupport.SampleBills;
import paynotify.testsupport.WechatV2StandIn;

/** WechatV2Bills against the stand-in of WeChat Pay v2's /pay/downloadbill, over real HTTP. */
class WechatV2BillsTest {
  private static final LocalDate DAY = LocalDate.of(2026, 3, 14);
  private static Vertx vertx;
  private static OutboundHttp http;
  private final WechatV2StandIn wechat = WechatV2StandIn.start();

  @BeforeAll
  static void startVertx() {
    vertx = Vertx.vertx();
    http = new OutboundHttp(vertx, Duration.ofSeconds(10), 4 * 1024 * 1024);
  }

  @AfterAll
  static void stopVertx() {
    vertx.close().await();
  }

  @AfterEach
  void stopStandIn() {
    wechat.close();
  }

  private WechatV2Bills bills(String apiKey, String signType) {
    return new WechatV2Bills(new WechatV2Client(http, wechat.url(),
        new WechatV2Signature(apiKey, signType, APP_ID, MCH_ID)));
  }

  private WechatV2Bills bills() {
    return bills(API_KEY, WechatV2Signature.MD5);
  }

  @Test
  void theSampleBillArrivesByteForByteAndReconcileReadsIt(@TempDir Path dir) throws IOException,
      BillFormatException {
    byte[] sample = Files.readAllBytes(SampleBills.WECHAT);
    wechat.bill(DAY, sample);

    DayBill bill = done(bills().fetch(DAY));

    assertThat(bill.hasTrades()).isTrue();
    assertThat(bill.date()).isEqualTo(DAY);
    assertThat(bill.fileName()).isEqualTo(MCH_ID + "_20260314_ALL.csv");
    assertThat(bill.content()).isEqualTo(sample);
    Path saved = Files.write(dir.resolve(bill.fileName()), bill.content());
    assertThat(new WechatBill(saved, DAY).read(row -> { }).paymentRows()).isEqualTo(45);
  }

  @Test
  void hmacSha256RequestsAreSignedAsWechatChecks() {
    wechat.bill(DAY, "交易时间,公众账号ID\n".getBytes(StandardCharsets.UTF_8));

    DayBill bill = done(bills(API_KEY, WechatV2Signature.HMAC_SHA256).fetch(DAY));

    assertThat(bill.hasTrades()).isTrue();
    assertThat(wechat.refusedRequests()).isZero();
  }

  @Test
  void aDayWithoutTradesIsABillOfNone() {
    DayBill bill = done(bills().fetch(DAY.minusDays(1)));

    assertThat(bill).isEqualTo(DayBill.none(DAY.minusDays(1)));
    assertThat(bill.hasTrades()).isFalse();
  }

  @Test
  void aBillNotMadeYetIsNotReadyUntilNoonOfTheNextDayAndThenADayWithoutTrades() {
    LocalDate today = LocalDate.now(PlatformTime.BEIJING);
    wechat.billNotReady(today);

    OutboundFailure failure = failure(bills().fetch(today));

    assertThat(failure.kind()).isEqualTo(OutboundFailure.Kind.NOT_READY);
    assertThat(failure.getMessage()).contains("Bill Creating", today.format(DateTimeFormatter.BASIC_ISO_DATE));

    wechat.billNotReady(DAY); // long past: WeChat's "creating" then means it had no trades
    assertThat(done(bills().fetch(DAY))).isEqualTo(DayBill.none(DAY));
  }

  @Test
  void aRequestSignedWithAnotherKeyIsRefused() {
    OutboundFailure failure = failure(bills(OTHER_API_KEY, WechatV2Signature.MD5).fetch(DAY));

    assertThat(failure.kind()).isEqualTo(OutboundFailure.Kind.REFUSED);
    assertThat(failure.getMessage()).contains("签名错误", "wechat_v2.api_key_file");
    assertThat(wechat.refusedRequests()).isEqualTo(1);
  }

  @Test
  void platformDownIsUnavailable() {
    wechat.mode(Mode.DOWN);

    OutboundFailure failure = failure(bills().fetch(DAY));

    assertThat(failure.kind()).isEqualTo(OutboundFailure.Kind.UNAVAILABLE);
    assertThat(failure.getMessage()).contains("HTTP 503");
  }

  @Test
  void anAnswerThatIsNoBillIsUnavailable() {
    wechat.bill(DAY, "Gateway Timeout".getBytes(StandardCharsets.UTF_8));

    OutboundFailure failure = failure(bills().fetch(DAY));

    assertThat(failure.kind()).isEqualTo(OutboundFailure.Kind.UNAVAILABLE);
    assertThat(failure.getMessage()).contains("neither a bill nor WeChat's XML");
  }
}
