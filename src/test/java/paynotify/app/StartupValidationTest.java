package paynotify.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bad configuration stops the real process at start with one line naming the file and the key
 * to fix, and a non-zero exit code.
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
  void unreachableDatabaseNamesTheKeys() throws Exception {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    Path config = yaml("database:\n  host: 127.0.0.1\n  port: " + closedPort + "\n  connect_timeout_ms: 1000\n");
    Result r = serve(config);
    assertThat(r.exitCode).isEqualTo(2);
    assertThat(r.lastLine).startsWith("paynotify: " + config + ": database: cannot migrate root@127.0.0.1:" + closedPort)
        .contains("check database.host");
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

  /** Runs {@code paynotify serve} as its own JVM, as scripts/start.sh does. */
  private Result serve(Path config) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p = new ProcessBuilder(List.of(java, "-cp", System.getProperty("java.class.path"),
        "paynotify.app.Main", "serve", "--config", config.toString()))
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
    String stderr = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    List<String> lines = stderr.lines().filter(l -> !l.isBlank()).toList();
    return new Result(p.exitValue(), lines.isEmpty() ? "" : lines.get(lines.size() - 1));
  }
}
