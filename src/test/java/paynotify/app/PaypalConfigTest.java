package paynotify.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonObject;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the paypal: section refuses before any IPN is booked wrongly. */
class PaypalConfigTest {
  private static AppConfig read(String currency, String verifyUrl) {
    return AppConfig.from(new JsonObject().put("paypal", new JsonObject().put("receiver_email", "shop@example.com")
        .put("currency", currency).put("ipn_verify_url", verifyUrl)), "app.yaml", Map.of());
  }

  /** mc_gross=1000 is 1000 JPY: read with two decimals it would be booked as 100000. */
  @Test
  void aCurrencyWithoutDecimalsAtPaypalIsRefused() {
    assertThatThrownBy(() -> read("JPY", "https://ipnpb.paypal.com/cgi-bin/webscr"))
        .isInstanceOf(ConfigException.class).hasMessageStartingWith("app.yaml: paypal.currency: JPY has no decimals");
    assertThat(read("USD", "https://ipnpb.paypal.com/cgi-bin/webscr").channels().enabled()).isNotEmpty();
  }

  /** Over plain HTTP anyone on the path could answer VERIFIED; a verifier on this machine may. */
  @Test
  void aPlainHttpVerifierMustBeOnThisMachine() {
    assertThatThrownBy(() -> read("USD", "http://ipnpb.paypal.com/cgi-bin/webscr"))
        .isInstanceOf(ConfigException.class).hasMessageStartingWith("app.yaml: paypal.ipn_verify_url:");
    assertThat(read("USD", "http://127.0.0.1:9/verify").channels().enabled()).isNotEmpty();
  }
}
