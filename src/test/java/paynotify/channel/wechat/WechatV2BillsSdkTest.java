package paynotify.channel.wechat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.github.binarywang.wxpay.exception.WxPayException;
import com.github.binarywang.wxpay.service.WxPayService;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.LocalDate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.SampleBills;
import paynotify.testsupport.WechatV2StandIn;

/**
 * The stand-in's /pay/downloadbill proved right by weixin-java-pay: it accepts the SDK's signed request and
 * the SDK takes its answers (the bill; "No Bill Exist") as WeChat's.
 */
class WechatV2BillsSdkTest {
  private static final LocalDate DAY = LocalDate.of(2026, 3, 14);
  private final WechatV2StandIn wechat = WechatV2StandIn.start();
  private final WxPayService sdk = wechat.sdk();

  @AfterEach
  void stopStandIn() {
    wechat.close();
  }

  @Test
  void sdkDownloadsTheBill() throws WxPayException, IOException {
    byte[] sample = Files.readAllBytes(SampleBills.WECHAT);
    wechat.bill(DAY, sample);

    String raw = sdk.downloadRawBill("20260314", "ALL", null, null);

    assertThat(raw).isEqualTo(new String(sample, StandardCharsets.UTF_8));
    assertThat(sdk.downloadBill("20260314", "ALL", null, null).getTotalRecord()).isEqualTo("50"); // the bill's 总交易单数
    assertThat(wechat.refusedRequests()).isZero();
  }

  @Test
  void sdkSeesNoBillExist() {
    WxPayException none = catchThrowableOfType(WxPayException.class,
        () -> sdk.downloadRawBill("20260313", "ALL", null, null));

    assertThat(none.getReturnMsg()).isEqualTo("No Bill Exist");
    assertThat(wechat.refusedRequests()).isZero();
  }
}
