package paynotify.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import paynotify.channel.Platform;
import paynotify.channel.TradeQuery;
import paynotify.net.OutboundHttp;
import paynotify.testsupport.AlipayStandIn;
import paynotify.testsupport.TestService;
import paynotify.testsupport.WechatV3StandIn;

/**
 * Which platforms are asked, and in which order, as each platform's factory builds them from the configuration:
 * a key that can move money is opt-in, WeChat Pay v2 needs none and is asked only once asking is on.
 */
class OutboundConfigTest {
  static AlipayStandIn alipay;
  static WechatV3StandIn wechatV3;

  @BeforeAll
  static void start() {
    alipay = AlipayStandIn.start();
    wechatV3 = WechatV3StandIn.start();
  }

  @AfterAll
  static void stop() {
    wechatV3.close();
    alipay.close();
  }

  static AppConfig config(JsonObject config) {
    return AppConfig.from(config, "test.yaml", Map.of());
  }

  static JsonObject everyKey() {
    return wechatV3.configure(alipay.configure(TestService.configuration(new JsonObject()
        .put("epay", new JsonObject().put("gateway_url", "http://127.0.0.1:9/")))));
  }

  /** The clients' names: built, never sent (a client holds its HTTP client until it asks). */
  static List<String> names(List<Function<OutboundHttp, TradeQuery>> clients) {
    return clients.stream().map(client -> client.apply(null).name()).toList();
  }

  @Test
  void everyPlatformGivenItsKeyIsAskedAlipayEpayThenWechat() {
    RecoveryConfig recovery = config(everyKey()).recovery();
    assertThat(names(recovery.clients()))
        .containsExactly("alipay.trade.query", "epay api.php?act=order", "wechat v3 query");
    assertThat(names(recovery.confirming())).isEqualTo(names(recovery.clients()));
  }

  @Test
  void wechatV2IsAskedOnceAskingIsOnAndConfirmsABillsRowInAnyCase() {
    RecoveryConfig off = config(TestService.configuration(new JsonObject())).recovery();
    assertThat(off.clients()).isEmpty();
    assertThat(names(off.confirming())).containsExactly("wechat v2 orderquery");

    RecoveryConfig anotherKey = config(alipay.configure(TestService.configuration(new JsonObject()))).recovery();
    assertThat(names(anotherKey.clients())).containsExactly("alipay.trade.query", "wechat v2 orderquery");

    RecoveryConfig on = config(TestService.configuration(new JsonObject()
        .put("recovery", new JsonObject().put("enabled", true)))).recovery();
    assertThat(names(on.clients())).containsExactly("wechat v2 orderquery");
  }

  @Test
  void aKeyOrAddressWithoutItsChannelAsksNothing() {
    JsonObject config = everyKey();
    config.getJsonObject("epay").remove("pid");
    config.getJsonObject("epay").remove("key");
    config.remove("alipay");
    config.put("alipay", new JsonObject().put("app_private_key_file", alipay.appKeyFile().toString()));
    assertThat(names(config(config).recovery().clients())).containsExactly("wechat v3 query");
  }

  /** The bill downloads' names by platform, built as {@link #names} are. */
  static Map<Platform, String> sources(AppConfig config) {
    return config.bills().sources().entrySet().stream()
        .collect(Collectors.toMap(Map.Entry::getKey, source -> source.getValue().apply(null).name()));
  }

  @Test
  void billsAreFetchedWithTheSameKeys() {
    assertThat(sources(config(TestService.configuration(new JsonObject()))))
        .containsOnly(Map.entry(Platform.WECHAT, "wechat v2 downloadbill"));
    assertThat(sources(config(everyKey()))).containsOnly(
        Map.entry(Platform.ALIPAY, "alipay.data.dataservice.bill.downloadurl.query"),
        Map.entry(Platform.WECHAT, "wechat v3 tradebill"));
  }

  @Test
  void nothingToAskOrFetchSaysEveryWayToTurnItOn() {
    JsonObject noV2 = TestService.configuration(new JsonObject());
    noV2.remove("wechat_v2");
    assertThatThrownBy(() -> config(noV2.copy().put("recovery", new JsonObject().put("enabled", true))))
        .hasMessageContaining("recovery.enabled: true, but no platform can be asked: set alipay.app_private_key_file,"
            + " or wechat_v3.merchant_private_key_file with wechat_v3.merchant_serial_no, or epay.gateway_url, or"
            + " stripe.api_key_file, or paddle.api_key_file, or creem.api_key_file, or lemonsqueezy.api_key_file, or"
            + " tokenpay.api_base, or turn on wechat_v2");
    assertThatThrownBy(() -> config(noV2.copy().put("reconcile", new JsonObject()
            .put("daily", new JsonObject().put("enabled", true)))))
        .hasMessageContaining("reconcile.daily.enabled: true, but no channel's bill can be fetched: set"
            + " alipay.app_private_key_file (the application key signs the request), or set"
            + " wechat_v3.merchant_private_key_file and merchant_serial_no, or turn on wechat_v2");
    assertThat(BillsConfig.BILL_PLATFORMS).isEqualTo("alipay or wechat");
  }

  static JsonObject paddle(JsonObject keys) {
    return TestService.configuration(new JsonObject()).put("paddle", new JsonObject()
        .put("webhook_secret", "pdl_ntfset_01hs0t3tw21j988db1pam5xg8m_paynotifyTestSecret0123456").put("currency", "USD")
        .mergeIn(keys));
  }

  /** Paddle's undelivered notifications: opt-in by the key, for this destination only, from Paddle's hosts only. */
  @Test
  void paddleIsAskedForItsUndeliveredNotificationsWithItsKeyAndDestinationOnPaddlesHostsOnly() {
    assertThat(config(paddle(new JsonObject())).recovery().missed()).isEmpty();
    JsonObject key = new JsonObject().put("api_key", "pdl_sdbx_apikey_0123").put("api_base",
        "https://sandbox-api.paddle.com").put("notification_setting_id", "ntfset_01hs0t3tw21j988db1pam5xg8m");
    assertThat(config(paddle(key)).recovery().missed()).hasSize(1)
        .allSatisfy(feed -> assertThat(feed.apply(null, null).events().source()).isEqualTo("paddle events"));

    assertThatThrownBy(() -> config(paddle(key.copy().put("api_base", "https://api.paddle.com.example.net"))))
        .hasMessageContaining("paddle.api_base: 'https://api.paddle.com.example.net' is not Paddle's API");
    assertThatThrownBy(() -> config(paddle(key.copy().put("api_base", "http://api.paddle.com"))))
        .hasMessageContaining("paddle.api_base: 'http://api.paddle.com' must be https");
    JsonObject noDestination = key.copy();
    noDestination.remove("notification_setting_id");
    assertThatThrownBy(() -> config(paddle(noDestination)))
        .hasMessageContaining("paddle.notification_setting_id: missing: paddle.api_key_file is set");
    assertThatThrownBy(() -> config(paddle(key.copy().put("notification_setting_id", "pdl_ntfset_01hs"))))
        .hasMessageContaining("is not a notification destination's id");
  }

  /**
   * Lemon Squeezy: opt-in by the account's key, then asked by the order id the site keeps and listed for paid orders,
   * on Lemon Squeezy's host only.
   */
  @Test
  void lemonSqueezyIsAskedAndListedWithItsKeyOnItsHostOnly() {
    JsonObject none = TestService.configuration(new JsonObject());
    assertThat(names(config(none).recovery().clients())).noneMatch(n -> n.startsWith("lemonsqueezy"));
    assertThat(config(none).recovery().missed()).isEmpty();

    JsonObject key = TestService.configuration(new JsonObject());
    key.getJsonObject("lemonsqueezy").put("api_key", "eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.test");
    RecoveryConfig recovery = config(key).recovery();
    assertThat(names(recovery.clients())).contains("lemonsqueezy /v1/orders/{id}");
    assertThat(recovery.missed()).hasSize(1)
        .allSatisfy(feed -> assertThat(feed.apply(null, null).events().source()).isEqualTo("lemonsqueezy orders"));

    key.getJsonObject("lemonsqueezy").put("api_base", "https://api.lemonsqueezy.com.example.net");
    assertThatThrownBy(() -> config(key)).hasMessageContaining(
        "lemonsqueezy.api_base: 'https://api.lemonsqueezy.com.example.net' is not Lemon Squeezy's API");
    key.getJsonObject("lemonsqueezy").put("api_base", "http://api.lemonsqueezy.com");
    assertThatThrownBy(() -> config(key)).hasMessageContaining("lemonsqueezy.api_base: 'http://api.lemonsqueezy.com'"
        + " must be https");
  }
}
