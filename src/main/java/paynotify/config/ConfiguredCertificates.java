package paynotify.config;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import paynotify.alert.watch.WatchedKeys;
import paynotify.alert.watch.WatchedKeys.Configured;

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
  /** RSA's signature algorithms (PKCS#1): the root file also holds SM2 roots, which Alipay's SDK skips too. */
  private static final String RSA_SIGNED = "1.2.840.113549.1.1.";

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
        if (cert.getSigAlgOID().startsWith(RSA_SIGNED)) {
          certificates.add(new Configured(ALIPAY_ROOT, cert));
        }
      }
    }
    return new WatchedKeys(certificates, !platformKeys.isEmpty(), publicKey);
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
      List<X509Certificate> certs = new ArrayList<>();
      for (Certificate cert : CertificateFactory.getInstance("X.509")
          .generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)))) {
        certs.add((X509Certificate) cert);
      }
      if (!certs.isEmpty()) {
        return certs;
      }
    } catch (CertificateException e) {
      throw c.error(key, "not a readable X.509 certificate (PEM): " + e.getMessage());
    }
    throw c.error(key, "holds no certificate: name the certificate's file (PEM, -----BEGIN CERTIFICATE-----)");
  }
}
