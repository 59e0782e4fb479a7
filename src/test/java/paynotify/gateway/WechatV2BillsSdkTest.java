package paynotify.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static paynotify.testsupport.WechatV2Notifications.API_KEY;
import static paynotify.testsupport.WechatV2Notifications.APP_ID;
import static paynotify.testsupport.WechatV2Notifications.MCH_ID;

import com.github.binarywang.wxpay.config.WxPayConfig;
import com.github.binarywang.wxpay.exception.WxPayException;
import com.github.binarywang.wxpay.service.WxPayService;
import com.github.binarywang.wxpay.service.impl.WxPayServiceImpl;
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
  private final WxPayService sdk = sdk();

  private WxPayService sdk() {
    WxPayConfig config = new WxPayConfig();
    config.setAppId(APP_ID);
    config.setMchId(MCH_ID);
    config.setMchKey(API_KEY);
    config.setPayBaseUrl(wechat.url().toString());
    WxPayService service = new WxPayServiceImpl();
    service.setConfig(config);
    return service;
  }

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
