package paynotify.channel.wechat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.wechat.pay.java.core.RSAPublicKeyConfig;
import com.wechat.pay.java.core.exception.ServiceException;
import com.wechat.pay.java.core.exception.ValidationException;
import com.wechat.pay.java.service.payments.model.Transaction;
import com.wechat.pay.java.service.payments.nativepay.NativePayService;
import com.wechat.pay.java.service.payments.nativepay.model.CloseOrderRequest;
import com.wechat.pay.java.service.payments.nativepay.model.QueryOrderByOutTradeNoRequest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.PlatformStandIn.Mode;
import paynotify.testsupport.WechatV3Notifications;
import paynotify.testsupport.WechatV3StandIn;

/**
 * The stand-in proved right by wechatpay-java 0.2.17: its NativePayService, whose host is fixed, sent here
 * by an OkHttp interceptor; the SDK's request must verify at the stand-in, its answers with the SDK.
 */
class WechatV3GatewaySdkTest {
  static WechatV3StandIn standIn;
  static NativePayService sdk;

  @BeforeAll
  static void start() {
    standIn = WechatV3StandIn.start();
    RSAPublicKeyConfig config = standIn.sdkConfig();
    sdk = new NativePayService.Builder()
        .httpClient(standIn.sdkHttpClient(config))
        .build();
  }

  @AfterEach
  void normal() {
    standIn.mode(Mode.NORMAL);
  }

  @AfterAll
  static void stop() {
    standIn.close();
  }

  static Transaction query(String outTradeNo) {
    QueryOrderByOutTradeNoRequest request = new QueryOrderByOutTradeNoRequest();
    request.setMchid(WechatV3Notifications.MCH_ID);
    request.setOutTradeNo(outTradeNo);
    return sdk.queryOrderByOutTradeNo(request);
  }

  @Test
  void theSdkAcceptsThePaidAnswerAndTheStandInTheSdksRequest() {
    standIn.paid("SDK-PAID-1", "4200000000202612040000005678", "8888");

    Transaction transaction = query("SDK-PAID-1");

    assertThat(transaction.getTradeState()).isEqualTo(Transaction.TradeStateEnum.SUCCESS);
    assertThat(transaction.getTransactionId()).isEqualTo("4200000000202612040000005678");
    assertThat(transaction.getAmount().getTotal()).isEqualTo(8888);
    assertThat(transaction.getMchid()).isEqualTo(WechatV3Notifications.MCH_ID);
    assertThat(standIn.queries("SDK-PAID-1")).isEqualTo(1);
    assertThat(standIn.refusedRequests()).isZero();
  }

  @Test
  void theSdkClosesAWaitingTrade() {
    standIn.waiting("SDK-CLOSE-1");
    assertThat(query("SDK-CLOSE-1").getTradeState()).isEqualTo(Transaction.TradeStateEnum.NOTPAY);

    CloseOrderRequest close = new CloseOrderRequest();
    close.setMchid(WechatV3Notifications.MCH_ID);
    close.setOutTradeNo("SDK-CLOSE-1");
    sdk.closeOrder(close);

    assertThat(standIn.closes("SDK-CLOSE-1")).isEqualTo(1);
    assertThat(standIn.state("SDK-CLOSE-1")).isEqualTo("CLOSED");
    assertThat(query("SDK-CLOSE-1").getTradeState()).isEqualTo(Transaction.TradeStateEnum.CLOSED);
  }

  /** The SDK does verify: the stand-in's acceptance above is not for want of a check. */
  @Test
  void theSdkRefusesAnAnswerSignedWithAnotherKey() {
    standIn.waiting("SDK-BADSIG-1");
    standIn.mode(Mode.BAD_SIGNATURE);

    assertThatThrownBy(() -> query("SDK-BADSIG-1")).isInstanceOf(ValidationException.class);
  }

  @Test
  void aTradeThatDoesNotExistIsTheSdksOrderNotExist() {
    assertThatThrownBy(() -> query("SDK-NONE-1")).isInstanceOfSatisfying(ServiceException.class, e -> {
      assertThat(e.getHttpStatusCode()).isEqualTo(404);
      assertThat(e.getErrorCode()).isEqualTo("ORDER_NOT_EXIST");
    });
  }
}
