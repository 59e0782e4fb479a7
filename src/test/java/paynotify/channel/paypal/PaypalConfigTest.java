package paynotify.channel.paypal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import paynotify.channel.NotifyChannel;
import paynotify.channel.NotifyEvent;
import paynotify.channel.NotifyRequest;
import paynotify.channel.RejectedNotification;
import paynotify.config.AppConfig;
import paynotify.config.ConfigException;
import paynotify.testsupport.PaypalNotifications;
import paynotify.testsupport.PaypalVerifier;

/** What the paypal: section refuses before any IPN is booked wrongly. */
class PaypalConfigTest {
  /** The channels' PayPal client lives on the Vert.x instance of its first check: one for the class. */
  private static Vertx vertx;

  @BeforeAll
  static void startVertx() {
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stopVertx() {
    vertx.close().await();
  }

  private static AppConfig read(String currency, String verifyUrl) {
    return read(new JsonObject().put("currency", currency).put("ipn_verify_url", verifyUrl));
  }

  private static AppConfig read(JsonObject paypal) {
    return AppConfig.from(new JsonObject().put("paypal", new JsonObject().put("receiver_email", "shop@example.com")
        .put("currency", "USD").mergeIn(paypal)), "app.yaml", Map.of());
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

  // Review M2: a sandbox verifier (anyone's IPN Simulator) must never decide for the live orders table.
  @Test
  void aSandboxVerifierNeedsSandboxTrueAndAnyOtherHostIsRefused() {
    for (String sandbox : new String[] {"https://ipnpb.sandbox.paypal.com/cgi-bin/webscr",
        "https://www.sandbox.paypal.com/cgi-bin/webscr"}) {
      assertThatThrownBy(() -> read("USD", sandbox))
          .isInstanceOf(ConfigException.class).hasMessageStartingWith("app.yaml: paypal.sandbox:");
      assertThat(read(new JsonObject().put("sandbox", true).put("ipn_verify_url", sandbox)).channels().enabled())
          .isNotEmpty();
    }
    for (String foreign : new String[] {"https://ipnpb.paypal.com.example.net/cgi-bin/webscr",
        "https://paypal.example.com/cgi-bin/webscr", "https://ipnpb.paypa1.com/cgi-bin/webscr"}) {
      assertThatThrownBy(() -> read("USD", foreign))
          .isInstanceOf(ConfigException.class).hasMessageStartingWith("app.yaml: paypal.ipn_verify_url:");
    }
    assertThat(read("USD", "https://www.paypal.com/cgi-bin/webscr").channels().enabled()).isNotEmpty();
    assertThat(((PaypalChannel) channel(new JsonObject().put("sandbox", true))).verifyUrl())
        .hasToString(VerifyEndpoint.SANDBOX_URL);
    assertThatThrownBy(() -> read(new JsonObject().put("sandbox", true)
        .put("ipn_verify_url", "https://ipnpb.paypal.com/cgi-bin/webscr")))
        .isInstanceOf(ConfigException.class).hasMessageStartingWith("app.yaml: paypal.ipn_verify_url:");
    assertThatThrownBy(() -> read(new JsonObject().put("sandbox", "perhaps")))
        .isInstanceOf(ConfigException.class).hasMessageStartingWith("app.yaml: paypal.sandbox:");
  }

  /** With sandbox: true, what PayPal's sandbox verifies is test money, and says so on the event. */
  @Test
  void aSandboxInstanceAcceptsTestIpnsAsTestMoney() throws Exception {
    NotifyChannel paypal = channel(new JsonObject().put("sandbox", true)
        .put("receiver_email", PaypalNotifications.RECEIVER_EMAIL).put("receiver_id", PaypalNotifications.RECEIVER_ID)
        .put("ipn_verify_url", PaypalVerifier.get().url()));
    Map<String, String> p = PaypalNotifications.payment("PT1", "9TXTEST1", 100);
    p.put("test_ipn", "1");

    NotifyEvent event = check(paypal, PaypalVerifier.get().issue(PaypalNotifications.form(p,
        PaypalNotifications.WINDOWS_1252)));

    assertThat(event.testMode()).isTrue();
    assertThat(event.tradeNo()).isEqualTo("9TXTEST1");
  }

  // Review N5: receiver_email compared in ASCII case only: String.equalsIgnoreCase folds the Kelvin sign to k.
  @Test
  void theReceiverEmailIgnoresAsciiCaseOnly() throws Exception {
    NotifyChannel paypal = channel(new JsonObject().put("receiver_email", "shop@kiosk.example")
        .put("ipn_verify_url", PaypalVerifier.get().url()));
    Map<String, String> kelvin = PaypalNotifications.payment("PK1", "9TXK1", 100);
    kelvin.put("charset", "UTF-8"); // read as the Kelvin sign, which String.equalsIgnoreCase takes for k
    kelvin.put("receiver_email", "shop@\u212Aiosk.example");
    kelvin.remove("receiver_id");
    Map<String, String> upper = PaypalNotifications.payment("PK2", "9TXK2", 100);
    upper.put("receiver_email", "SHOP@KIOSK.EXAMPLE");

    assertThatThrownBy(() -> check(paypal, PaypalVerifier.get().issue(PaypalNotifications.form(kelvin,
        StandardCharsets.UTF_8))))
        .isInstanceOf(RejectedNotification.class).hasMessageContaining("receiver_email");
    assertThat(check(paypal, PaypalVerifier.get().issue(PaypalNotifications.form(upper,
        PaypalNotifications.WINDOWS_1252))).tradeNo()).isEqualTo("9TXK2");
  }

  private static NotifyChannel channel(JsonObject paypal) {
    return read(paypal).channels().enabled().stream().filter(c -> c.path().equals("/notify/paypal")).findFirst()
        .orElseThrow();
  }

  /** The channel's check of {@code body}, on a Vert.x context as in the service; its failure thrown. */
  private static NotifyEvent check(NotifyChannel paypal, byte[] body) throws Exception {
    Promise<NotifyEvent> checked = Promise.promise();
    vertx.runOnContext(v -> {
      try {
        paypal.check(new NotifyRequest("POST", MultiMap.caseInsensitiveMultiMap(), null, Buffer.buffer(body)))
            .onComplete(checked);
      } catch (RuntimeException e) {
        checked.fail(e);
      }
    });
    try {
      return checked.future().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    }
  }
}
