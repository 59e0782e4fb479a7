package paynotify.config;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import paynotify.testsupport.PrivateFile;
import paynotify.testsupport.TestService;

/** A channel's key read from an empty file would verify whatever anyone signs with it: the start stops. */
class EmptySecretFileTest {
  @TempDir
  static Path dir;

  @ParameterizedTest(name = "{0}.{1}_file")
  @CsvSource({"epay, key", "xunhupay, appsecret", "epusdt, token", "vmq, key", "wechat_v2, api_key",
      "paddle, webhook_secret", "tokenpay, key",
      "creem, webhook_secret"})
  void anEmptyKeyFileStopsTheStart(String section, String key) throws Exception {
    Path empty = PrivateFile.write(dir.resolve(section + ".key"), " \n");
    JsonObject overrides = new JsonObject().put(section, new JsonObject().putNull(key)
        .put(key + "_file", empty.toString()));
    assertThatThrownBy(() -> AppConfig.from(TestService.configuration(overrides), "test", Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(section + "." + key + "_file: file " + empty + " is empty");
  }
}
