package paynotify.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import paynotify.config.AppConfig;
import paynotify.config.ConfigException;
import paynotify.testsupport.TestService;

/**
 * A key that can move money is read only from a file the service's user owns and nobody else can read (the
 * file's checks: config/SecretFileTest), only in the one form the platforms' tools can give (PKCS#8), and never
 * shown.
 */
public class MerchantKeyTest {
  @TempDir
  Path dir;

  static KeyPair rsa(int bits) throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(bits);
    return generator.generateKeyPair();
  }

  Path file(String name, String text, String mode) throws Exception {
    Path file = dir.resolve(name);
    Files.writeString(file, text, StandardCharsets.US_ASCII);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
    return file;
  }

  /** The key in {@code file}, as the configuration reads it once the file is known to be private. */
  public static MerchantKey read(Path file) {
    try {
      return MerchantKey.parse(Files.readString(file, StandardCharsets.US_ASCII), file.toString());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  static String pem(String label, byte[] der) {
    return "-----BEGIN " + label + "-----\n" + Base64.getMimeEncoder().encodeToString(der) + "\n-----END " + label
        + "-----\n";
  }

  @Test
  void aPrivatePkcs8FileSignsAsTheKeyDoesAndIsNeverShown() throws Exception {
    KeyPair pair = rsa(2048);
    MerchantKey key = read(file("key.pem", pem("PRIVATE KEY", pair.getPrivate().getEncoded()), "rw-------"));
    Signature check = Signature.getInstance("SHA256withRSA");
    check.initVerify(pair.getPublic());
    check.update("content".getBytes(StandardCharsets.UTF_8));
    assertThat(check.verify(Base64.getDecoder().decode(key.sign("content".getBytes(StandardCharsets.UTF_8))))).isTrue();
    assertThat(key.toString()).doesNotContain(Base64.getEncoder().encodeToString(pair.getPrivate().getEncoded())
        .substring(0, 40));
    // the bare base64 Alipay's key tool writes
    assertThat(read(file("bare.txt", Base64.getEncoder().encodeToString(pair.getPrivate().getEncoded()),
        "r--------"))).isNotNull();
  }

  @Test
  void everyOtherFormSaysWhatItIsAndWhatToDo() throws Exception {
    KeyPair pair = rsa(2048);
    assertThatThrownBy(() -> MerchantKey.parse(pem("RSA PRIVATE KEY", new byte[64]), "f"))
        .hasMessageContaining("PKCS#1").hasMessageContaining("openssl pkcs8 -topk8");
    assertThatThrownBy(() -> MerchantKey.parse(pem("ENCRYPTED PRIVATE KEY", new byte[64]), "f"))
        .hasMessageContaining("encrypted");
    assertThatThrownBy(() -> MerchantKey.parse(pem("PUBLIC KEY", pair.getPublic().getEncoded()), "f"))
        .hasMessage("f holds a public key, not the merchant's private key");
    assertThatThrownBy(() -> MerchantKey.parse(pem("CERTIFICATE", new byte[64]), "f"))
        .hasMessageContaining("holds a certificate");
    assertThatThrownBy(() -> MerchantKey.parse("not a key", "f")).hasMessage("f is not a PKCS#8 RSA private key");
    assertThatThrownBy(() -> MerchantKey.parse(pem("PRIVATE KEY", rsa(1024).getPrivate().getEncoded()), "f"))
        .hasMessageContaining("1024 bits");
  }

  @Test
  void theServiceRefusesToStartOnAKeyFileOthersCanRead() throws Exception {
    Path shared = file("app.pem", pem("PRIVATE KEY", rsa(2048).getPrivate().getEncoded()), "rw-r--r--");
    JsonObject config = TestService.configuration(new JsonObject());
    config.getJsonObject("alipay").put("app_private_key_file", shared.toString());
    assertThatThrownBy(() -> AppConfig.from(config, "test", Map.of())).isInstanceOf(ConfigException.class)
        .hasMessageContaining("alipay.app_private_key_file").hasMessageContaining("chmod 600");
  }
}
