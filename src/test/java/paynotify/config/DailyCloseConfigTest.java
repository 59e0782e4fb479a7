package paynotify.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import paynotify.channel.Platform;
import paynotify.reconcile.daily.DailyCloseSettings;
import paynotify.testsupport.AlipayStandIn;
import paynotify.testsupport.TestService;

/** reconcile.daily: read, its defaults, and each mistake named by its key with what to do. */
class DailyCloseConfigTest {
  static Vertx vertx;
  static AlipayStandIn alipay;

  @TempDir
  Path dir;

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
    alipay = AlipayStandIn.start();
  }

  @AfterAll
  static void stop() {
    alipay.close();
    vertx.close().await();
  }

  DailyCloseSettings daily(JsonObject config) throws Exception {
    Path file = Files.writeString(dir.resolve("application.yaml"), config.encodePrettily());
    return AppConfig.load(vertx, file, Map.of()).await().bills().daily();
  }

  /** Every channel of the test configuration, Alipay's application key given: Alipay and WeChat (v2) fetchable. */
  static JsonObject with(JsonObject daily) {
    return alipay.configure(TestService.configuration(new JsonObject()))
        .put("reconcile", new JsonObject().put("daily", daily));
  }

  @Test
  void offByDefaultAndOnItClosesEveryChannelWhoseBillCanBeFetchedAtHalfPastTen() throws Exception {
    assertThat(daily(with(new JsonObject())).enabled()).isFalse();
    DailyCloseSettings on = daily(with(new JsonObject().put("enabled", true)));
    assertThat(on.platforms()).containsExactly(Platform.ALIPAY, Platform.WECHAT);
    assertThat(on.at()).isEqualTo(LocalTime.of(10, 30));
    assertThat(on.repair()).isFalse();
    assertThat(on.configFile()).isEqualTo(dir.resolve("application.yaml").toAbsolutePath());
    DailyCloseSettings set = daily(with(new JsonObject().put("enabled", true).put("at", "9:45")
        .put("channels", List.of("wechat")).put("auto_repair", "missing_local")));
    assertThat(set.platforms()).containsExactly(Platform.WECHAT);
    assertThat(set.at()).isEqualTo(LocalTime.of(9, 45));
    assertThat(set.repair()).isTrue();
  }

  @Test
  void aChannelWhoseBillCannotBeFetchedSaysWhatItNeeds() {
    JsonObject noAppKey = TestService.configuration(new JsonObject()).put("reconcile", new JsonObject()
        .put("daily", new JsonObject().put("enabled", true).put("channels", List.of("alipay"))));
    assertThatThrownBy(() -> daily(noAppKey)).isInstanceOf(ConfigException.class)
        .hasMessageContaining("reconcile.daily.channels: alipay's bill cannot be fetched: set"
            + " alipay.app_private_key_file");
    assertThatThrownBy(() -> daily(with(new JsonObject().put("enabled", true).put("channels", List.of("epay")))))
        .hasMessageContaining("reconcile.daily.channels: 'epay' is not alipay or wechat");
  }

  @Test
  void aBadTimeOrPolicyIsNamed() {
    assertThatThrownBy(() -> daily(with(new JsonObject().put("at", "25:00"))))
        .hasMessageContaining("reconcile.daily.at: '25:00' is not a time of day");
    assertThatThrownBy(() -> daily(with(new JsonObject().put("at", "23:30"))))
        .hasMessageContaining("reconcile.daily.at: 23:30 is too late");
    assertThatThrownBy(() -> daily(with(new JsonObject().put("auto_repair", "everything"))))
        .hasMessageContaining("reconcile.daily.auto_repair: 'everything' is not none or missing_local");
  }

  @Test
  void onWithoutAConfigurationFileToRunTheCommandWithIsRefused() {
    JsonObject config = with(new JsonObject().put("enabled", true));
    assertThatThrownBy(() -> AppConfig.from(config, "not-a-file", Map.of()))
        .hasMessageContaining("reconcile.daily.enabled: true, but the close runs paynotify reconcile");
  }

  @Test
  void giveUpIsNoonOrAnHourAfterTheStartWhenThatIsLater() {
    var day = java.time.LocalDate.of(2026, 12, 1);
    DailyCloseSettings early = new DailyCloseSettings(true, LocalTime.of(10, 30), List.of(Platform.ALIPAY), false, null);
    DailyCloseSettings late = new DailyCloseSettings(true, LocalTime.of(14, 0), List.of(Platform.ALIPAY), false, null);
    assertThat(early.giveUpAt(day)).isEqualTo(day.plusDays(1).atTime(12, 0));
    assertThat(late.giveUpAt(day)).isEqualTo(day.plusDays(1).atTime(15, 0));
    assertThat(early.dayDue(day.plusDays(1).atTime(10, 29))).isNull();
    assertThat(early.dayDue(day.plusDays(1).atTime(10, 30))).isEqualTo(day);
  }
}
