package paynotify.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import paynotify.testsupport.AlipayNotifications;
import paynotify.testsupport.PrivateFile;
import paynotify.testsupport.TestService;
import paynotify.testsupport.WechatV3Notifications;

/**
 * Security review N4: every file that holds a secret (a channel's key, the forward and alert secrets, the SMTP and
 * database passwords, the admin token, the merchant keys) is refused at start, naming the key and the file and what
 * to run, when another user can read it or it is not the service user's; as the merchant keys always were. Public
 * keys and certificates are anyone's to read.
 */
class SecretFileTest {
  /** The *_file keys of the shipped configuration that name no secret. */
  private static final Set<String> PUBLIC = Set.of("alipay.public_key_file", "wechat_v3.platform_keys[].key_file",
      "wechat_v3.merchant_certificate_file", "alipay.app_cert_file", "alipay.alipay_cert_file",
      "alipay.alipay_root_cert_file", "database.tls_ca_file", "database.server_public_key_file");

  @TempDir
  Path dir;

  /** Every *_file and *_files key of conf/application.yaml but the public ones: each holds a secret. */
  static Set<String> secretFileKeys() {
    return ConfigTemplate.shipped().stream().filter(k -> k.endsWith("_file") || k.endsWith("_files"))
        .filter(k -> !PUBLIC.contains(k)).collect(Collectors.toCollection(TreeSet::new));
  }

  @Test
  void theKeysCheckedAreTheSecretsOfTheShippedFile() {
    assertThat(secretFileKeys()).contains("epay.key_file", "wechat_v2.api_key_file", "wechat_v3.apiv3_key_file",
        "vmq.key_file", "epusdt.token_file", "xunhupay.appsecret_file", "stripe.webhook_secrets_file",
        "stripe.api_key_file", "alerts.wecom.webhook_url_file", "alerts.smtp.password_file", "forward.secret_file",
        "forward.secret_files", "forward.endpoints[].secret_file", "database.password_file", "admin.token_file",
        "alipay.app_private_key_file", "wechat_v3.merchant_private_key_file", "paddle.webhook_secret_file",
        "paddle.webhook_secrets_file", "paddle.api_key_file", "tokenpay.key_file",
        "lemonsqueezy.signing_secret_file", "lemonsqueezy.api_key_file", "creem.webhook_secret_file",
        "creem.api_key_file").hasSize(33);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("secretFileKeys")
  void aSecretFileOthersCanReadStopsTheStart(String key) throws Exception {
    Path file = dir.resolve("shared");
    Files.writeString(file, content(key));
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    assertThatThrownBy(() -> AppConfig.from(configuration(key, file), "test", Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("test: " + key.replace("[]", "[0]") + ": " + file + " can be read or written by other users")
        .hasMessageEndingWith("chmod 600 " + file + "; chown " + System.getProperty("user.name") + " " + file);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("secretFileKeys")
  void aSecretFileOfAnotherUserStopsTheStart(String key) throws Exception {
    Path file = PrivateFile.write(dir.resolve("theirs"), content(key));
    Files.setOwner(file, nobody());
    assertThatThrownBy(() -> AppConfig.from(configuration(key, file), "test", Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("test: " + key.replace("[]", "[0]") + ": " + file + " is owned by nobody, not by "
            + System.getProperty("user.name"))
        .hasMessageContaining("sudo -u nobody")
        .hasMessageContaining("chmod 600 " + file + "; chown " + System.getProperty("user.name") + " " + file);
  }

  @Test
  void aPrivateSecretFileIsRead() throws Exception {
    Path file = PrivateFile.write(dir.resolve("epay.key"), "an-epay-key\n");
    AppConfig config = AppConfig.from(configuration("epay.key_file", file), "test", Map.of());
    assertThat(config.channels().enabled()).isNotEmpty();
  }

  @Test
  void aLinkIsNotFollowed() throws Exception {
    Path target = PrivateFile.write(dir.resolve("epay.key"), "an-epay-key\n");
    Path link = Files.createSymbolicLink(dir.resolve("link"), target);
    assertThatThrownBy(() -> AppConfig.from(configuration("epay.key_file", link), "test", Map.of()))
        .hasMessage("test: epay.key_file: " + link + " is not a regular file (a link is not followed)");
  }

  /** A public key and a platform certificate are not secrets: a file anyone may read, root's here, is taken. */
  @Test
  void publicKeysMayBeReadByAnyone() throws Exception {
    Path alipay = Files.writeString(dir.resolve("alipay_public.pem"), AlipayNotifications.PUBLIC_KEY_PEM);
    Path wechat = Files.writeString(dir.resolve("wechatpay_public.pem"), WechatV3Notifications.PUBLIC_KEY_PEM);
    for (Path p : new Path[] {alipay, wechat}) {
      Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-r--r--"));
      Files.setOwner(p, nobody());
    }
    JsonObject overrides = new JsonObject()
        .put("alipay", new JsonObject().putNull("public_key").put("public_key_file", alipay.toString()))
        .put("wechat_v3", new JsonObject().put("platform_keys", new JsonArray().add(new JsonObject()
            .put("id", WechatV3Notifications.PUBLIC_KEY_ID).put("key_file", wechat.toString()))));
    assertThat(AppConfig.from(TestService.configuration(overrides), "test", Map.of()).channels().disabled())
        .isEmpty();
  }

  private UserPrincipal nobody() throws Exception {
    return dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
  }

  /** Content the key would take, so that only the file's mode or owner can stop the start. */
  private static String content(String key) {
    return switch (key) {
      case "alipay.app_private_key_file" -> AlipayNotifications.PRIVATE_KEY;
      case "wechat_v3.merchant_private_key_file" -> "-----BEGIN PRIVATE KEY-----\n" + java.util.Base64.getMimeEncoder()
          .encodeToString(WechatV3Notifications.PRIVATE_KEY.getEncoded()) + "\n-----END PRIVATE KEY-----\n";
      case "stripe.api_key_file" -> "rk_test_0123456789abcdef";
      case "stripe.webhook_secrets_file" -> "whsec_0123456789abcdef0123456789";
      case "wechat_v2.api_key_file", "wechat_v3.apiv3_key_file" -> "0123456789abcdef0123456789abcdef";
      default -> key.contains("url") ? "https://alerts.example.com/hook?key=0123456789abcdef"
          : "whsec_" + java.util.Base64.getEncoder().encodeToString(new byte[32]);
    };
  }

  /**
   * The test configuration with {@code key} naming {@code file} (a list of it for *_files), its inline sibling
   * unset, and what makes it read: forward.url for the forward secrets, an endpoint for an endpoint's, the admin
   * listener for its token.
   */
  private static JsonObject configuration(String key, Path file) {
    JsonObject config = TestService.configuration(new JsonObject());
    Object value = key.endsWith("_files") ? new JsonArray().add(file.toString()) : file.toString();
    String[] path = key.split("\\.");
    JsonObject section = config;
    for (int i = 0; i < path.length - 1; i++) {
      if (path[i].endsWith("[]")) { // forward.endpoints[]: one endpoint
        JsonObject entry = new JsonObject().put("name", "crm").put("url", "https://crm.example.com/hook");
        section.put(path[i].replace("[]", ""), new JsonArray().add(entry));
        section = entry;
      } else {
        if (section.getJsonObject(path[i]) == null) {
          section.put(path[i], new JsonObject());
        }
        section = section.getJsonObject(path[i]);
      }
    }
    String name = path[path.length - 1];
    section.remove(name.replaceAll("_files?$", "")); // the inline form (e.g. epay.key) and the file are not both
    section.remove(name.endsWith("s") ? name.replaceAll("s$", "") : name + "s");
    section.put(name, value);
    if (key.startsWith("forward.") && !key.startsWith("forward.endpoints")) {
      section.put("url", "https://site.example.com/hook");
    }
    if (key.equals("admin.token_file")) { // read when the admin listener is on
      section.put("port", 18081);
    }
    if (key.equals("stripe.webhook_secrets_file") || key.equals("paddle.webhook_secrets_file")) {
      section.remove("webhook_secret");
    }
    if (key.equals("paddle.api_key_file")) { // read with the destination it asks about
      section.put("notification_setting_id", "ntfset_01hs0t3tw21j988db1pam5xg8m");
    }
    if (key.equals("wechat_v3.merchant_private_key_file")) {
      section.put("merchant_serial_no", "5157F09EFDC096DE15EBE81A47057A7232F1B8E1");
    }
    return config;
  }
}
