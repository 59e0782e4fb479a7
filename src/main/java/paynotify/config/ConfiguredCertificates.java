package paynotify.config;

import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import paynotify.alert.watch.WatchedKeys.Configured;
import paynotify.alert.watch.WatchedKeys;
import paynotify.channel.alipay.AlipayCertRules;
import paynotify.crypto.PublicKeys;

/**
 * The certificates the configuration names, for the alert watch to see them coming to their end: WeChat Pay's
 * merchant API certificate ({@code wechat_v3.merchant_certificate_file}, apiclient_cert.pem: optional, its key is
 * merchant_private_key_file), the certificates among {@code wechat_v3.platform_keys} (and whether a WeChat Pay public
 * key is among them), Alipay's three of certificate mode. Public files: anyone may read them. The channels read and
 * check their own keys; this only lists them.
 */
final class ConfiguredCertificates {
  static final String MERCHANT_CERTIFICATE = "wechat_v3.merchant_certificate_file";
  private static final String ALIPAY_ROOT = "alipay.alipay_root_cert_file";
  private static final List<String> ALIPAY_FILES = List.of("alipay.app_cert_file", WatchedKeys.ALIPAY_CERT,
      ALIPAY_ROOT);

  private ConfiguredCertificates() {}

  static WatchedKeys read(ConfigReader c) {
    List<Configured> certificates = new ArrayList<>();
    file(c, MERCHANT_CERTIFICATE, certificates);
    List<ConfigReader> platformKeys = c.sections("wechat_v3.platform_keys");
    boolean publicKey = false;
    for (int i = 0; i < platformKeys.size(); i++) {
      ConfigReader k = platformKeys.get(i);
      String text = k.publicKey("key");
      if (text == null) {
        continue; // ChannelsConfig says what is missing
      }
      String where = "wechat_v3.platform_keys[" + i + "]." + (k.string("key_file") != null ? "key_file" : "key");
      if (text.contains("BEGIN CERTIFICATE")) {
        certificates.add(new Configured(where, PublicKeys.parseCertificate(text))); // ChannelsConfig read it first
      } else {
        publicKey = true;
      }
    }
    for (String key : ALIPAY_FILES) {
      file(c, key, certificates);
    }
    // The channel is on: mchid is what it requires (ChannelsConfig), with or without keys listed, for a merchant may
    // list none and leave the platform certificates to the download; moved to the public key, it is refused as well.
    return new WatchedKeys(certificates, c.string("wechat_v3.mchid") != null, publicKey);
  }

  /** The certificate of the file {@code key} names, if set: its first; of the root file, each RSA root. */
  private static void file(ConfigReader c, String key, List<Configured> into) {
    List<X509Certificate> certs = c.certificates(key);
    if (certs != null) {
      (key.equals(ALIPAY_ROOT) ? AlipayCertRules.rsaRoots(certs) : certs.subList(0, 1))
          .forEach(cert -> into.add(new Configured(key, cert)));
    }
  }
}
