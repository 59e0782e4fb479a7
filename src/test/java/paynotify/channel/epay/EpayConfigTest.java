package paynotify.channel.epay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import paynotify.channel.NotifyChannel;
import paynotify.channel.NotifyRequest;
import paynotify.channel.RejectedNotification;
import paynotify.config.AppConfig;
import paynotify.config.ConfigException;
import paynotify.testsupport.AlipayNotifications;
import paynotify.testsupport.EpayNotifications;
import paynotify.testsupport.SyncCheck;

/** The epay section's payment types: the reference platform's by default, the operator's when listed. */
class EpayConfigTest {

  @Test
  void aTypeThePlatformAddedIsAcceptedOnceListed() {
    NotifyChannel listed = epay(new JsonArray().add("alipay").add("douyinpay"));
    assertThatCode(() -> SyncCheck.event(listed, request("douyinpay"))).doesNotThrowAnyException();
    assertThatThrownBy(() -> SyncCheck.event(listed, request("wxpay"))).isInstanceOf(RejectedNotification.class)
        .hasMessageContaining("type 'wxpay' is not one of epay.payment_types [alipay, douyinpay]");
    assertThatThrownBy(() -> SyncCheck.event(epay(null), request("douyinpay"))).isInstanceOf(RejectedNotification.class)
        .hasMessageContaining("epay.payment_types [alipay, wxpay, qqpay, bank, jdpay, paypal, usdt, ecny]");
  }

  @Test
  void aWrongListNamesTheKey() {
    assertThatThrownBy(() -> epay(new JsonArray())).isInstanceOf(ConfigException.class)
        .hasMessageContaining("epay.payment_types: empty");
    assertThatThrownBy(() -> epay(new JsonArray().add("alipay").add("we chat"))).isInstanceOf(ConfigException.class)
        .hasMessageContaining("epay.payment_types: 'we chat' is not a payment type");
  }

  @Test
  void confirmBeforeBookNeedsTheAggregatorsQuery() {
    JsonObject epay = new JsonObject().put("pid", EpayNotifications.PID).put("key", EpayNotifications.KEY)
        .put("confirm_before_book", true);
    assertThatThrownBy(() -> AppConfig.from(new JsonObject().put("epay", epay.copy()), "test.yaml", Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("epay.confirm_before_book: true, but epay cannot be asked about an order")
        .hasMessageContaining("set epay.gateway_url");
    NotifyChannel confirming = AppConfig.from(new JsonObject().put("epay", epay.put("gateway_url",
        "https://pay.example.com/")), "test.yaml", Map.of()).channels().enabled().get(0);
    assertThat(confirming.confirmsBeforeBooking()).isTrue();
    assertThat(epay(null).confirmsBeforeBooking()).isFalse();
  }

  private static NotifyChannel epay(JsonArray types) {
    JsonObject epay = new JsonObject().put("pid", EpayNotifications.PID).put("key", EpayNotifications.KEY);
    if (types != null) {
      epay.put("payment_types", types);
    }
    return AppConfig.from(new JsonObject().put("epay", epay), "test.yaml", Map.of()).channels().enabled().stream()
        .filter(c -> c.path().equals(EpayNotifications.PATH)).findFirst().orElseThrow();
  }

  private static NotifyRequest request(String type) {
    Map<String, String> params = EpayNotifications.payment("E1", "TE1", "1");
    params.put("type", type);
    String query = AlipayNotifications.form(EpayNotifications.signed(params, EpayNotifications.KEY),
        StandardCharsets.UTF_8);
    return new NotifyRequest("GET", MultiMap.caseInsensitiveMultiMap(), query, null);
  }
}
