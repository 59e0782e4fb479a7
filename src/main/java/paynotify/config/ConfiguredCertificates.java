package paynotify.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
  private static final List<String> ALIPAY = List.of("alipay.app_cert_file", WatchedKeys.ALIPAY_CERT);
  private static final String ALIPAY_ROOT = "alipay.alipay_root_cert_file";

  private ConfiguredCertificates() {}

  static WatchedKeys read(ConfigReader c) {
    List<Configured> certificates = new ArrayList<>();
    String merchant = c.string(MERCHANT_CERTIFICATE);
    if (merchant != null) {
      certificates.add(new Configured(MERCHANT_CERTIFICATE, certificates(c, MERCHANT_CERTIFICATE, merchant).get(0)));
    }
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
        certificates.add(new Configured(where, parse(c, where, text).get(0)));
      } else {
        publicKey = true;
      }
    }
    for (String key : ALIPAY) {
      String file = c.string(key);
      if (file != null) {
        certificates.add(new Configured(key, certificates(c, key, file).get(0)));
      }
    }
    String root = c.string(ALIPAY_ROOT);
    if (root != null) {
      for (X509Certificate cert : certificates(c, ALIPAY_ROOT, root)) {
        if (cert.getSigAlgOID().startsWith(AlipayCertRules.RSA_SIGNATURES)) { // the SM2 roots: the SDK skips them too
          certificates.add(new Configured(ALIPAY_ROOT, cert));
        }
      }
    }
    // The channel is on: mchid is what it requires (ChannelsConfig), with or without keys listed, for a merchant may
    // list none and leave the platform certificates to the download; moved to the public key, it is refused as well.
    return new WatchedKeys(certificates, c.string("wechat_v3.mchid") != null, publicKey);
  }

  /** The certificates in {@code file} (PEM, one or more), which {@code key} names. */
  private static List<X509Certificate> certificates(ConfigReader c, String key, String file) {
    Path path = Path.of(file).toAbsolutePath();
    try {
      return parse(c, key, Files.readString(path, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw c.error(key, "cannot read " + path + " (" + e.getClass().getSimpleName() + "): name the certificate's"
          + " file (PEM)");
    }
  }

  private static List<X509Certificate> parse(ConfigReader c, String key, String pem) {
    try {
      return PublicKeys.parseCertificates(pem);
    } catch (IllegalArgumentException e) {
      throw c.error(key, e.getMessage() + ": name the certificate's file (PEM, -----BEGIN CERTIFICATE-----)");
    }
  }
}
