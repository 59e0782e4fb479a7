package paynotify.config;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import paynotify.testsupport.CreemNotifications;
import paynotify.testsupport.PaddleNotifications;
import paynotify.testsupport.PrivateFile;

/** What the start warns of for the channels of platforms sold on through an account: review findings 4 and 10. */
class ChannelStartWarningsTest {
  @TempDir
  Path dir;

  private List<String> warnings(String paddleCurrency, String creemCurrency, String amountUnit) {
    return warnings(paddleCurrency, creemCurrency, new JsonObject().put("amount_unit", amountUnit))
        .stream().filter(m -> m.contains("without decimals")).toList();
  }

  private List<String> warnings(String paddleCurrency, String creemCurrency, JsonObject orders) {
    JsonObject config = new JsonObject()
        .put("paddle", new JsonObject().put("currency", paddleCurrency)
            .put("webhook_secret_file", PrivateFile.write(dir.resolve("p"), PaddleNotifications.SECRET).toString()))
        .put("creem", new JsonObject().put("currency", creemCurrency)
            .put("webhook_secret_file", PrivateFile.write(dir.resolve("c"), CreemNotifications.SECRET).toString()))
        .put("orders", orders);
    ListAppender<ILoggingEvent> lines = new ListAppender<>();
    Logger log = (Logger) LoggerFactory.getLogger("paynotify.config.Channels");
    lines.start();
    log.addAppender(lines);
    Level level = log.getLevel();
    log.setLevel(Level.WARN); // the tests' root logs ERROR only
    try {
      AppConfig.from(config, "test.yaml", Map.of());
    } finally {
      log.detachAppender(lines);
      log.setLevel(level);
    }
    return lines.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
  }

  // 1000 JPY arrives as 1000, which an amount column of yuan holds as 1000.00, i.e. 100000.
  @Test
  void aZeroDecimalCurrencyWithAnAmountColumnOfYuanIsWarnedOfAtStart() {
    assertThat(warnings("jpy", "KRW", "yuan")).hasSize(2)
        .anyMatch(w -> w.startsWith("paddle.currency is jpy") && w.contains("paddle sends 1000 JPY as 1000"))
        .anyMatch(w -> w.startsWith("creem.currency is KRW") && w.contains("orders.amount_unit: cents"));
    assertThat(warnings("JPY", "JPY", "cents")).isEmpty();
    assertThat(warnings("USD", "EUR", "yuan")).isEmpty();
  }

  // One Paddle account sends every event to each destination; one store's orders reach each site on it.
  @Test
  void anAccountTwoSitesMayShareIsWarnedOfUnlessTheNumbersAreToldApart() {
    assertThat(warnings("USD", "USD", new JsonObject()).stream().filter(m -> m.contains("could pay your order")))
        .hasSize(2).anyMatch(w -> w.startsWith("paddle: no orders.out_trade_no is set") && w.contains("Paddle account"))
        .anyMatch(w -> w.startsWith("creem: no orders.out_trade_no is set") && w.contains("Creem store"));
    assertThat(warnings("USD", "USD", new JsonObject().put("out_trade_no", "A{order_no}")))
        .noneMatch(m -> m.contains("could pay your order"));
  }
}
