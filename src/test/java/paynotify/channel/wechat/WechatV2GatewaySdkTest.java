package paynotify.channel.wechat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.github.binarywang.wxpay.bean.result.WxPayOrderCloseResult;
import com.github.binarywang.wxpay.bean.result.WxPayOrderQueryResult;
import com.github.binarywang.wxpay.exception.WxPayException;
import com.github.binarywang.wxpay.service.WxPayService;
import java.time.LocalDateTime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.PlatformStandIn.Mode;
import paynotify.testsupport.WechatV2StandIn;

/**
 * The stand-in proved right by the official weixin-java-pay SDK: it verifies the SDK's requests as WeChat does,
 * and the SDK, which checks every answer's sign with the API key, accepts its answers.
 */
class WechatV2GatewaySdkTest {
  private final WechatV2StandIn wechat = WechatV2StandIn.start();
  private final WxPayService sdk = wechat.sdk();

  @AfterEach
  void stopStandIn() {
    wechat.close();
  }

  @Test
  void sdkQueriesPaidTrade() throws WxPayException {
    wechat.paid("WS-1", "4200000001202611291001", "8888");
    wechat.paidAt("WS-1", LocalDateTime.of(2026, 11, 29, 10, 15, 9));

    WxPayOrderQueryResult result = sdk.queryOrder(null, "WS-1");

    assertThat(result.getTradeState()).isEqualTo("SUCCESS");
    assertThat(result.getTransactionId()).isEqualTo("4200000001202611291001");
    assertThat(result.getOutTradeNo()).isEqualTo("WS-1");
    assertThat(result.getTotalFee()).isEqualTo(8888);
    assertThat(result.getTimeEnd()).isEqualTo("20261129101509");
    assertThat(wechat.queries("WS-1")).isEqualTo(1);
    assertThat(wechat.refusedRequests()).isZero();
  }

  @Test
  void sdkClosesWaitingTrade() throws WxPayException {
    wechat.waiting("WS-2");

    WxPayOrderCloseResult result = sdk.closeOrder("WS-2");

    assertThat(result.getResultCode()).isEqualTo("SUCCESS");
    assertThat(wechat.state("WS-2")).isEqualTo("CLOSED");
    assertThat(wechat.closes("WS-2")).isEqualTo(1);
  }

  @Test
  void sdkRefusesAnswerSignedWithAnotherKey() {
    wechat.paid("WS-3", "4200000001202611291003", "8888");
    wechat.mode(Mode.BAD_SIGNATURE);

    WxPayException refused = catchThrowableOfType(WxPayException.class, () -> sdk.queryOrder(null, "WS-3"));

    assertThat(refused.getMessage()).isEqualTo("参数格式校验错误！"); // what BaseWxPayResult.checkResult says of a bad sign
  }
}
