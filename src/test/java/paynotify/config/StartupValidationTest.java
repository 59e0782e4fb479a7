package paynotify.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import paynotify.testsupport.PrivateFile;
import paynotify.testsupport.ServiceProcess;

/**
 * A bad configuration stops the real process at start with one line naming the file and the key
 * to fix, and a non-zero exit code. (A database that does not answer yet is no such error:
 * {@link paynotify.setup.DatabaseAtStartTest}.)
 */
class StartupValidationTest {
  @TempDir
  Path dir;

  @Test
  void missingKeyFileNamesTheKey() throws Exception {
    Path key = dir.resolve("nope.pem");
    refused("alipay:\n  app_id: \"2021004143859201\"\n  public_key_file: " + key + "\n",
        "alipay.public_key_file: file " + key + " does not exist");
  }

  @Test
  void malformedKeyNamesTheKey() throws Exception {
    Path key = Files.writeString(dir.resolve("alipay.pem"),
        "-----BEGIN PUBLIC KEY-----\nbm90IGEga2V5\n-----END PUBLIC KEY-----\n");
    refused("alipay:\n  app_id: \"2021004143859201\"\n  public_key_file: " + key + "\n",
        "alipay.public_key_file: not a usable Alipay public key");
  }

  @Test
  void missingConfigFileIsNamed() throws Exception {
    refused(dir.resolve("absent.yaml"), dir.resolve("absent.yaml") + ": config file not found");
  }

  @Test
  void badNumberNamesTheKey() throws Exception {
    refused("http:\n  port: eighty\n", "http.port: 'eighty' is not a whole number");
  }

  @Test
  void rejectedRetentionLongerThanTheLogsNamesTheKey() throws Exception {
    refused("retention:\n  notify_log_days: 5\n  rejected_days: 7\n",
        "retention.rejected_days: 7 is longer than retention.notify_log_days (5)");
  }

  @Test
  void unknownWechatSignTypeNamesTheKey() throws Exception {
    Path key = PrivateFile.write(dir.resolve("api_key"), "0123456789abcdef0123456789abcdef\n");
    refused("wechat_v2:\n  appid: wx1\n  mch_id: \"1900012345\"\n  api_key_file: " + key + "\n  sign_type: SHA1\n",
        "wechat_v2.sign_type: 'SHA1' is not MD5 or HMAC-SHA256");
  }

  /** Security review N4: a key file another user can read stops the start, naming the key, the file, the fix. */
  @Test
  void aKeyFileOthersCanReadNamesTheKeyTheFileAndTheFix() throws Exception {
    Path key = Files.writeString(dir.resolve("epay.key"), "an-epay-merchant-key\n");
    Files.setPosixFilePermissions(key, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
    String user = System.getProperty("user.name");
    refused("epay:\n  pid: \"1001\"\n  key_file: " + key + "\n", "epay.key_file: " + key + " can be read or written"
        + " by other users (mode 644): chmod 600 " + key + "; chown " + user + " " + key);
  }

  @Test
  void wechatApiKeyOfTheWrongLengthNamesTheKey() throws Exception {
    Path key = PrivateFile.write(dir.resolve("api_key"), "too-short\n");
    refused("wechat_v2:\n  appid: wx1\n  mch_id: \"1900012345\"\n  api_key_file: " + key + "\n",
        "wechat_v2.api_key_file: the API key (API密钥) has 32 characters, this has 9");
  }

  @Test
  void halfConfiguredWechatV3NamesWhatIsMissing() throws Exception {
    refused("wechat_v3:\n  mchid: \"1900012345\"\n  appid: wx1\n  apiv3_key: JxTibTGfBFMWxrOZjX7ALW59t7U2Ea03\n",
        "wechat_v3.platform_keys: missing");
  }

  @Test
  void paypalWithoutItsCurrencyNamesTheKey() throws Exception {
    refused("paypal:\n  receiver_email: seller@example.com\n", "paypal.currency: missing");
  }

  // Issue 40, N11: no epusdt callback names its fiat; the one it is booked in is said, and must be one
  @Test
  void epusdtCurrencyIsACurrencyCode() throws Exception {
    refused("epusdt:\n  currency: USDT\n", Map.of("PAYNOTIFY_EPUSDT_TOKEN", "an-epusdt-token-of-the-site"),
        "epusdt.currency: 'USDT' is not a three-letter currency code such as CNY");
  }

  @Test
  void paypalOrderFieldMustBeInvoiceOrCustom() throws Exception {
    refused("paypal:\n  receiver_id: SELLER7QJKLMN\n  currency: USD\n  order_field: memo\n",
        "paypal.order_field: 'memo' is not invoice or custom");
  }

  @Test
  void missingServerPublicKeyFileNamesTheKey() throws Exception {
    serverKeyRefused(null, "file %s does not exist");
  }

  @Test
  void serverPublicKeyFileThatHoldsNoKeyNamesTheKey() throws Exception {
    // A certificate is no public key: MySQL's public_key.pem is. (Whether MySQL 8 then accepts the key cannot be
    // tested here: MariaDB has no caching_sha2_password.)
    serverKeyRefused("-----BEGIN CERTIFICATE-----\nbm90\n-----END CERTIFICATE-----\n",
        "not an RSA public key in PEM (-----BEGIN PUBLIC KEY-----) in %s");
  }

  @Test
  void damagedServerPublicKeyNamesTheKey() throws Exception {
    serverKeyRefused("-----BEGIN PUBLIC KEY-----\nbm90IGEga2V5\n-----END PUBLIC KEY-----\n",
        "not a usable RSA public key in %s");
  }

  @Test
  void caFileThatHoldsNoCertificateNamesTheKey() throws Exception {
    Path ca = Files.writeString(dir.resolve("ca.pem"), "not a certificate\n");
    refused("database:\n  tls: true\n  tls_ca_file: " + ca + "\n",
        "database.tls_ca_file: not a PEM certificate (-----BEGIN CERTIFICATE-----) in " + ca);
  }

  @Test
  void caFileWithoutTlsNamesBothKeys() throws Exception {
    Path ca = Files.writeString(dir.resolve("ca.pem"), "unused\n");
    refused("database:\n  tls_ca_file: " + ca + "\n",
        "database.tls_ca_file: is set but database.tls is false: set database.tls: true to use it");
  }

  @Test
  void portInUseNamesTheKey() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      refused("http:\n  port: " + taken.getLocalPort() + "\ndatabase:\n  host: 127.0.0.1\n  port: 1\n",
          "http.port: the port is already in use");
    }
  }

  /**
   * The admin listener's settings, on free ports and with a database that does not answer: a start
   * the check lets through (before it existed) stays a small process, busy with no one's port.
   */
  private static String admin(String settings) throws IOException {
    return "http:\n  port: 0\ndatabase:\n  host: 127.0.0.1\n  port: 1\nadmin:\n  port: " + ServiceProcess.freePort()
        + "\n" + settings;
  }

  @Test
  void adminOnAnotherAddressThanLoopbackNeedsAToken() throws Exception {
    refused(admin("  host: 0.0.0.0\n"), "admin.host: 0.0.0.0 is not a loopback address: the status pages and"
        + " metrics would be anyone's; set admin.token_file (or PAYNOTIFY_ADMIN_TOKEN), or host: 127.0.0.1");
  }

  /** An unexpanded variable in a unit or a shell script: it must not silently mean "no token". */
  @Test
  void anEmptyAdminTokenVariableNamesTheKey() throws Exception {
    refused(admin(""), Map.of("PAYNOTIFY_ADMIN_TOKEN", ""),
        "admin.token: set but empty (PAYNOTIFY_ADMIN_TOKEN=\"\"?): give the token, or unset it for none");
  }

  @Test
  void aBlankAdminTokenFileNamesTheKey() throws Exception {
    Path token = PrivateFile.write(dir.resolve("admin.token"), " \n\t\n");
    refused(admin("  token_file: " + token + "\n"), "admin.token_file: " + token + " holds no token (only blanks)");
  }

  @Test
  void aShortAdminTokenNamesTheKey() throws Exception {
    Path token = PrivateFile.write(dir.resolve("admin.token"), "too-short\n");
    refused(admin("  token_file: " + token + "\n"), "admin.token_file: the token has 9 characters: use at"
        + " least 16 random ones (e.g. openssl rand -hex 32)");
  }

  /** database.server_public_key_file naming a file of {@code content} (null: none) is refused: {@code problem}, %s the file. */
  private void serverKeyRefused(String content, String problem) throws Exception {
    Path key = dir.resolve("public_key.pem");
    if (content != null) {
      Files.writeString(key, content);
    }
    refused("database:\n  server_public_key_file: " + key + "\n",
        "database.server_public_key_file: " + problem.formatted(key));
  }

  /** Serving this configuration stops the process: exit 2, its last line the file and {@code expected}. */
  private void refused(String yaml, String expected) throws Exception {
    refused(yaml, Map.of(), expected);
  }

  private void refused(String yaml, Map<String, String> env, String expected) throws Exception {
    Path config = Files.writeString(dir.resolve("application.yaml"), yaml);
    refused(config, env, config + ": " + expected);
  }

  private void refused(Path config, String expected) throws Exception {
    refused(config, Map.of(), expected);
  }

  private void refused(Path config, Map<String, String> env, String expected) throws Exception {
    try (ServiceProcess p = ServiceProcess.start(config, dir, env)) {
      assertThat(p.exitCode(Duration.ofSeconds(60))).isEqualTo(2);
      assertThat(p.lastErrorLine()).startsWith("paynotify: " + expected);
    }
  }
}
