package paynotify.channel.alipay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.alipay.api.AlipayApiException;
import com.alipay.api.DefaultAlipayClient;
import com.alipay.api.request.AlipayTradeCloseRequest;
import com.alipay.api.request.AlipayTradeQueryRequest;
import com.alipay.api.response.AlipayTradeCloseResponse;
import com.alipay.api.response.AlipayTradeQueryResponse;
import java.nio.file.Files;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.AlipayNotifications;
import paynotify.testsupport.AlipayStandIn;
import paynotify.testsupport.PlatformStandIn.Mode;

/**
 * {@link AlipayStandIn} plays Alipay as the official alipay-sdk-java expects: the SDK's client, pointed at it,
 * has its requests verified there and verifies the answers it signs (and refuses them signed with another key).
 */
class AlipayGatewaySdkTest {
  AlipayStandIn alipay;
  DefaultAlipayClient sdk;

  @BeforeEach
  void start() throws Exception {
    alipay = AlipayStandIn.start();
    String appKey = Files.readString(alipay.appKeyFile()).replaceAll("-----(BEGIN|END) PRIVATE KEY-----", "")
        .replaceAll("\\s", "");
    String alipayKey = AlipayNotifications.PUBLIC_KEY_PEM.replaceAll("-----(BEGIN|END) PUBLIC KEY-----", "")
        .replaceAll("\\s", "");
    sdk = new DefaultAlipayClient(alipay.url().toString(), AlipayNotifications.APP_ID, appKey, "json", "utf-8",
        alipayKey, "RSA2");
  }

  @AfterEach
  void stop() {
    alipay.close();
  }

  static AlipayTradeQueryRequest query(String outTradeNo) {
    AlipayTradeQueryRequest request = new AlipayTradeQueryRequest();
    request.setBizContent("{\"out_trade_no\":\"" + outTradeNo + "\"}");
    return request;
  }

  @Test
  void theSdksQueryIsVerifiedAndItsAnswerVerifiesInTheSdk() throws Exception {
    alipay.paid("S1", "2026120422001400001", "88.88");
    AlipayTradeQueryResponse paid = sdk.execute(query("S1"));
    assertThat(paid.isSuccess()).as(paid.getBody()).isTrue();
    assertThat(paid.getTradeStatus()).isEqualTo("TRADE_SUCCESS");
    assertThat(paid.getTotalAmount()).isEqualTo("88.88");
    assertThat(paid.getTradeNo()).isEqualTo("2026120422001400001");
    assertThat(alipay.queries("S1")).isEqualTo(1);
    assertThat(alipay.refusedRequests()).isZero();

    AlipayTradeQueryResponse missing = sdk.execute(query("S2"));
    assertThat(missing.isSuccess()).isFalse();
    assertThat(missing.getSubCode()).isEqualTo("ACQ.TRADE_NOT_EXIST");
  }

  @Test
  void theSdksCloseClosesAWaitingTrade() throws Exception {
    alipay.waiting("S3");
    AlipayTradeCloseRequest close = new AlipayTradeCloseRequest();
    close.setBizContent("{\"out_trade_no\":\"S3\"}");
    AlipayTradeCloseResponse closed = sdk.execute(close);
    assertThat(closed.isSuccess()).as(closed.getBody()).isTrue();
    assertThat(alipay.state("S3")).isEqualTo("TRADE_CLOSED");
  }

  @Test
  void theSdkRefusesWhatTheStandInSignsWithAnotherKey() {
    alipay.paid("S4", "2026120422001400004", "88.88");
    alipay.mode(Mode.BAD_SIGNATURE);
    assertThatThrownBy(() -> sdk.execute(query("S4"))).isInstanceOf(AlipayApiException.class)
        .hasMessageContaining("sign check fail");
  }
}
