package paynotify.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import paynotify.doctor.Checkup;
import paynotify.doctor.DatabaseClock;
import paynotify.setup.migrate.Jdbc;
import paynotify.testsupport.AlipayCertificateFiles;
import paynotify.testsupport.Cli;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.PlatformCertificates;
import paynotify.testsupport.PrivateFile;
import paynotify.testsupport.ServiceProcess;
import paynotify.testsupport.TestService;

/**
 * `paynotify doctor` on real key files and the test database: the 应用公钥 mix-up (in both Alipay modes), a sound
 * configuration (in both), an
 * unreadable one, a WeChat v2 key of the wrong length, an expired and an expiring certificate, a secret file others
 * can read, keys of the wrong kind or environment (Paddle, TokenPay), and the JSON.
 */
class DoctorCommandTest extends DatabaseTestBase {
  private static final Path DIR = Path.of("target", "doctor-test").toAbsolutePath();
  private static final String API_KEY = "0123456789abcdef0123456789ABCDEF";
  private static KeyPair alipay;
  private static KeyPair app;
  private static KeyPair platform;

  @BeforeAll
  static void keys() throws Exception {
    Files.createDirectories(DIR);
    KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
    rsa.initialize(2048);
    alipay = rsa.generateKeyPair();
    app = rsa.generateKeyPair();
    platform = rsa.generateKeyPair();
  }

  @Test
  void aSoundConfigurationIsExitZero() throws Exception {
    Cli.Result r = Cli.runConfigured(alipaySection(alipay) + wechatV2Section(API_KEY), "doctor");

    System.out.println(r.out());
    assertThat(r.exit()).as(r.out() + r.err()).isZero();
    assertThat(r.out()).contains("checked: alipay.public_key_file: not the application's own public key (应用公钥)\n",
        "checked: alipay.app_private_key_file: an RSA private key\n", "checked: wechat_v2.api_key_file: 32 characters\n",
        "checked: secret files, the service user's and mode 600: 2 of 2\n",
        "checked: the database answers, its schema is current, the orders table fits orders.*\n",
        "not checked: the public notify URL: alerts.probe_url is not set").containsPattern(
            "checked: the database's clock against this machine's: \\d+\\.\\d s apart\n")
        .endsWith("nothing wrong found\n");
  }

  /** 应用公钥 (the public half of the app's own key) where 支付宝公钥 belongs: every notification would be refused. */
  @Test
  void theApplicationPublicKeyInAlipaysPlaceIsAFinding() throws Exception {
    Cli.Result r = Cli.runConfigured(alipaySection(app), "doctor");

    System.out.println(r.out());
    assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCode.FOUND);
    assertThat(r.out()).contains("\nalipay.public_key_file: holds the application's public key (应用公钥), the public"
        + " half of alipay.app_private_key_file", "\n  change: alipay.public_key_file must hold 支付宝公钥 (Alipay's"
        + " public key): 支付宝开放平台 (open.alipay.com) → 开发设置 / 接口加签方式 → 查看支付宝公钥, not 应用公钥\n")
        .endsWith("1 finding: change what each says, then run paynotify doctor again\n");
  }

  @Test
  void theJsonSaysWhereWhatAndWhatToChange() throws Exception {
    Cli.Result r = Cli.runConfigured(alipaySection(app), "doctor", "--json");

    assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCode.FOUND);
    JsonObject report = new JsonObject(r.out());
    assertThat(report.fieldNames()).containsExactlyInAnyOrder("config", "findings", "checked", "not_checked");
    assertThat(report.getString("config")).endsWith("test-cli-configured.yaml");
    JsonArray findings = report.getJsonArray("findings");
    assertThat(findings).hasSize(1);
    assertThat(findings.getJsonObject(0).fieldNames()).containsExactlyInAnyOrder("where", "what", "change");
    assertThat(findings.getJsonObject(0).getString("where")).isEqualTo("alipay.public_key_file");
    assertThat(findings.getJsonObject(0).getString("change")).contains("支付宝公钥", "查看支付宝公钥");
    assertThat(report.getJsonArray("checked")).contains("alipay.app_private_key_file: an RSA private key");
    assertThat(report.getJsonArray("not_checked").getString(0)).startsWith("the public notify URL");
  }

  @Test
  void aConfigurationThatCannotBeReadIsExitTwo() throws Exception {
    Path broken = Files.writeString(DIR.resolve("broken.yaml"), "database:\n  host: [unclosed\n");

    Cli.Result r = Cli.run(broken, "doctor");

    assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCode.UNUSABLE);
    assertThat(r.err()).startsWith("paynotify: " + broken + ": not valid YAML");
    assertThat(r.out()).isEmpty();

    Cli.Result missing = Cli.run(DIR.resolve("absent.yaml"), "doctor");
    assertThat(missing.exit()).isEqualTo(ExitCode.UNUSABLE);
    assertThat(missing.err()).contains("absent.yaml: config file not found");
  }

  @Test
  void aWechatV2KeyOfTheWrongLengthIsAFinding() throws Exception {
    Cli.Result r = Cli.runConfigured(wechatV2Section(API_KEY.substring(1)), "doctor");

    assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCode.FOUND);
    assertThat(r.out()).contains("\nwechat_v2.api_key_file: the API key has 31 characters; WeChat Pay's v2 API key"
        + " (API密钥) has 32\n  change: paste the API密钥 set at 商户平台 (pay.weixin.qq.com) → 账户中心 → API安全")
        .contains("not checked: the database, its clock, the orders table, the public notify URL: the start stops at"
            + " the configuration first")
        .endsWith("1 finding: change what each says, then run paynotify doctor again\n"); // the start's line: not twice
  }

  @Test
  void anExpiredCertificateAndOneAboutToExpireAreFindings() throws Exception {
    Instant now = Instant.now();
    Path expired = certificate("expired.pem", BigInteger.valueOf(0x5157F0L), now.minus(Duration.ofDays(400)),
        now.minus(Duration.ofDays(2)));
    Path expiring = certificate("expiring.pem", BigInteger.valueOf(0x5157F1L), now.minus(Duration.ofDays(400)),
        now.plus(Duration.ofDays(10)).plusSeconds(600));
    Path fine = certificate("fine.pem", BigInteger.valueOf(0x5157F2L), now.minus(Duration.ofDays(1)),
        now.plus(Duration.ofDays(365)));

    Cli.Result r = Cli.runConfigured(wechatV3Section(expired, expiring, fine), "doctor");

    assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCode.FOUND);
    assertThat(r.out()).containsPattern("\nwechat_v3\\.platform_keys\\[0]\\.key_file: the certificate \\(serial"
        + " 5157F0\\) expired on \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\n  change: list the current platform certificate")
        .containsPattern("\nwechat_v3\\.platform_keys\\[1]\\.key_file: the certificate \\(serial 5157F1\\) expires on"
            + " \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC, in 10 days\n")
        .containsPattern("checked: wechat_v3\\.platform_keys\\[2]\\.key_file: certificate valid until ")
        .doesNotContain("platform_keys[2].key_file: the certificate")
        .endsWith("2 findings: change what each says, then run paynotify doctor again\n");
  }

  @Test
  void aSecretFileOthersCanReadIsAFindingWithTheChmod() throws Exception {
    Path key = DIR.resolve("api_key_644");
    Files.deleteIfExists(key);
    Files.createFile(key, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-r--r--")));
    Files.writeString(key, API_KEY, StandardCharsets.UTF_8);
    String yaml = "wechat_v2:\n  appid: wx0000000000000001\n  mch_id: \"1900000001\"\n  api_key_file: " + key + "\n";

    Cli.Result r = Cli.runConfigured(yaml, "doctor", "--json");

    assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCode.FOUND);
    JsonArray findings = new JsonObject(r.out()).getJsonArray("findings");
    assertThat(findings).as("the start's own line about that file is not said twice").hasSize(1);
    JsonObject finding = findings.getJsonObject(0);
    assertThat(finding.getString("where")).isEqualTo("wechat_v2.api_key_file");
    assertThat(finding.getString("what")).isEqualTo(key + " can be read or written by other users (mode 644)");
    assertThat(finding.getString("change")).isEqualTo("chmod 600 " + key + "; chown " + System.getProperty("user.name")
        + " " + key);
  }

  /**
   * Keys the start takes and that never work: a Paddle API key where the destination's secret key belongs, a sandbox
   * key asking the live API, TokenPay's sample ApiToken; each said by its prefix at most.
   */
  @Test
  void keysOfTheWrongKindOrEnvironmentAreFindingsThatPrintNoKey() throws Exception {
    String body = "01hv8x9zq3kx2m7c5n1b4p6r8t_q6TGTJyvoIz7LDtXT65bX7_AQO";
    String yaml = "paddle:\n  webhook_secret_file: " + PrivateFile.write(DIR.resolve("paddle_webhook_secret"),
        "pdl_live_apikey_" + body) + "\n  currency: USD\n  api_key_file: " + PrivateFile.write(
        DIR.resolve("paddle_api_key"), "pdl_sdbx_apikey_" + body) + "\n  notification_setting_id:"
        + " ntfset_01hv8x9zq3kx2m7c5n1b4p6r8t\ntokenpay:\n  key_file: " + PrivateFile.write(
        DIR.resolve("tokenpay_key"), "666666") + "\n";

    Cli.Result r = Cli.runConfigured(yaml, "doctor");

    System.out.println(r.out());
    assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCode.FOUND);
    assertThat(r.out()).contains("\npaddle.webhook_secret_file: holds an API key (pdl_live_apikey_...), not the"
        + " notification destination's secret key (pdl_ntfset_...): every notification fails its signature\n",
        "\npaddle.api_key_file: a sandbox key (pdl_sdbx_apikey_...), while paddle.api_base is https://api.paddle.com"
            + " (the default): Paddle refuses a key of the other environment",
        "\ntokenpay.key_file: is the ApiToken of TokenPay's sample appsettings (666666)",
        "checked: secret files, the service user's and mode 600: 3 of 3\n",
        "checked: the database answers, its schema is current, the orders table fits orders.*\n")
        .doesNotContain(body).endsWith("3 findings: change what each says, then run paynotify doctor again\n");
  }

  /** Certificate mode (公钥证书模式), the three files right: each a certificate, Alipay's issued by the root. */
  @Test
  void aSoundCertificateModeConfigurationIsExitZero() throws Exception {
    AlipayCertificateFiles certs = AlipayCertificateFiles.of(app);
    Cli.Result r = Cli.runConfigured(alipayCertSection(certs.write(Files.createDirectories(DIR.resolve("sound")))),
        "doctor");

    System.out.println(r.out());
    assertThat(r.exit()).as(r.out() + r.err()).isZero();
    assertThat(r.out()).contains("checked: alipay.app_cert_file: a certificate, SN " + AlipayCertificateFiles.sn(
        certs.appCert()) + "\n", "checked: alipay.alipay_cert_file: issued by alipay.alipay_root_cert_file's root\n",
        "checked: alipay.alipay_cert_file: not the application's own certificate (应用公钥证书)\n",
        "checked: alipay.app_cert_file: the certificate of alipay.app_private_key_file's key\n")
        .endsWith("nothing wrong found\n");
  }

  /** This mode's 应用公钥 mix-up: appCertPublicKey_<appid>.crt named where alipayCertPublicKey_RSA2.crt belongs. */
  @Test
  void theApplicationCertificateInAlipaysPlaceIsAFinding() throws Exception {
    AlipayCertificateFiles.Files3 files = AlipayCertificateFiles.of(app)
        .write(Files.createDirectories(DIR.resolve("mixup")));
    Cli.Result r = Cli.runConfigured(alipayCertSection(new AlipayCertificateFiles.Files3(files.appCert(),
        files.appCert(), files.rootCert())), "doctor");

    System.out.println(r.out());
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.out()).contains("\nalipay.alipay_cert_file: holds the application's certificate (应用公钥证书, of the"
        + " key in alipay.app_private_key_file)", "\n  change: name alipayCertPublicKey_RSA2.crt (支付宝公钥证书), not"
        + " appCertPublicKey_<appid>.crt: 支付宝开放平台 (open.alipay.com) → 开发设置 → 接口加签方式 → 证书\n");
  }

  private static String alipayCertSection(AlipayCertificateFiles.Files3 files) {
    Path appKey = PrivateFile.write(DIR.resolve("app_private_key.pem"), pem("PRIVATE KEY",
        app.getPrivate().getEncoded()));
    return "alipay:\n  app_id: \"2021000000000001\"\n  app_cert_file: " + files.appCert() + "\n  alipay_cert_file: "
        + files.alipayCert() + "\n  alipay_root_cert_file: " + files.rootCert() + "\n  app_private_key_file: " + appKey
        + "\n";
  }

  /** apiclient_cert.pem of the merchant key, under merchant_serial_no: the key, its serial and its dates checked. */
  @Test
  void theMerchantCertificateOfTheKeyAndSerialIsSound() throws Exception {
    Cli.Result r = Cli.runConfigured(wechatV3Section(fineCertificate()) + merchantSection(app, app, "4F1A", "4F1A"),
        "doctor");

    assertThat(r.exit()).as(r.out() + r.err()).isZero();
    assertThat(r.out()).contains("checked: wechat_v3.merchant_certificate_file: certificate valid until ",
        "checked: wechat_v3.merchant_serial_no: the serial of wechat_v3.merchant_certificate_file\n",
        "checked: wechat_v3.merchant_private_key_file: the private key of wechat_v3.merchant_certificate_file\n",
        "checked: secret files, the service user's and mode 600: 2 of 2\n") // the certificate is no secret
        .endsWith("nothing wrong found\n");
  }

  @Test
  void aMerchantCertificateOfAnotherSerialAndAnotherKeyAreTwoFindings() throws Exception {
    Cli.Result r = Cli.runConfigured(wechatV3Section(fineCertificate())
        + merchantSection(app, alipay, "4F1A", "5157F09EFDC096DE15EBE81A47057A7232F1B8E1"), "doctor");

    System.out.println(r.out());
    assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCode.FOUND);
    assertThat(r.out()).contains("\nwechat_v3.merchant_serial_no: '5157F09EFDC096DE15EBE81A47057A7232F1B8E1' is not the"
        + " serial of wechat_v3.merchant_certificate_file (4F1A): WeChat Pay looks the merchant key up by it",
        "\n  change: set it to 4F1A (商户API证书序列号, 商户平台 (pay.weixin.qq.com) → 账户中心 → API安全)",
        "\nwechat_v3.merchant_private_key_file: is not the private key of wechat_v3.merchant_certificate_file (serial"
            + " 4F1A)", "\n  change: name the apiclient_key.pem written with that apiclient_cert.pem")
        .endsWith("2 findings: change what each says, then run paynotify doctor again\n");
  }

  /**
   * Refused rows keep no body, so no key is tried on them; WeChat v3's keep the serial: a public key and a certificate
   * not listed are findings, one listed since is not, and Alipay's refusals are said not checked, with why.
   */
  @Test
  void theSerialsRecentNotificationsWereRefusedUnderAreMatchedWithThePlatformKeys() throws Exception {
    for (String serial : new String[] {"PUB_KEY_ID_0119000123452026112900118800000000", "PUB_KEY_ID_0119000123452026112900118800000000",
        "7E57AB", "05157F2", "x'); DROP"}) {
      db.update("INSERT INTO notify_log (channel, outcome, detail, body_bytes) VALUES ('wechat_v3', 'rejected', ?, 900)",
          "UNKNOWN_SERIAL: Wechatpay-Serial '" + serial + "' is none of wechat_v3.platform_keys (add the new WeChat"
          + " Pay public key or certificate)");
    }
    db.update("INSERT INTO notify_log (channel, outcome, detail, body_bytes) VALUES ('alipay', 'rejected',"
        + " 'BAD_SIGNATURE: signature does not verify with the configured Alipay public key', 900)");

    Cli.Result r = Cli.runConfigured(wechatV3Section(fineCertificate()), "doctor");

    System.out.println(r.out());
    assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCode.FOUND);
    assertThat(r.out()).contains("\nwechat_v3.platform_keys: 2 notification(s) in the last 7 days were refused for"
        + " naming a WeChat Pay public key it does not list (a refused request named"
        + " PUB_KEY_ID_0119000123452026112900118800000000: unverified, anyone can send one)",
        "  change: add the public key: at 商户平台 (pay.weixin.qq.com) → 账户中心 → API安全 → 微信支付公钥 copy 公钥ID and"
            + " download pub_key.pem, and list them as - id: <公钥ID from that page> with key_file: <that file>; then"
            + " restart. Take the id from the console only, never from the refused request",
        "\nwechat_v3.platform_keys: 1 notification(s) in the last 7 days were signed under the platform certificate of"
            + " serial 7E57AB, which it does not list",
        "checked: wechat_v3.platform_keys lists 05157F2 now, which 1 notification(s) refused",
        "not checked: 1 wechat_v3 notification(s) refused for a Wechatpay-Serial that is no serial",
        "not checked: which configured key would have verified the 1 alipay notification(s) refused (BAD_SIGNATURE)"
            + " in the last 7 days, the last at ")
        .doesNotContain("DROP").endsWith("2 findings: change what each says, then run paynotify doctor again\n");
  }

  @Test
  void aDatabaseThatDoesNotAnswerIsAFindingThatSaysWhatToFix() throws Exception {
    int nowhere = ServiceProcess.freePort();
    Path config = Files.writeString(DIR.resolve("no-database.yaml"), "database:\n  host: 127.0.0.1\n  port: "
        + nowhere + "\n  name: paynotify\n  user: paynotify\n  password: \"x\"\n  connect_timeout_ms: 500\n"
        + wechatV2Section(API_KEY));

    Cli.Result r = Cli.run(config, "doctor", "--json");

    System.out.println(r.out() + r.err());
    assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCode.FOUND);
    JsonArray findings = new JsonObject(r.out()).getJsonArray("findings");
    assertThat(findings).singleElement().satisfies(f -> {
      JsonObject finding = (JsonObject) f;
      assertThat(finding.getString("where")).isEqualTo("database.host");
      assertThat(finding.getString("what")).startsWith("the database paynotify@127.0.0.1:" + nowhere + "/paynotify does"
          + " not answer: ").doesNotContain("\"x\"");
      assertThat(finding.getString("change")).startsWith("start MySQL/MariaDB there (systemctl status mariadb;")
          .contains("or set database.host, port, name, user and password");
    });
    assertThat(new JsonObject(r.out()).getJsonArray("not_checked").getString(0)).startsWith("the database's schema,"
        + " its clock, the orders table, the notifications refused lately: the database did not answer");
  }

  /** The database's clock a minute and more from this machine's is a finding, within it a line checked. */
  @Test
  void theDatabaseClockApartFromThisMachinesIsAFinding() throws Exception {
    try (Connection session = Jdbc.open(db.settings()); Statement s = session.createStatement()) {
      s.execute("SET time_zone = '+08:00'");
      Checkup apart = new Checkup("test");
      DatabaseClock.check(session, "+08:00", Clock.offset(Clock.systemUTC(), Duration.ofMinutes(3)), apart);
      assertThat(apart.findings()).singleElement().satisfies(f -> {
        assertThat(f.where()).isEqualTo("database clock");
        assertThat(f.what()).containsPattern("are 1[78]\\d\\.\\d s apart, more than 60 s");
        assertThat(f.change()).contains("timedatectl set-ntp true");
      });
      Checkup close = new Checkup("test");
      DatabaseClock.check(session, "+08:00", Clock.offset(Clock.systemUTC(), Duration.ofSeconds(20)), close);
      assertThat(close.findings()).isEmpty();
      assertThat(close.text()).containsPattern("checked: the database's clock against this machine's: (19|20|21)\\.\\d s"
          + " apart");
    }
  }

  /** alerts.probe_url reaching the running service is checked; an address nothing answers is a finding. */
  @Test
  void theProbeUrlIsProbedAndOneThatReachesNothingIsAFinding() throws Exception {
    String alerts = "alerts:\n  probe_url: http://127.0.0.1:%d/notify/_probe\n";
    try (TestService service = TestService.start()) {
      Cli.Result r = Cli.runConfigured(alerts.formatted(service.port()), "doctor");
      assertThat(r.exit()).as(r.out() + r.err()).isZero();
      assertThat(r.out()).contains("checked: alerts.probe_url: http://127.0.0.1:" + service.port()
          + "/notify/_probe reaches paynotify\n");
    }
    int nowhere = ServiceProcess.freePort();
    Cli.Result r = Cli.runConfigured(alerts.formatted(nowhere), "doctor");

    assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCode.FOUND);
    assertThat(r.out()).contains("\nalerts.probe_url: http://127.0.0.1:" + nowhere + "/notify/_probe not reached: ",
        "  change: the platforms cannot call back through it either: make that address reach the running service");
  }

  private static Path fineCertificate() throws Exception {
    Instant now = Instant.now();
    return certificate("platform-fine.pem", BigInteger.valueOf(0x5157F2L), now.minus(Duration.ofDays(1)),
        now.plus(Duration.ofDays(365)));
  }

  /** The merchant key of {@code key}, and a certificate of {@code certified}'s public key with serial {@code serial}. */
  private static String merchantSection(KeyPair key, KeyPair certified, String serial, String serialNo) {
    Path keyFile = PrivateFile.write(DIR.resolve("apiclient_key.pem"), pem("PRIVATE KEY", key.getPrivate().getEncoded()));
    Instant now = Instant.now();
    String cert = PlatformCertificates.pem(PlatformCertificates.selfSigned(certified, new BigInteger(serial, 16),
        now.minus(Duration.ofDays(1)), now.plus(Duration.ofDays(365))));
    Path certFile = DIR.resolve("apiclient_cert.pem");
    try {
      Files.writeString(certFile, cert);
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
    return "  merchant_private_key_file: " + keyFile + "\n  merchant_serial_no: \"" + serialNo + "\"\n"
        + "  merchant_certificate_file: " + certFile + "\n";
  }

  private static String alipaySection(KeyPair publicKeyFrom) throws Exception {
    Path publicKey = Files.writeString(DIR.resolve("alipay_public_key.pem"), pem("PUBLIC KEY",
        publicKeyFrom.getPublic().getEncoded()));
    Path appKey = PrivateFile.write(DIR.resolve("app_private_key.pem"), pem("PRIVATE KEY",
        app.getPrivate().getEncoded()));
    return "alipay:\n  app_id: \"2021000000000001\"\n  public_key_file: " + publicKey + "\n  app_private_key_file: "
        + appKey + "\n";
  }

  private static String wechatV2Section(String apiKey) {
    Path key = PrivateFile.write(DIR.resolve("wechat_v2_api_key"), apiKey);
    return "wechat_v2:\n  appid: wx0000000000000001\n  mch_id: \"1900000001\"\n  api_key_file: " + key + "\n";
  }

  private static String wechatV3Section(Path... certificates) {
    Path apiV3Key = PrivateFile.write(DIR.resolve("wechat_v3_apiv3_key"), API_KEY);
    StringBuilder yaml = new StringBuilder("wechat_v3:\n  mchid: \"1900000001\"\n  appid: wx0000000000000001\n"
        + "  apiv3_key_file: " + apiV3Key + "\n  platform_keys:\n");
    for (Path cert : certificates) {
      yaml.append("    - key_file: ").append(cert).append('\n');
    }
    return yaml.toString();
  }

  private static Path certificate(String name, BigInteger serial, Instant notBefore, Instant notAfter)
      throws Exception {
    return Files.writeString(DIR.resolve(name),
        PlatformCertificates.pem(PlatformCertificates.selfSigned(platform, serial, notBefore, notAfter)));
  }

  private static String pem(String label, byte[] der) {
    return "-----BEGIN " + label + "-----\n" + Base64.getMimeEncoder().encodeToString(der) + "\n-----END " + label
        + "-----\n";
  }
}
