package paynotify.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import paynotify.testsupport.ServiceProcess;

/**
 * A bad configuration stops the real process at start with one line naming the file and the key
 * to fix, and a non-zero exit code. (A database that does not answer yet is no such error:
 * {@link DatabaseAtStartTest}.)
 */
class StartupValidationTest {
  @TempDir
  Path dir;

  @Test
  void missingKeyFileNamesTheKey() throws Exception {
    Path config = yaml("alipay:\n  app_id: \"2021004143859201\"\n  public_key_file: " + dir.resolve("nope.pem") + "\n");
    Result r = serve(config);
    assertThat(r.exitCode).isEqualTo(2);
    assertThat(r.lastLine).isEqualTo("paynotify: " + config + ": alipay.public_key_file: file "
        + dir.resolve("nope.pem") + " does not exist");
  }

  @Test
  void malformedKeyNamesTheKey() throws Exception {
    Path key = dir.resolve("alipay.pem");
    Files.writeString(key, "-----BEGIN PUBLIC KEY-----\nbm90IGEga2V5\n-----END PUBLIC KEY-----\n");
    Path config = yaml("alipay:\n  app_id: \"2021004143859201\"\n  public_key_file: " + key + "\n");
    Result r = serve(config);
    assertThat(r.exitCode).isEqualTo(2);
    assertThat(r.lastLine).startsWith("paynotify: " + config + ": alipay.public_key_file: not a usable Alipay public key");
  }

  @Test
  void missingConfigFileIsNamed() throws Exception {
    Result r = serve(dir.resolve("absent.yaml"));
    assertThat(r.exitCode).isEqualTo(2);
    assertThat(r.lastLine).isEqualTo("paynotify: " + dir.resolve("absent.yaml") + ": config file not found");
  }

  @Test
  void badNumberNamesTheKey() throws Exception {
    Path config = yaml("http:\n  port: eighty\n");
    Result r = serve(config);
    assertThat(r.exitCode).isEqualTo(2);
    assertThat(r.lastLine).isEqualTo("paynotify: " + config + ": http.port: 'eighty' is not a whole number");
  }

  @Test
  void unknownWechatSignTypeNamesTheKey() throws Exception {
    Path key = dir.resolve("api_key");
    Files.writeString(key, "0123456789abcdef0123456789abcdef\n");
    Path config = yaml("wechat_v2:\n  appid: wx1\n  mch_id: \"1900012345\"\n  api_key_file: " + key
        + "\n  sign_type: SHA1\n");
    Result r = serve(config);
    assertThat(r.exitCode).isEqualTo(2);
    assertThat(r.lastLine).isEqualTo("paynotify: " + config + ": wechat_v2.sign_type: 'SHA1' is not MD5 or HMAC-SHA256");
  }

  @Test
  void wechatApiKeyOfTheWrongLengthNamesTheKey() throws Exception {
    Path key = dir.resolve("api_key");
    Files.writeString(key, "too-short\n");
    Path config = yaml("wechat_v2:\n  appid: wx1\n  mch_id: \"1900012345\"\n  api_key_file: " + key + "\n");
    Result r = serve(config);
    assertThat(r.exitCode).isEqualTo(2);
    assertThat(r.lastLine).isEqualTo("paynotify: " + config
        + ": wechat_v2.api_key_file: the API key (API密钥) has 32 characters, this has 9");
  }

  @Test
  void halfConfiguredWechatV3NamesWhatIsMissing() throws Exception {
    Path config = yaml("wechat_v3:\n  mchid: \"1900012345\"\n  appid: wx1\n  apiv3_key: JxTibTGfBFMWxrOZjX7ALW59t7U2Ea03\n");
    Result r = serve(config);
    assertThat(r.exitCode).isEqualTo(2);
    assertThat(r.lastLine).startsWith("paynotify: " + config + ": wechat_v3.platform_keys: missing");
  }

  private Path yaml(String text) throws IOException {
    Path file = dir.resolve("application.yaml");
    Files.writeString(file, text);
    return file;
  }

  private record Result(int exitCode, String lastLine) {}

  private Result serve(Path config) throws Exception {
    try (ServiceProcess p = ServiceProcess.start(config, dir)) {
      return new Result(p.exitCode(Duration.ofSeconds(60)), p.lastErrorLine());
    }
  }
}
