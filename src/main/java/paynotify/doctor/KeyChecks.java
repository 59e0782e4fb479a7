package paynotify.doctor;

import static paynotify.doctor.SecretFiles.section;
import static paynotify.doctor.SecretFiles.string;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PublicKey;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.util.List;
import paynotify.channel.alipay.AlipayCertRules;
import paynotify.channel.wechat.WechatV3Signature;
import paynotify.crypto.MerchantKey;
import paynotify.crypto.PublicKeys;

/**
 * Each configured platform's keys, read from the settings before the start checks them: each is the kind its key
 * says (a public key, a private key, a certificate), of the length the platform issues, not the merchant's own half
 * where the platform's belongs (Alipay's 应用公钥 mix-up, the commonest "can pay, never called back"), and no
 * certificate expired or about to; then the string keys of the other platforms (KeyShapes).
 */
public final class KeyChecks {
  static final String ALIPAY_PUBLIC_KEY = "alipay.public_key_file must hold 支付宝公钥 (Alipay's public key):"
      + " 支付宝开放平台 (open.alipay.com) → 开发设置 / 接口加签方式 → 查看支付宝公钥, not 应用公钥";
  /** Where an Alipay application's signing mode and its files are: 证书 (certificate mode) or 公钥. */
  private static final String ALIPAY_SIGNING = "支付宝开放平台 (open.alipay.com) → 开发设置 → 接口加签方式";
  private static final List<String> ALIPAY_CERT_FILES = List.of("app_cert_file", "alipay_cert_file",
      "alipay_root_cert_file");
  private static final String ALIPAY_APP_KEY = "name the application private key (应用私钥, PKCS#8, as Alipay's key"
      + " tool 支付宝开放平台密钥工具 writes it), the key whose 应用公钥 was uploaded at 接口加签方式";
  private static final String WECHAT_KEYS = "商户平台 (pay.weixin.qq.com) → 账户中心 → API安全";
  private static final String WECHAT_PLATFORM_KEY = "list WeChat Pay's public key (微信支付公钥 pub_key.pem with its"
      + " PUB_KEY_ID_ id) or its platform certificate (平台证书): " + WECHAT_KEYS;

  private final JsonObject settings;
  private final SecretFiles secrets;
  private final Checkup checkup;
  private final Clock clock;

  private KeyChecks(JsonObject settings, SecretFiles secrets, Checkup checkup, Clock clock) {
    this.settings = settings;
    this.secrets = secrets;
    this.checkup = checkup;
    this.clock = clock;
  }

  /** Looks over the keys of {@code settings} (AppConfig.settings: the file with the environment over it). */
  public static void run(JsonObject settings, Checkup checkup, Clock clock) {
    SecretFiles secrets = SecretFiles.read(settings, checkup);
    KeyChecks keys = new KeyChecks(settings, secrets, checkup, clock);
    keys.alipay();
    keys.wechatV2();
    keys.wechatV3();
    keys.databaseCa();
    KeyShapes.check(settings, secrets, checkup);
  }

  private void alipay() {
    JsonObject alipay = section(settings, "alipay");
    if (ALIPAY_CERT_FILES.stream().anyMatch(k -> string(alipay, k) != null)) {
      alipayCertificates(alipay);
      return;
    }
    Given given = publicText(alipay, "alipay.", "public_key");
    String appKeyFile = string(alipay, "app_private_key_file");
    if (given == null && appKeyFile == null) {
      return;
    }
    PublicKey alipayKey = given == null ? null : alipayPublicKey(given);
    MerchantKey appKey = appKeyFile == null ? null : privateKey("alipay.app_private_key_file", ALIPAY_APP_KEY);
    if (alipayKey != null && appKey != null) {
      if (appKey.pairsWith(alipayKey)) {
        checkup.found(given.where(), "holds the application's public key (应用公钥), the public half of"
            + " alipay.app_private_key_file: Alipay signs with its own key, so every notification fails its"
            + " signature (paid, never called back)", ALIPAY_PUBLIC_KEY);
      } else {
        checkup.checked(given.where() + ": not the application's own public key (应用公钥)");
      }
    } else if (alipayKey != null) {
      checkup.skipped("whether " + given.where() + " is 应用公钥 in place of 支付宝公钥: no"
          + " alipay.app_private_key_file to compare it with");
    }
  }

  /**
   * Certificate mode (公钥证书模式): each file a certificate, Alipay's issued by the root file's root, the
   * application's certificate of the application's key, and Alipay's not the application's (this mode's 应用公钥
   * mix-up: appCertPublicKey_&lt;appid&gt;.crt where alipayCertPublicKey_RSA2.crt belongs).
   */
  private void alipayCertificates(JsonObject alipay) {
    if (publicText(alipay, "alipay.", "public_key") != null) {
      checkup.found("alipay.public_key_file", "set beside the certificate files: the service refuses to start with"
          + " both modes", "keep the mode chosen at " + ALIPAY_SIGNING + ": remove alipay.public_key_file for 证书,"
          + " or the three *_cert_file keys for 公钥");
    }
    List<X509Certificate> app = alipayCertFile(alipay, "app_cert_file", "appCertPublicKey_<appid>.crt (应用公钥证书)");
    List<X509Certificate> platform = alipayCertFile(alipay, "alipay_cert_file",
        "alipayCertPublicKey_RSA2.crt (支付宝公钥证书)");
    List<X509Certificate> roots = alipayCertFile(alipay, "alipay_root_cert_file", "alipayRootCert.crt (支付宝根证书)");
    String renew = "download the current files: " + ALIPAY_SIGNING + " → 证书";
    if (app != null) {
      CertificateExpiry.check(app.get(0), "alipay.app_cert_file", renew, clock, checkup);
    }
    if (platform != null) {
      CertificateExpiry.check(platform.get(0), "alipay.alipay_cert_file", renew, clock, checkup);
    }
    if (roots != null) {
      AlipayCertRules.rsaRoots(roots).forEach(root -> CertificateExpiry.check(root, "alipay.alipay_root_cert_file",
          renew, clock, checkup));
    }
    if (platform != null && roots != null) {
      if (AlipayCertRules.rootSn(roots) == null) {
        checkup.found("alipay.alipay_root_cert_file", "holds no RSA-signed root: not alipayRootCert.crt",
            "name alipayRootCert.crt (支付宝根证书): " + ALIPAY_SIGNING + " → 证书");
      } else if (AlipayCertRules.chains(platform, roots, clock.instant())) {
        checkup.checked("alipay.alipay_cert_file: issued by alipay.alipay_root_cert_file's root");
      } else {
        checkup.found("alipay.alipay_cert_file", "not issued by alipay.alipay_root_cert_file's root, or not valid now:"
            + " a re-issued certificate would not be trusted either", "name alipayCertPublicKey_RSA2.crt and"
            + " alipayRootCert.crt downloaded together: " + ALIPAY_SIGNING + " → 证书");
      }
    }
    MerchantKey appKey = string(alipay, "app_private_key_file") == null ? null
        : privateKey("alipay.app_private_key_file", ALIPAY_APP_KEY);
    if (app != null && platform != null && (AlipayCertRules.sn(app.get(0)).equals(AlipayCertRules.sn(platform.get(0)))
        || appKey != null && appKey.pairsWith(platform.get(0).getPublicKey()))) {
      checkup.found("alipay.alipay_cert_file", "holds the application's certificate (应用公钥证书, of the key in"
          + " alipay.app_private_key_file): Alipay signs with its own, so every notification fails its signature"
          + " (paid, never called back)", "name alipayCertPublicKey_RSA2.crt (支付宝公钥证书), not"
          + " appCertPublicKey_<appid>.crt: " + ALIPAY_SIGNING + " → 证书");
    } else if (app != null && platform != null) {
      checkup.checked("alipay.alipay_cert_file: not the application's own certificate (应用公钥证书)");
    }
    if (app != null && appKey != null) {
      if (appKey.pairsWith(app.get(0).getPublicKey())) {
        checkup.checked("alipay.app_cert_file: the certificate of alipay.app_private_key_file's key");
      } else {
        checkup.found("alipay.app_cert_file", "its key is not the public half of alipay.app_private_key_file: Alipay"
            + " refuses every query, close and bill download (isv.invalid-signature)", "name the application"
            + " certificate made from this key's CSR (支付宝开放平台密钥工具 → 生成CSR, uploaded at " + ALIPAY_SIGNING
            + " → 证书), or the private key it was made with");
      }
    }
  }

  /** One of the three certificate files: its certificates, or null (not set, or a finding says what is wrong). */
  private List<X509Certificate> alipayCertFile(JsonObject alipay, String key, String what) {
    String file = string(alipay, key);
    String where = "alipay." + key;
    if (file == null) {
      checkup.found(where, "not set: certificate mode (公钥证书模式) needs all three certificate files",
          "name " + what + ": " + ALIPAY_SIGNING + " → 证书");
      return null;
    }
    String text = readPublic(where, file);
    if (text == null) {
      return null;
    }
    try {
      List<X509Certificate> certs = PublicKeys.parseCertificates(text);
      checkup.checked(where + ": a certificate, SN " + AlipayCertRules.sn(certs.get(0)));
      return certs;
    } catch (IllegalArgumentException e) {
      checkup.found(where, e.getMessage(), "name " + what + ": " + ALIPAY_SIGNING + " → 证书");
      return null;
    }
  }

  private PublicKey alipayPublicKey(Given given) {
    if (given.text().contains("BEGIN CERTIFICATE")) {
      X509Certificate cert = certificate(given, ALIPAY_PUBLIC_KEY);
      if (cert != null) {
        CertificateExpiry.check(cert, given.where(), "download the current alipayCertPublicKey_RSA2.crt: 支付宝开放平台"
            + " → 开发设置 / 接口加签方式", clock, checkup);
        checkup.found(given.where(), "holds a certificate (公钥证书模式), where the key itself belongs",
            "give the key in it: openssl x509 -pubkey -noout -in alipayCertPublicKey_RSA2.crt > alipay_public_key.pem,"
                + " and name that file");
        return cert.getPublicKey();
      }
      return null;
    }
    return publicKey(given, ALIPAY_PUBLIC_KEY);
  }

  private void wechatV2() {
    Given key = secrets.secret("wechat_v2.api_key");
    if (key == null) {
      return;
    }
    if (key.text().length() != 32) {
      checkup.found(key.where(), "the API key has " + key.text().length() + " characters; WeChat Pay's v2 API key"
          + " (API密钥) has 32", "paste the API密钥 set at " + WECHAT_KEYS + " → 设置API密钥 (32 characters: not"
          + " the APIv3 key, not the AppSecret of the 公众号)");
    } else {
      checkup.checked(key.where() + ": 32 characters");
    }
  }

  private void wechatV3() {
    JsonObject v3 = section(settings, "wechat_v3");
    Given apiV3Key = secrets.secret("wechat_v3.apiv3_key");
    if (apiV3Key != null) {
      int bytes = apiV3Key.text().getBytes(StandardCharsets.UTF_8).length;
      if (bytes != 32) {
        checkup.found(apiV3Key.where(), "the APIv3 key has " + bytes + " bytes; WeChat Pay's APIv3 key (APIv3密钥)"
            + " has 32", "paste the APIv3密钥 set at " + WECHAT_KEYS + " → 设置APIv3密钥 (32 characters: not the v2"
            + " API key)");
      } else {
        checkup.checked(apiV3Key.where() + ": 32 bytes");
      }
    }
    MerchantKey merchant = string(v3, "merchant_private_key_file") == null ? null
        : privateKey("wechat_v3.merchant_private_key_file", "name the merchant API private key (商户API私钥"
            + " apiclient_key.pem, from the 商户API证书 tool at " + WECHAT_KEYS + ")");
    merchantCertificate(v3, merchant);
    JsonArray platformKeys = v3.getValue("platform_keys") instanceof JsonArray list ? list : new JsonArray();
    for (int i = 0; i < platformKeys.size(); i++) {
      if (platformKeys.getValue(i) instanceof JsonObject entry) {
        platformKey(publicText(entry, "wechat_v3.platform_keys[" + i + "].", "key"), merchant);
      }
    }
  }

  /**
   * wechat_v3.merchant_certificate_file (apiclient_cert.pem), when given: its serial is merchant_serial_no (WeChat
   * looks the key up by it: another serial and every request is refused), its public key the private key's half
   * (a key and a certificate of two different applications), and its expiry.
   */
  private void merchantCertificate(JsonObject v3, MerchantKey merchant) {
    String where = "wechat_v3.merchant_certificate_file";
    String file = string(v3, "merchant_certificate_file");
    String text = file == null ? null : readPublic(where, file);
    X509Certificate cert = text == null ? null : certificate(new Given(where, text), "name the merchant API"
        + " certificate (商户API证书 apiclient_cert.pem, beside apiclient_key.pem): " + WECHAT_KEYS);
    if (cert == null) {
      return;
    }
    CertificateExpiry.check(cert, where, "renew the merchant API certificate at " + WECHAT_KEYS + " → 申请API证书;"
        + " then replace merchant_private_key_file and merchant_certificate_file, and set merchant_serial_no to the"
        + " new serial", clock, checkup);
    String serial = PublicKeys.serial(cert);
    String configured = string(v3, "merchant_serial_no");
    if (configured == null) {
      checkup.found("wechat_v3.merchant_serial_no", "missing, while " + where + " is given",
          "set it to the certificate's serial: " + serial);
    } else if (!WechatV3Signature.keyId(configured).equals(serial)) {
      checkup.found("wechat_v3.merchant_serial_no", "'" + configured + "' is not the serial of " + where + " ("
          + serial + "): WeChat Pay looks the merchant key up by it and refuses every request signed under another",
          "set it to " + serial + " (商户API证书序列号, " + WECHAT_KEYS + "), or name that serial's certificate");
    } else {
      checkup.checked("wechat_v3.merchant_serial_no: the serial of " + where);
    }
    if (merchant == null) {
      checkup.skipped("whether " + where + " is the certificate of wechat_v3.merchant_private_key_file: no key to"
          + " compare it with");
    } else if (!merchant.pairsWith(cert.getPublicKey())) {
      checkup.found("wechat_v3.merchant_private_key_file", "is not the private key of " + where + " (serial " + serial
          + "): WeChat Pay verifies requests with that certificate's key, so every request would be refused",
          "name the apiclient_key.pem written with that apiclient_cert.pem by the certificate tool (or both files"
              + " of a new certificate: " + WECHAT_KEYS + " → 申请API证书)");
    } else {
      checkup.checked("wechat_v3.merchant_private_key_file: the private key of " + where);
    }
  }

  private void platformKey(Given given, MerchantKey merchant) {
    if (given == null) {
      return;
    }
    PublicKey key;
    if (given.text().contains("BEGIN CERTIFICATE")) {
      X509Certificate cert = certificate(given, WECHAT_PLATFORM_KEY);
      if (cert == null) {
        return;
      }
      CertificateExpiry.check(cert, given.where(), "list the current platform certificate (平台证书), or switch to"
          + " WeChat Pay's public key (微信支付公钥, no expiry): " + WECHAT_KEYS, clock, checkup);
      key = cert.getPublicKey();
    } else {
      key = publicKey(given, WECHAT_PLATFORM_KEY);
    }
    if (key != null && merchant != null && merchant.pairsWith(key)) {
      checkup.found(given.where(), "holds the merchant's own key (商户API证书 apiclient_cert.pem, the public half of"
          + " wechat_v3.merchant_private_key_file), where WeChat Pay's belongs", WECHAT_PLATFORM_KEY);
    }
  }

  /** database.tls_ca_file's certificate, when one is set: expired, the database's TLS handshake fails. */
  private void databaseCa() {
    String file = string(section(settings, "database"), "tls_ca_file");
    Given given = file == null ? null : new Given("database.tls_ca_file", readPublic("database.tls_ca_file", file));
    if (given != null && given.text() != null) {
      X509Certificate cert = certificate(given, "name the CA certificate (PEM) that signed the database server's");
      if (cert != null) {
        CertificateExpiry.check(cert, given.where(), "name the CA certificate that signs the database server's"
            + " current one", clock, checkup);
      }
    }
  }

  private PublicKey publicKey(Given given, String change) {
    if (given.text().contains("PRIVATE KEY")) {
      checkup.found(given.where(), "holds a private key, where a public key belongs", change
          + " (and replace that private key: it was in a file other users may read)");
      return null;
    }
    try {
      PublicKey key = PublicKeys.parseRsa(given.text());
      checkup.checked(given.where() + ": an RSA public key");
      return key;
    } catch (IllegalArgumentException e) {
      checkup.found(given.where(), "not a usable public key: " + e.getMessage(), change);
      return null;
    }
  }

  private X509Certificate certificate(Given given, String change) {
    try {
      return PublicKeys.parseCertificate(given.text());
    } catch (IllegalArgumentException e) {
      checkup.found(given.where(), e.getMessage(), change);
      return null;
    }
  }

  private MerchantKey privateKey(String key, String change) {
    String text = secrets.content(key);
    if (text == null) {
      return null; // refused: SecretFiles said why
    }
    try {
      MerchantKey merchant = MerchantKey.parse(text, "the file");
      checkup.checked(key + ": an RSA private key");
      return merchant;
    } catch (IllegalArgumentException e) {
      checkup.found(key, e.getMessage(), change);
      return null;
    }
  }

  /** A public key or certificate, inline or in a file anyone may read; null when neither is set or unreadable. */
  private Given publicText(JsonObject node, String prefix, String key) {
    String inline = string(node, key);
    if (inline != null) {
      return new Given(prefix + key, inline);
    }
    String file = string(node, key + "_file");
    String text = file == null ? null : readPublic(prefix + key + "_file", file);
    return text == null ? null : new Given(prefix + key + "_file", text);
  }

  private String readPublic(String key, String file) {
    Path path = Path.of(file).toAbsolutePath();
    try {
      return Files.readString(path, StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      checkup.found(key, "cannot read " + path + " (" + e.getClass().getSimpleName() + ")",
          "name a file that exists and that the service's user can read");
      return null;
    }
  }

}
