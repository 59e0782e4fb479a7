package paynotify.channel.wechat;

import static org.assertj.core.api.Assertions.assertThat;
import static paynotify.channel.wechat.WechatV3GatewayTest.await;
import static paynotify.channel.wechat.WechatV3GatewayTest.failure;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import paynotify.channel.DayBill;
import paynotify.channel.PlatformTime;
import paynotify.config.AppConfig;
import paynotify.crypto.MerchantKeyTest;
import paynotify.net.OutboundFailure.Kind;
import paynotify.net.OutboundFailure;
import paynotify.net.OutboundHttp;
import paynotify.reconcile.WechatBill;
import paynotify.testsupport.LoopbackBillUrls;
import paynotify.testsupport.PlatformStandIn.Mode;
import paynotify.testsupport.SampleBills;
import paynotify.testsupport.TestService;
import paynotify.testsupport.WechatV3Notifications;
import paynotify.testsupport.WechatV3StandIn;

/** WechatV3Bills against the stand-in, with the platform keys the test service's configuration builds. */
@ExtendWith(LoopbackBillUrls.class)
class WechatV3BillsTest {
  private static final LocalDate DAY = LocalDate.of(2026, 3, 14);

  static Vertx vertx;
  static OutboundHttp http;
  static WechatV3StandIn standIn;
  static WechatV3Channel channel;
  static WechatV3Bills bills;

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
    http = new OutboundHttp(vertx, Duration.ofSeconds(10), 4 * 1024 * 1024);
    standIn = WechatV3StandIn.start();
    JsonObject config = standIn.configure(TestService.configuration(new JsonObject()));
    channel = AppConfig.from(config, "test", Map.of()).channels().enabled().stream()
        .filter(WechatV3Channel.class::isInstance).map(WechatV3Channel.class::cast).findFirst().orElseThrow();
    bills = bills(standIn.merchantKeyFile());
  }

  static WechatV3Bills bills(Path keyFile) {
    return new WechatV3Bills(new WechatV3Client(http, standIn.url(), WechatV3Notifications.MCH_ID,
        standIn.merchantSerial(), MerchantKeyTest.read(keyFile), channel.signature()));
  }

  @AfterEach
  void normal() {
    standIn.mode(Mode.NORMAL);
    standIn.tamperedBills(false);
  }

  @AfterAll
  static void stop() {
    standIn.close();
    vertx.close().await();
  }

  /** Outside the tests, a download_url that is not https is refused, even this machine's: never asked in the clear. */
  @Test
  void withoutTheTestPropertyAnHttpDownloadUrlIsRefused() throws Exception {
    standIn.bill(DAY, Files.readAllBytes(SampleBills.WECHAT));
    int before = standIn.billDownloads();
    LoopbackBillUrls.without(() -> {
      OutboundFailure refused = failure(bills.fetch(DAY));
      assertThat(refused.kind()).isEqualTo(Kind.UNTRUSTED);
      assertThat(refused.getMessage()).contains("https");
    });
    assertThat(standIn.billDownloads()).isEqualTo(before);
  }

  @Test
  void theSampleBillArrivesByteForByteAndReconcileReadsIt(@TempDir Path dir) throws Exception {
    byte[] sample = Files.readAllBytes(SampleBills.WECHAT);
    standIn.bill(DAY, sample);

    DayBill bill = await(bills.fetch(DAY));

    assertThat(bill.date()).isEqualTo(DAY);
    assertThat(bill.fileName()).isEqualTo(WechatV3Notifications.MCH_ID + "_20260314_ALL.csv");
    assertThat(bill.content()).isEqualTo(sample);
    Path saved = Files.write(dir.resolve(bill.fileName()), bill.content());
    assertThat(new WechatBill(saved, DAY).read(row -> { }).paymentRows()).isEqualTo(45);
  }

  @Test
  void aDayWithoutTradesIsABillOfNone() throws Exception {
    assertThat(await(bills.fetch(DAY.minusDays(2)))).isEqualTo(DayBill.none(DAY.minusDays(2)));
  }

  @Test
  void aBillNotMadeYetIsNotReadyUntilNoonOfTheNextDayAndThenADayWithoutTrades() throws Exception {
    LocalDate today = LocalDate.now(PlatformTime.BEIJING);
    standIn.billNotReady(today);

    OutboundFailure failure = failure(bills.fetch(today));

    assertThat(failure.kind()).isEqualTo(Kind.NOT_READY);
    assertThat(failure.getMessage()).contains("STATEMENT_CREATING", today.toString());

    standIn.billNotReady(DAY.plusDays(1)); // long past: "creating" then means it had no trades
    assertThat(bills.fetch(DAY.plusDays(1)).await()).isEqualTo(DayBill.none(DAY.plusDays(1)));
  }

  @Test
  void aFileOtherThanTheOneWeChatHashedIsUntrusted() throws Exception {
    standIn.bill(DAY, Files.readAllBytes(SampleBills.WECHAT));
    standIn.tamperedBills(true);

    OutboundFailure failure = failure(bills.fetch(DAY));

    assertThat(failure.kind()).isEqualTo(Kind.UNTRUSTED);
    assertThat(failure.getMessage()).contains("refused: its SHA1 is not the one WeChat gave");
  }

  @Test
  void anAnswerSignedWithAnotherKeyIsUntrusted() throws Exception {
    standIn.bill(DAY, Files.readAllBytes(SampleBills.WECHAT));
    standIn.mode(Mode.BAD_SIGNATURE);

    OutboundFailure failure = failure(bills.fetch(DAY));

    assertThat(failure.kind()).isEqualTo(Kind.UNTRUSTED);
    assertThat(failure.getMessage()).contains("wechat v3 tradebill", "does not verify");
  }

  @Test
  void aKeyWeChatDoesNotKnowIsRefusedNamingTheConfiguration() throws Exception {
    try (WechatV3StandIn other = WechatV3StandIn.start()) { // another merchant key pair
      OutboundFailure failure = failure(bills(other.merchantKeyFile()).fetch(DAY));

      assertThat(failure.kind()).isEqualTo(Kind.REFUSED);
      assertThat(failure.getMessage()).contains("SIGN_ERROR", "wechat_v3.merchant_private_key_file");
    }
  }

  @Test
  void downIsUnavailable() throws Exception {
    standIn.mode(Mode.DOWN);

    assertThat(failure(bills.fetch(DAY)).kind()).isEqualTo(Kind.UNAVAILABLE);
  }
}
