package paynotify.config;

import java.nio.file.Path;
import paynotify.crypto.MerchantKey;

/**
 * The merchant keys that can move money, each opt-in and read once from a file only the service's user can
 * read: what recovery's queries and the bill downloads of the same platform sign with.
 *
 * @param alipay   the application's private key (alipay.app_private_key_file); null when not given
 * @param wechatV3 the merchant API key and its certificate serial; null when not given
 */
record MerchantKeys(MerchantKey alipay, SerialKey wechatV3) {
  /** A key named by its certificate's serial: WeChat Pay v3's apiclient_key.pem and the serial WeChat issued. */
  record SerialKey(MerchantKey key, String serial) {}

  static MerchantKeys read(ConfigReader c) {
    String alipayFile = c.string("alipay.app_private_key_file");
    String v3File = c.string("wechat_v3.merchant_private_key_file");
    String serial = c.string("wechat_v3.merchant_serial_no");
    if ((v3File == null) != (serial == null)) {
      throw c.error(v3File == null ? "wechat_v3.merchant_private_key_file" : "wechat_v3.merchant_serial_no",
          "missing: asking WeChat Pay v3 needs both the merchant key (apiclient_key.pem) and its certificate serial");
    }
    return new MerchantKeys(alipayFile == null ? null : key(c, "alipay.app_private_key_file", alipayFile),
        v3File == null ? null : new SerialKey(key(c, "wechat_v3.merchant_private_key_file", v3File), serial));
  }

  /**
   * The key in {@code file}, a secret's file (the service user's alone); what is wrong with either is the
   * configuration key {@code name}'s error (exit 2).
   */
  private static MerchantKey key(ConfigReader c, String name, String file) {
    try {
      Path path = Path.of(file).toAbsolutePath();
      return MerchantKey.parse(SecretFile.read(path), path.toString());
    } catch (IllegalArgumentException e) {
      throw c.error(name, e.getMessage());
    }
  }
}
