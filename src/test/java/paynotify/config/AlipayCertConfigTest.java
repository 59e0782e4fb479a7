package paynotify.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import paynotify.channel.alipay.AlipayChannel;
import paynotify.testsupport.AlipayCertificateFiles;
import paynotify.testsupport.AlipayNotifications;
import paynotify.testsupport.TestService;

/**
 * alipay: one mode or the other. The three certificate files (公钥证书模式) make a certificate-mode channel with the
 * SDK's SNs; a partial set, or the certificates beside alipay.public_key_file, stop the start saying what to set.
 */
class AlipayCertConfigTest {
  static final AlipayCertificateFiles CERTS = AlipayCertificateFiles.of(rsa());
  @TempDir
  Path dir;

  static KeyPair rsa() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(2048);
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  static AppConfig read(JsonObject alipay) {
    return AppConfig.from(TestService.configuration(new JsonObject().put("alipay", alipay)), "test", Map.of());
  }

  JsonObject certificates() {
    AlipayCertificateFiles.Files3 files = CERTS.write(dir);
    return new JsonObject().putNull("public_key").put("app_cert_file", files.appCert().toString())
        .put("alipay_cert_file", files.alipayCert().toString())
        .put("alipay_root_cert_file", files.rootCert().toString());
  }

  @Test
  void theThreeFilesMakeACertificateModeChannelWithTheSdksSns() {
    AlipayChannel channel = read(certificates()).channels().enabled(AlipayChannel.class);
    assertThat(channel.signature().certificates().appCertSn()).isEqualTo(AlipayCertificateFiles.sn(CERTS.appCert()));
    assertThat(channel.signature().certificates().configuredSn())
        .isEqualTo(AlipayCertificateFiles.sn(CERTS.alipayCert()));
    assertThat(channel.signature().certificates().rootCertSn()).isEqualTo(CERTS.rootSn());
  }

  @Test
  void aPartialSetNamesWhatIsMissing() {
    JsonObject partial = certificates();
    partial.remove("alipay_root_cert_file");
    partial.remove("app_cert_file");
    assertThatThrownBy(() -> read(partial)).isInstanceOf(ConfigException.class)
        .hasMessageContaining("alipay.app_cert_file: missing: certificate mode (公钥证书模式) needs all three files, set"
            + " alipay.app_cert_file and alipay.alipay_root_cert_file");
  }

  @Test
  void bothModesAreRefused() {
    JsonObject both = certificates().put("public_key", AlipayNotifications.PUBLIC_KEY_PEM);
    assertThatThrownBy(() -> read(both)).isInstanceOf(ConfigException.class)
        .hasMessageContaining("alipay.public_key: set either the public key (公钥模式: alipay.public_key_file) or the"
            + " three certificates");
  }

  @Test
  void theApplicationCertificateInAlipaysPlaceIsRefused() {
    JsonObject mixup = certificates();
    mixup.put("alipay_cert_file", mixup.getString("app_cert_file"));
    assertThatThrownBy(() -> read(mixup)).isInstanceOf(ConfigException.class)
        .hasMessageContaining("alipay.alipay_cert_file: is the application's certificate (应用公钥证书)");
  }
}
