package paynotify.testsupport;

import com.alipay.api.AlipayApiException;
import com.alipay.api.internal.util.AntCertificationUtil;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A certificate-mode (公钥证书模式) merchant's three files as 支付宝开放平台 hands them out, made for the tests: a root
 * (alipayRootCert.crt: an RSA root and, as Alipay's, a root signed otherwise, ECDSA here, which no SN counts), the
 * application's certificate of the stand-in's application key (appCertPublicKey_&lt;appid&gt;.crt) and Alipay's
 * (alipayCertPublicKey_RSA2.crt), first of the vectors' Alipay test key (so notifications the vectors sign verify),
 * then re-issued with new keys. The SNs are the official SDK's ({@code AntCertificationUtil}).
 */
public final class AlipayCertificateFiles {
  public static final String ROOT = "C=CN,O=Ant Financial,OU=Certification Authority,CN=Ant Financial Certification"
      + " Authority R1 (test)";
  private static final String EC_ROOT = "C=CN,O=Ant Financial,OU=Certification Authority,CN=Ant Financial"
      + " Certification Authority E1 (test)";
  /** Whom Alipay's certificates are issued to. */
  private static final String ALIPAY = "C=CN,O=Ant Financial,OU=Alipay,CN=支付宝(中国)网络技术有限公司 test";
  private static final AtomicLong SERIALS = new AtomicLong(0x2019_0823_0000L);

  private final KeyPair rootKey;
  private final String rootPem;
  private final X509Certificate appCert;
  private final Map<String, X509Certificate> issued = new ConcurrentHashMap<>();
  private volatile KeyPair alipayKey;
  private volatile X509Certificate alipayCert;

  private AlipayCertificateFiles(KeyPair appKey) {
    rootKey = rsa();
    X509Certificate root = cert(rootKey, ROOT, rootKey, ROOT, Duration.ofDays(3650));
    KeyPair ecKey = ec();
    X509Certificate ecRoot = cert(ecKey, EC_ROOT, ecKey, EC_ROOT, Duration.ofDays(3650));
    rootPem = PlatformCertificates.pem(root) + PlatformCertificates.pem(ecRoot);
    appCert = cert(appKey, "C=CN,O=paynotify test,OU=Alipay,CN=" + AlipayNotifications.APP_ID, rootKey, ROOT,
        Duration.ofDays(365));
    alipayKey = vectorsKey();
    alipayCert = issue(alipayKey, rootKey);
  }

  /** The files of the application key {@code appKey}, Alipay's certificate holding the vectors' Alipay key. */
  public static AlipayCertificateFiles of(KeyPair appKey) {
    return new AlipayCertificateFiles(appKey);
  }

  /** Alipay re-issues its certificate (a new key, the same root): the new one is used from now on. */
  public synchronized X509Certificate reissue() {
    alipayKey = rsa();
    alipayCert = issue(alipayKey, rootKey);
    return alipayCert;
  }

  /** A "re-issued" certificate that names the root but was signed by another key: it does not chain. */
  public synchronized X509Certificate reissueUntrusted() {
    alipayKey = rsa();
    alipayCert = issue(alipayKey, rsa());
    return alipayCert;
  }

  /**
   * A "re-issued" certificate the root did issue, to another merchant's application (its appCertPublicKey_*.crt,
   * which anyone can get): it chains, but is not Alipay's.
   */
  public synchronized X509Certificate reissueToAnotherApplication() {
    alipayKey = rsa();
    alipayCert = cert(alipayKey, "C=CN,O=another shop,OU=Alipay,CN=2021000000000002", rootKey, ROOT,
        Duration.ofDays(365));
    issued.put(sn(alipayCert), alipayCert);
    return alipayCert;
  }

  /** A self-signed certificate named as Alipay's: forged (Alipay's own are left as they are). */
  public static Forged forged() {
    KeyPair key = rsa();
    return new Forged(key, cert(key, ALIPAY, key, ALIPAY, Duration.ofDays(365)));
  }

  /** A forged certificate and its key. */
  public record Forged(KeyPair key, X509Certificate certificate) {}

  public KeyPair alipayKey() {
    return alipayKey;
  }

  /** Alipay's current certificate. */
  public X509Certificate alipayCert() {
    return alipayCert;
  }

  public X509Certificate appCert() {
    return appCert;
  }

  /** Alipay's certificate of this SN, current or earlier; null when it issued none. */
  public X509Certificate bySn(String sn) {
    return issued.get(sn);
  }

  public String rootPem() {
    return rootPem;
  }

  /** As the SDK computes it. */
  public static String sn(X509Certificate cert) {
    try {
      return AntCertificationUtil.getCertSN(cert);
    } catch (AlipayApiException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@code alipay_root_cert_sn}, as the SDK computes it. */
  public String rootSn() {
    return AntCertificationUtil.getRootCertSN(rootPem);
  }

  /** The three files in {@code dir}, under the names Alipay gives them. */
  public Files3 write(Path dir) {
    try {
      Path app = Files.writeString(dir.resolve("appCertPublicKey_" + AlipayNotifications.APP_ID + ".crt"),
          PlatformCertificates.pem(appCert));
      Path alipay = Files.writeString(dir.resolve("alipayCertPublicKey_RSA2.crt"), PlatformCertificates.pem(alipayCert));
      Path root = Files.writeString(dir.resolve("alipayRootCert.crt"), rootPem);
      return new Files3(app, alipay, root);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Where {@link #write} put them. */
  public record Files3(Path appCert, Path alipayCert, Path rootCert) {}

  private X509Certificate issue(KeyPair subject, KeyPair issuer) {
    X509Certificate cert = cert(subject, ALIPAY, issuer, ROOT, Duration.ofDays(365));
    issued.put(sn(cert), cert);
    return cert;
  }

  private static X509Certificate cert(KeyPair subject, String subjectName, KeyPair issuer, String issuerName,
      Duration valid) {
    Instant now = Instant.now();
    return PlatformCertificates.issued(subject.getPublic(), subjectName, issuer.getPrivate(), issuerName,
        BigInteger.valueOf(SERIALS.incrementAndGet()), now.minus(Duration.ofDays(1)), now.plus(valid));
  }

  private static KeyPair vectorsKey() {
    try {
      KeyFactory rsa = KeyFactory.getInstance("RSA");
      return new KeyPair(rsa.generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(
          AlipayNotifications.PUBLIC_KEY_PEM.replaceAll("-----(BEGIN|END) PUBLIC KEY-----", "").replaceAll("\\s", "")))),
          rsa.generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(AlipayNotifications.PRIVATE_KEY))));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static KeyPair rsa() {
    return generate("RSA", 2048);
  }

  private static KeyPair ec() {
    return generate("EC", 256);
  }

  private static KeyPair generate(String algorithm, int size) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance(algorithm);
      generator.initialize(size);
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
