package paynotify.channel.tokenpay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonObject;
import java.util.Map;
import org.junit.jupiter.api.Test;
import paynotify.config.AppConfig;
import paynotify.config.ConfigException;
import paynotify.testsupport.TokenPayNotifications;
import paynotify.testsupport.TokenPayStandIn;

/** TokenPay's /Query: its Signature against the Wiki's vector, and the keys that turn confirmation on. */
class TokenPayQueryConfigTest {
  /** Wiki/docs.md §3: Id and key 666, the Signature it gives. */
  private static final String WIKI_ID = "66f9d5a8-d9c7-0224-004f-a16a1c068e08";
  private static final String WIKI_SIGNATURE = "baa261cc6af3f5efbed15e17a285f653";

  @Test
  void theQuerySignatureIsTheWikis() {
    assertThat(TokenPayQuery.signature(WIKI_ID, TokenPayNotifications.WIKI_KEY)).isEqualTo(WIKI_SIGNATURE);
    assertThat(TokenPayStandIn.signature(WIKI_ID, TokenPayNotifications.WIKI_KEY)).isEqualTo(WIKI_SIGNATURE);
  }

  @Test
  void confirmBeforeBookNeedsTheApiBase() {
    JsonObject tokenpay = new JsonObject().put("key", TokenPayNotifications.API_TOKEN).put("confirm_before_book", true);
    assertThatThrownBy(() -> config(tokenpay.copy())).isInstanceOf(ConfigException.class)
        .hasMessageContaining("tokenpay.confirm_before_book: true, but tokenpay cannot be asked about an order")
        .hasMessageContaining("set tokenpay.api_base");
    assertThat(config(tokenpay.copy().put("api_base", "http://127.0.0.1:5000")).channels().enabled().get(0)
        .confirmsBeforeBooking()).isTrue();
    assertThat(config(tokenpay.copy().put("api_base", "https://tokenpay.example.com/")).channels().enabled().get(0)
        .confirmsBeforeBooking()).isTrue();
    assertThat(config(new JsonObject().put("key", TokenPayNotifications.API_TOKEN)).channels().enabled().get(0)
        .confirmsBeforeBooking()).isFalse();
  }

  /** Its answers are not signed: plain http only to this machine. */
  @Test
  void aRemoteApiBaseMustBeHttps() {
    JsonObject tokenpay = new JsonObject().put("key", TokenPayNotifications.API_TOKEN).put("confirm_before_book", true)
        .put("api_base", "http://203.0.113.7:5000");
    assertThatThrownBy(() -> config(tokenpay)).isInstanceOf(ConfigException.class)
        .hasMessageContaining("tokenpay.api_base: 'http://203.0.113.7:5000' must be https");
  }

  private static AppConfig config(JsonObject tokenpay) {
    return AppConfig.from(new JsonObject().put("tokenpay", tokenpay), "test.yaml", Map.of());
  }
}
