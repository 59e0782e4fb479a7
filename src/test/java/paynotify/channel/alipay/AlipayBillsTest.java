package paynotify.channel.alipay;

import static org.assertj.core.api.Assertions.assertThat;

import com.alipay.api.DefaultAlipayClient;
import com.alipay.api.request.AlipayDataDataserviceBillDownloadurlQueryRequest;
import com.alipay.api.response.AlipayDataDataserviceBillDownloadurlQueryResponse;
import io.vertx.core.Vertx;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import paynotify.channel.DayBill;
import paynotify.crypto.MerchantKeyTest;
import paynotify.net.OutboundFailure;
import paynotify.net.OutboundHttp;
import paynotify.testsupport.AlipayNotifications;
import paynotify.testsupport.AlipayStandIn;
import paynotify.testsupport.LoopbackBillUrls;
import paynotify.testsupport.PlatformStandIn.Mode;
import paynotify.testsupport.SampleBills;

/**
 * A day's bill from Alipay's stand-in, which serves the public sample bill as Alipay would: the signed
 * answer's download URL, then the zip; proved by alipay-sdk-java's own request for that URL.
 */
@ExtendWith(LoopbackBillUrls.class)
class AlipayBillsTest {
  static final LocalDate DAY = LocalDate.of(2026, 3, 14);
  /** 11:00 on the day after, Beijing time: yesterday's bill is due. */
  static final Clock NEXT_MORNING = Clock.fixed(Instant.parse("2026-03-15T03:00:00Z"), ZoneOffset.UTC);

  Vertx vertx;
  AlipayStandIn alipay;
  AlipayBills bills;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    alipay = AlipayStandIn.start();
    alipay.bill(DAY, SampleBills.ALIPAY);
    bills = bills(Duration.ofSeconds(5));
  }

  AlipayBills bills(Duration timeout) {
    return new AlipayBills(new AlipayOpenApi(new OutboundHttp(vertx, timeout, 8 * 1024 * 1024), alipay.url(),
        AlipayNotifications.APP_ID, MerchantKeyTest.read(alipay.appKeyFile()), AlipayGatewayTest.SIGNATURE,
        NEXT_MORNING));
  }

  @AfterEach
  void stop() {
    alipay.close();
    vertx.close().await();
  }

  @Test
  void theDaysZipIsFetchedAsTheOwnerWouldDownloadIt() throws Exception {
    DayBill bill = bills.fetch(DAY).await();
    assertThat(bill.hasTrades()).isTrue();
    assertThat(bill.fileName()).isEqualTo(SampleBills.ALIPAY.getFileName().toString());
    assertThat(bill.content()).isEqualTo(Files.readAllBytes(SampleBills.ALIPAY));
  }

  /** Outside the tests, a bill URL over http, even this machine's, is asked over https: never in the clear. */
  @Test
  void withoutTheTestPropertyAnHttpBillUrlIsAskedOverHttps() throws Exception {
    LoopbackBillUrls.without(() -> {
      OutboundFailure upgraded = AlipayGatewayTest.failure(bills(Duration.ofSeconds(2)).fetch(DAY));
      assertThat(upgraded.kind()).isEqualTo(OutboundFailure.Kind.UNAVAILABLE);
      assertThat(upgraded.getMessage()).contains("GET https://127.0.0.1:");
    });
    assertThat(alipay.billDownloads()).isZero();
  }

  @Test
  void aBillNotMadeYetIsNotReadyAndAnOldOneNobodyKeepsIsRefused() {
    OutboundFailure early = AlipayGatewayTest.failure(bills(Duration.ofSeconds(5)).fetch(DAY.plusDays(1)));
    assertThat(early.kind()).isEqualTo(OutboundFailure.Kind.NOT_READY);
    assertThat(early.getMessage()).contains("2026-03-16");
    assertThat(AlipayGatewayTest.failure(bills.fetch(DAY.minusDays(30))).kind()).isEqualTo(OutboundFailure.Kind.REFUSED);
  }

  @Test
  void anAnswerSignedWithAnotherKeyGivesNoBill() {
    alipay.mode(Mode.BAD_SIGNATURE);
    assertThat(AlipayGatewayTest.failure(bills.fetch(DAY)).kind()).isEqualTo(OutboundFailure.Kind.UNTRUSTED);
  }

  @Test
  void theSdksRequestIsAnsweredWithAUrlThatServesTheBill() throws Exception {
    String appKey = Files.readString(alipay.appKeyFile()).replaceAll("-----(BEGIN|END) PRIVATE KEY-----", "")
        .replaceAll("\\s", "");
    String alipayKey = AlipayNotifications.PUBLIC_KEY_PEM.replaceAll("-----(BEGIN|END) PUBLIC KEY-----", "")
        .replaceAll("\\s", "");
    DefaultAlipayClient sdk = new DefaultAlipayClient(alipay.url().toString(), AlipayNotifications.APP_ID, appKey,
        "json", "utf-8", alipayKey, "RSA2");
    AlipayDataDataserviceBillDownloadurlQueryRequest request = new AlipayDataDataserviceBillDownloadurlQueryRequest();
    request.setBizContent("{\"bill_type\":\"trade\",\"bill_date\":\"2026-03-14\"}");
    AlipayDataDataserviceBillDownloadurlQueryResponse answer = sdk.execute(request);
    assertThat(answer.isSuccess()).as(answer.getBody()).isTrue();
    HttpResponse<byte[]> zip = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create(answer.getBillDownloadUrl())).build(), HttpResponse.BodyHandlers.ofByteArray());
    assertThat(zip.body()).isEqualTo(Files.readAllBytes(SampleBills.ALIPAY));
  }
}
