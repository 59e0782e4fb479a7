package paynotify.crypto;

import com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.Provider;
import java.security.PublicKey;
import java.security.Signature;
import java.util.Base64;
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
  /** AWS-LC, or null where its native library does not load (another OS or CPU, a noexec tmpdir). */
  private static final Provider NATIVE;
  /** Which checks signatures here, and why the JDK when it does. */
  private static final String ENGINE;
  /** The JDK's RSA signatures (OpenJDK's SunRsaSign). */
  private static final String JDK_RSA = "SunRsaSign";
  private static final Logger LOG = LoggerFactory.getLogger(RsaSignatureCheck.class);

  static {
    Provider loaded = null;
    String engine;
    try {
      AmazonCorrettoCryptoProvider accp = AmazonCorrettoCryptoProvider.INSTANCE;
      Throwable error = accp.getLoadingError();
      if (error == null) {
        loaded = accp;
        engine = "AWS-LC (" + accp.getName() + " " + accp.getVersionStr() + ")";
      } else {
        engine = "the JDK (AWS-LC did not load: " + error.getMessage() + ")";
      }
    } catch (LinkageError e) {
      engine = "the JDK (AWS-LC did not load: " + e + ")";
    }
    NATIVE = loaded;
    ENGINE = engine;
  }

  private final PublicKey key;
  private final String algorithm;
  private final Provider fast;
  /** The key in the fast provider's form; null where the JDK checks alone (no fast provider, or it refused it). */
  private final PublicKey fastKey;

  /**
   * @param algorithm a JCA name, e.g. {@code SHA256withRSA}
   * @param fast      the provider tried first; null: the JDK's alone
   */
  RsaSignatureCheck(PublicKey key, String algorithm, Provider fast) {
    this.key = key;
    this.algorithm = algorithm;
    this.fast = fast;
    this.fastKey = fast == null ? null : translated(key, fast);
  }

  /** With AWS-LC first where it works on this machine. */
  public static RsaSignatureCheck of(PublicKey key, String algorithm) {
    return new RsaSignatureCheck(key, algorithm, NATIVE);
  }

  /** Which implementation checks signatures here, for the start-up log. */
  public static String engine() {
    return ENGINE;
  }

  /** @return true only for a well-formed signature of {@code content} made with the key's pair */
  public boolean verifies(byte[] content, String base64Signature) {
    byte[] signature;
    try {
      signature = Base64.getDecoder().decode(base64Signature);
    } catch (IllegalArgumentException e) {
      return false;
    }
    return (fastKey != null && fastVerifies(content, signature)) || jdkVerifies(content, signature);
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
}
