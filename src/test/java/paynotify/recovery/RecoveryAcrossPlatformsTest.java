package paynotify.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.AlipayStandIn;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.PlatformStandIn.Mode;
import paynotify.testsupport.TestService;
import paynotify.testsupport.WechatV2StandIn;

/**
 * An order whose channel column says nothing, on a site taking Alipay and WeChat Pay: every platform is asked
 * until one says paid, since another platform's "waiting" or "closed" says nothing of the one the buyer used.
 */
class RecoveryAcrossPlatformsTest extends DatabaseTestBase {
  AlipayStandIn alipay;
  WechatV2StandIn wechat;
  TestService service;

  @BeforeEach
  void start() {
    alipay = AlipayStandIn.start();
    wechat = WechatV2StandIn.start();
    service = TestService.start(db.settings(), wechat.configure(alipay.configure(TestService.configuration(
        new JsonObject().put("recovery", new JsonObject().put("enabled", true).put("interval_seconds", 3600)
            .put("close_unpaid_after_minutes", 30))))));
  }

  @AfterEach
  void stop() {
    service.close();
    wechat.close();
    alipay.close();
  }

  void order(String orderNo) {
    db.update("INSERT INTO orders (order_no, amount_cents, created_at) VALUES (?, 8888,"
        + " CONVERT_TZ(NOW(3), @@session.time_zone, '+08:00') - INTERVAL 40 MINUTE)", orderNo);
  }

  Sweeper.Sweep sweep() {
    return service.server().recovery().sweepOnce().await();
  }

  @Test
  void aPaymentAtTheSecondPlatformIsFoundPastTheFirstOnesWaitingOrClosedTrade() {
    order("U1");
    alipay.waiting("U1"); // the buyer scanned Alipay's code, then paid with WeChat
    wechat.paid("U1", "4200001234202612040000000001", "8888");
    order("U2");
    alipay.closed("U2");
    wechat.paid("U2", "4200001234202612040000000002", "8888");

    assertThat(sweep().paid()).isEqualTo(2);

    assertThat(db.orderStatus("U1")).isEqualTo("paid");
    assertThat(db.orderStatus("U2")).isEqualTo("paid");
    // past close_after, but of no known platform: not closed anywhere
    assertThat(alipay.closes("U1")).isZero();
  }

  @Test
  void aPaymentFoundWinsOverAPlatformThatGaveNoAnswer() {
    order("V1");
    alipay.mode(Mode.DOWN);
    wechat.paid("V1", "4200001234202612040000000003", "8888");
    assertThat(sweep().paid()).isEqualTo(1);
    assertThat(db.orderStatus("V1")).isEqualTo("paid");

    order("V2"); // nobody paid, one not answering: asked again later, not closed, not done
    wechat.waiting("V2");
    sweep();
    assertThat(db.string("SELECT CONCAT(done, ':', last_state) FROM order_checks WHERE order_no = 'V2'"))
        .isEqualTo("0:no answer");
  }
}
