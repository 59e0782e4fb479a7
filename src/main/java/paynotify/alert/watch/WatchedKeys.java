package paynotify.alert.watch;

import java.security.cert.X509Certificate;
import java.util.List;

/**
 * The keys of the configuration that can break by themselves, watched by {@link CertificateWatch} and
 * {@link PublicKeySwitchWatch}: certificates expire, Alipay re-issues its own, WeChat moves a merchant to its public
 * key. Read by config/ConfiguredCertificates.
 *
 * @param certificates    each configured certificate, with the key that names it
 * @param wechatV3        the wechat_v3 channel is on (its keys listed, or the platform certificates downloaded)
 * @param wechatPublicKey wechat_v3.platform_keys lists a WeChat Pay public key (微信支付公钥, PUB_KEY_ID_...)
 */
public record WatchedKeys(List<Configured> certificates, boolean wechatV3, boolean wechatPublicKey) {
  /** Nothing configured that can break by itself. */
  public static final WatchedKeys NONE = new WatchedKeys(List.of(), false, false);

  /** The key of Alipay's own certificate (alipayCertPublicKey_RSA2.crt), which Alipay re-issues. */
  public static final String ALIPAY_CERT = "alipay.alipay_cert_file";

  /** A certificate as configured: {@code where} is its key ({@code wechat_v3.platform_keys[0].key_file}). */
  public record Configured(String where, X509Certificate certificate) {}

  public WatchedKeys {
    certificates = List.copyOf(certificates);
  }

  /** The certificate {@code where} names; null when none. */
  X509Certificate configured(String where) {
    return certificates.stream().filter(c -> c.where().equals(where)).map(Configured::certificate).findFirst()
        .orElse(null);
  }
}
