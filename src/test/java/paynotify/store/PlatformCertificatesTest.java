package paynotify.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.util.List;
import org.junit.jupiter.api.Test;
import paynotify.channel.Platform;
import paynotify.crypto.CertificateShelf;
import paynotify.store.PlatformCertificates.Source;
import paynotify.testsupport.PlatformCertificates;
import paynotify.testsupport.PooledDatabaseTestBase;

/**
 * The certificates the service fetched itself, kept per platform and source with their chain: listed again, a row
 * only has its fetched_at moved; a row that cannot be read is left out, never hiding the others.
 */
class PlatformCertificatesTest extends PooledDatabaseTestBase {

  private static X509Certificate certificate(int serial) throws Exception {
    KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
    rsa.initialize(2048);
    KeyPair pair = rsa.generateKeyPair();
    return PlatformCertificates.selfSigned(pair, BigInteger.valueOf(serial));
  }

  @Test
  void aChainIsKeptOnItsPlatformsShelfAndReadBackWhole() throws Exception {
    X509Certificate leaf = certificate(0x1A);
    X509Certificate issuer = certificate(0x1B);
    paynotify.store.PlatformCertificates store = new paynotify.store.PlatformCertificates(pool);
    CertificateShelf alipay = store.shelf(Platform.ALIPAY, Source.REISSUED);
    alipay.keep("sn-1", List.of(leaf, issuer)).await();
    String first = db.string("SELECT fetched_at FROM platform_certificates WHERE serial = 'sn-1'");
    Thread.sleep(5); // fetched_at has milliseconds
    alipay.keep("sn-1", List.of(leaf, issuer)).await(); // listed again: the same row, listed now
    assertThat(db.string("SELECT fetched_at FROM platform_certificates WHERE serial = 'sn-1'")).isNotEqualTo(first);

    List<CertificateShelf.Shelved> kept = alipay.kept().await();
    assertThat(kept).singleElement().satisfies(s -> {
      assertThat(s.serial()).isEqualTo("sn-1");
      assertThat(s.chain()).containsExactly(leaf, issuer);
      assertThat(s.certificate()).isEqualTo(leaf);
    });
    assertThat(store.shelf(Platform.WECHAT, Source.DOWNLOADED).kept().await()).isEmpty();
    assertThat(store.shelf(Platform.ALIPAY, Source.DOWNLOADED).kept().await()).isEmpty();
    assertThat(db.count("SELECT COUNT(*) FROM platform_certificates")).isEqualTo(1);
  }

  @Test
  void aRowThatCannotBeReadIsLeftOutAndTheOthersStillCount() throws Exception {
    CertificateShelf wechat = new paynotify.store.PlatformCertificates(pool).shelf(Platform.WECHAT, Source.DOWNLOADED);
    X509Certificate good = certificate(0x2A);
    wechat.keep("2A", List.of(good)).await();
    wechat.keep("2B", List.of(certificate(0x2B))).await();
    db.update("UPDATE platform_certificates SET certificate = 'not a certificate' WHERE serial = '2B'");

    assertThat(wechat.kept().await()).extracting(CertificateShelf.Shelved::serial).containsExactly("2A");
  }
}
