package paynotify.alert;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.AlipayNotifications;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.Http;
import paynotify.testsupport.TestService;
import paynotify.testsupport.WechatV2Notifications;

/**
 * The running service with a WeCom robot as its alert target (a stand-in that answers as WeCom does): what the
 * owner's group receives for a payment of an unknown order, for every Alipay notification signed with another key
 * than the configured one (the application's public key pasted for Alipay's), and for a site that never takes its
 * events; and that nothing a request chose reaches the group as a link or a mention.
 */
class AlertsEndToEndTest extends DatabaseTestBase {
  ServiceStandIn wecom;
  TestService service;

  @BeforeEach
  void start() {
    wecom = ServiceStandIn.start(r -> ServiceStandIn.Reply.json(new JsonObject().put("errcode", 0)
        .put("errmsg", "ok")));
    service = TestService.start(db.settings(), new JsonObject()
        .put("alerts", new JsonObject().put("wecom", new JsonObject()
            .put("webhook_url", wecom.url("/cgi-bin/webhook/send?key=GROUP-KEY").toString())))
        .put("forward", new JsonObject().put("url", ServiceStandIn.unreachable("/paynotify-hook.php").toString())
            .put("secret", "a-forward-secret-of-32-characters").put("retry_schedule_seconds", new JsonArray().add(1))));
    service.server().alerting().watch().stop(); // looked here, when the test says
  }

  @AfterEach
  void stop() {
    service.close();
    wecom.close();
  }

  /** What the group received so far. */
  List<String> received() {
    return wecom.received().stream().map(r -> r.json().getJsonObject("markdown").getString("content")).toList();
  }

  /** Looks (as the watch's timer would), until the group has received {@code messages} in all, 20 s at most. */
  List<String> lookUntil(int messages) throws InterruptedException {
    service.awaitLogRecorded();
    long deadline = System.nanoTime() + 20_000_000_000L;
    do {
      service.server().alerting().watch().lookOnce(Instant.now()).await(); // refused rows count once 5 s settled
      Thread.sleep(200);
    } while (received().size() < messages && System.nanoTime() < deadline);
    return received();
  }

  @Test
  void theOwnersGroupIsToldOfAnUnknownOrderASignatureBurstAndAFailingSite() throws Exception {
    lookUntil(0); // the notifications so far are history

    service.postAlipay(AlipayNotifications.signedBody(AlipayNotifications.payment("NOPE-1", "2026120422001499990001",
        "29.90")));
    service.awaitLogRecorded(); // its row before the refused ones' (two queues): a verified one ends a burst
    for (int i = 0; i < SignatureBurst.THRESHOLD; i++) {
      service.postAlipay(AlipayNotifications.signedBody(AlipayNotifications.payment("W" + i, "20261204220014999900" + i,
          "10.00"), AlipayNotifications.OTHER_PRIVATE_KEY, StandardCharsets.UTF_8));
    }
    // the anomaly.created of that unknown order goes to a site that is not there: after its one retry,
    // forward_failed, told too
    List<String> told = lookUntil(3);

    assertThat(told).anySatisfy(m -> assertThat(m).startsWith("支付异常：未知订单的付款 订单 NOPE-1 ¥29.90\n")
        .contains("交易号：2026120422001499990001").contains("处理：找到买家要买的订单并发货，或退款"));
    assertThat(told).anySatisfy(m -> assertThat(m).startsWith("签名验证连续失败：alipay\n")
        .contains("5 条通知在 10 分钟内验签失败").contains("「应用公钥」填在了支付宝公钥的位置"));
    assertThat(told).anySatisfy(m -> assertThat(m).startsWith("支付异常：通知网站失败")
        .contains("处理：修好网站的接收地址，然后运行 paynotify forward retry --all-failed"));
    assertThat(wecom.received()).allSatisfy(r -> assertThat(r.param("key")).isEqualTo("GROUP-KEY"));
  }

  /** The security review's S4: a phishing link and a mention in forged notifications, under our own advice. */
  @Test
  void forgedNotificationsPutNoLinkNorMentionIntoTheGroup() throws Exception {
    lookUntil(0);
    String forged = "<xml><sign>x</sign><sign_type>[点此修复](https://wxpay-fix.cn/k) @all</sign_type></xml>";
    for (int i = 0; i < SignatureBurst.THRESHOLD; i++) {
      assertThat(Http.post(service.port(), WechatV2Notifications.PATH, "text/xml",
          forged.getBytes(StandardCharsets.UTF_8)).status()).isNotEqualTo(200);
    }
    List<String> told = lookUntil(1);

    assertThat(told).singleElement().satisfies(m -> {
      assertThat(m).startsWith("签名验证连续失败：wechat_v2\n").contains("5 条通知在 10 分钟内验签失败")
          .contains("BAD_SIGNATURE").contains("127.0.0.1").contains("notify_log");
      assertThat(m).doesNotContain("wxpay-fix").doesNotContain("@all").doesNotContain("](")
          .doesNotContain("点此修复");
    });
  }

  /** A buyer-chosen order number (an Alipay out_trade_no, a PayPal invoice) with a markdown link in it. */
  @Test
  void anOrderNumberCarryingMarkdownIsShownAsAShortHash() throws Exception {
    lookUntil(0);
    String orderNo = "[fix](https://wxpay-fix.cn/k)";
    service.postAlipay(AlipayNotifications.signedBody(AlipayNotifications.payment(orderNo, "2026120422001499990009",
        "0.01")));
    List<String> told = lookUntil(1);

    assertThat(told).anySatisfy(m -> assertThat(m).startsWith("支付异常：未知订单的付款 订单 ").contains("/status"));
    assertThat(told).allSatisfy(m -> assertThat(m).doesNotContain("wxpay-fix").doesNotContain("]("));
  }
}
