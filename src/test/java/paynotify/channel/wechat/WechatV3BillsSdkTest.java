package paynotify.channel.wechat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.wechat.pay.java.core.RSAPublicKeyConfig;
import com.wechat.pay.java.core.exception.ServiceException;
import com.wechat.pay.java.service.billdownload.BillDownloadServiceExtension;
import com.wechat.pay.java.service.billdownload.DigestBillEntity;
import com.wechat.pay.java.service.billdownload.model.BillType;
import com.wechat.pay.java.service.billdownload.model.GetTradeBillRequest;
import com.wechat.pay.java.service.billdownload.model.TarType;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.time.LocalDate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.SampleBills;
import paynotify.testsupport.WechatV3StandIn;

/**
 * The stand-in's bill API proved right by wechatpay-java 0.2.17's BillDownloadServiceExtension (host rewritten
 * by OkHttp as in {@link WechatV3GatewaySdkTest}): the SDK's requests verify here, it takes the signed answer,
 * downloads and gunzips the file, and its DigestBillEntity finds the SHA1 (of the plain bill) right, or wrong
 * for a tampered file.
 */
class WechatV3BillsSdkTest {
  private static final LocalDate DAY = LocalDate.of(2026, 3, 14);
  static WechatV3StandIn standIn;
  static BillDownloadServiceExtension sdk;

  @BeforeAll
  static void start() {
    standIn = WechatV3StandIn.start();
    RSAPublicKeyConfig config = standIn.sdkConfig();
    sdk = new BillDownloadServiceExtension.Builder()
        .httpClient(standIn.sdkHttpClient(config))
        .decryptor(config.createDecryptor()) // required by the builder, used by the encrypted bills only
        .build();
  }

  @AfterEach
  void normal() {
    standIn.tamperedBills(false);
  }

  @AfterAll
  static void stop() {
    standIn.close();
  }

  private static DigestBillEntity tradeBill(LocalDate date) {
    GetTradeBillRequest request = new GetTradeBillRequest();
    request.setBillDate(date.toString());
    request.setBillType(BillType.ALL);
    request.setTarType(TarType.GZIP);
    return sdk.getTradeBill(request);
  }

  @Test
  void theSdkDownloadsTheBillAndItsHashVerifies() throws IOException {
    byte[] sample = Files.readAllBytes(SampleBills.WECHAT);
    standIn.bill(DAY, sample);

    DigestBillEntity bill = tradeBill(DAY);

    try (InputStream in = bill.getInputStream()) {
      assertThat(in.readAllBytes()).isEqualTo(sample);
    }
    assertThat(bill.verifyHash()).isTrue();
    assertThat(standIn.refusedRequests()).isZero();
  }

  @Test
  void theSdkFindsTheHashOfATamperedFileWrong() throws IOException {
    standIn.bill(DAY, Files.readAllBytes(SampleBills.WECHAT));
    standIn.tamperedBills(true);

    DigestBillEntity bill = tradeBill(DAY);

    try (InputStream in = bill.getInputStream()) {
      in.readAllBytes();
    }
    assertThat(bill.verifyHash()).isFalse();
  }

  @Test
  void aDayWithoutABillIsTheSdksNoStatementExist() {
    assertThatThrownBy(() -> tradeBill(DAY.minusDays(2))).isInstanceOfSatisfying(ServiceException.class, e -> {
      assertThat(e.getHttpStatusCode()).isEqualTo(400);
      assertThat(e.getErrorCode()).isEqualTo("NO_STATEMENT_EXIST");
    });
  }
}
