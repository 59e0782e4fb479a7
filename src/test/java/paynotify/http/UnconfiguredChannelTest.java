package paynotify.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.PaypalNotifications;
import paynotify.testsupport.TestService;
import paynotify.testsupport.WechatV2Notifications;

/** A channel that is not configured answers 404 and books nothing. */
class UnconfiguredChannelTest extends DatabaseTestBase {
  @Test
  void unconfiguredChannelAnswers404() {
    db.insertOrder("U1", 100);
    JsonObject off = new JsonObject().put("wechat_v2", new JsonObject().put("appid", "").put("mch_id", "").put("api_key", ""));
    try (TestService service = TestService.start(db.settings(), off)) {
      Reply reply = service.send(WechatV2Notifications.signed(WechatV2Notifications.payment("U1", "T-U1", 100, 0)));
      assertThat(reply.status()).isEqualTo(404);
      assertThat(reply.body()).contains("/notify/wechat/v2 is not configured");
    }
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
  }

  @Test
  void paypalIsOffUntilItsReceiverAndCurrencyAreSet() {
    JsonObject off = new JsonObject().put("paypal", new JsonObject().put("receiver_email", "").put("receiver_id", "")
        .put("currency", ""));
    try (TestService service = TestService.start(db.settings(), off)) {
      Reply reply = service.send(PaypalNotifications.genuine(PaypalNotifications.payment("U2", "9TXU2", 100)));
      assertThat(reply.status()).isEqualTo(404);
      assertThat(reply.body()).contains("/notify/paypal is not configured");
    }
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
  }
}
