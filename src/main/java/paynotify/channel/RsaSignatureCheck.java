package paynotify.channel;

import com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.Provider;
import java.security.PublicKey;
import java.security.Signature;
import java.util.Base64;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks base64 RSA (PKCS#1 v1.5) signatures, as Alipay and WeChat Pay v3 send them, with one
 * platform key. A signature is first checked in AWS-LC (through Amazon Corretto Crypto Provider)
 * when its native library loads here (Linux x86-64): the JDK's BigInteger loops are slow until C2
 * compiles them and start.sh runs C1 only (about 0.19 against 0.015 ms). What AWS-LC refuses is
 * checked again by the JDK, the platforms' SDKs' own engine: AWS-LC is stricter on one encoding
 * RFC 8017 allows (a DigestInfo without its NULL parameter), and the answer must be the SDK's.
 */
public final class RsaSignatureCheck {
  /** AWS-LC, or empty where its native library does not load (another OS or CPU, a noexec tmpdir). */
  private static final Optional<Provider> NATIVE = loadNative();
  /** The JDK's RSA signatures (OpenJDK's SunRsaSign). */
  private static final String JDK_RSA = "SunRsaSign";
  private static final Logger LOG = LoggerFactory.getLogger(RsaSignatureCheck.class);

  private final PublicKey key;
  private final String algorithm;
  /** Null where the key is the JDK's alone: no AWS-LC here, or AWS-LC could not take this key. */
  private final Provider fast;
  private final PublicKey fastKey;

  /**
   * @param algorithm a JCA name, e.g. {@code SHA256withRSA}
   * @param fast      the provider tried first; null: the JDK's alone
   */
  RsaSignatureCheck(PublicKey key, String algorithm, Provider fast) {
    this.key = key;
    this.algorithm = algorithm;
    PublicKey translated = fast == null ? null : translated(key, fast);
    this.fast = translated == null ? null : fast;
    this.fastKey = translated;
  }

  /** With AWS-LC first where it works on this machine. */
  public static RsaSignatureCheck of(PublicKey key, String algorithm) {
    return new RsaSignatureCheck(key, algorithm, NATIVE.orElse(null));
  }

  /** Which implementation checks signatures here, for the start-up log. */
  public static String engine() {
    return NATIVE.map(p -> "AWS-LC (" + p.getName() + " " + p.getVersionStr() + ")")
        .orElseGet(() -> "the JDK (" + nativeLoadingError() + ")");
  }

  /** @return true only for a well-formed signature of {@code content} made with the key's pair */
  public boolean verifies(byte[] content, String base64Signature) {
    byte[] signature;
    try {
      signature = Base64.getDecoder().decode(base64Signature);
    } catch (IllegalArgumentException e) {
      return false;
    }
    return (fast != null && fastVerifies(content, signature)) || jdkVerifies(content, signature);
  }

  /** Any failure of the native code, checked exception or not, leaves the answer to the JDK. */
  private boolean fastVerifies(byte[] content, byte[] signature) {
    try {
      return verify(Signature.getInstance(algorithm, fast), fastKey, content, signature);
    } catch (GeneralSecurityException | RuntimeException e) {
      return false;
    }
  }

  /** The JDK's own provider by name: the first one of the JVM could be AWS-LC, installed there by an operator. */
  private boolean jdkVerifies(byte[] content, byte[] signature) {
    try {
      return verify(Signature.getInstance(algorithm, JDK_RSA), key, content, signature);
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      return false; // a signature of the wrong length or encoding: not the platform's
    }
  }

  private static boolean verify(Signature verifier, PublicKey publicKey, byte[] content, byte[] signature)
      throws GeneralSecurityException {
    verifier.initVerify(publicKey);
    verifier.update(content);
    return verifier.verify(signature);
  }

  /**
   * The key in the provider's own form once, rather than converted again by every check; null when
   * the provider will not take it (the JDK then checks alone: its answers are the reference).
   */
  private static PublicKey translated(PublicKey key, Provider provider) {
    try {
      return (PublicKey) KeyFactory.getInstance("RSA", provider).translateKey(key);
    } catch (GeneralSecurityException | RuntimeException e) {
      LOG.warn("AWS-LC cannot take this RSA key ({}): the JDK checks its signatures", e.getMessage());
      return null;
    }
  }

  private static Optional<Provider> loadNative() {
    try {
      AmazonCorrettoCryptoProvider accp = AmazonCorrettoCryptoProvider.INSTANCE;
      return accp.getLoadingError() == null ? Optional.of(accp) : Optional.empty();
    } catch (LinkageError e) {
      return Optional.empty();
    }
  }

  private static String nativeLoadingError() {
    try {
      Throwable error = AmazonCorrettoCryptoProvider.INSTANCE.getLoadingError();
      return "AWS-LC did not load: " + (error == null ? "unknown" : error.getMessage());
    } catch (LinkageError e) {
      return "AWS-LC did not load: " + e;
    }
  }
}
