package paynotify.channel;

import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.security.Signature;
import java.util.Base64;

/** Verification of the base64 RSA (PKCS#1 v1.5) signatures that Alipay and WeChat Pay v3 send. */
public final class RsaSignatures {
  private RsaSignatures() {}

  /**
   * @param algorithm a JCA name, e.g. {@code SHA256withRSA}
   * @return true only for a well-formed signature of {@code content} made with {@code key}'s pair
   */
  public static boolean verify(PublicKey key, String algorithm, byte[] content, String base64Signature) {
    byte[] signature;
    try {
      signature = Base64.getDecoder().decode(base64Signature);
    } catch (IllegalArgumentException e) {
      return false;
    }
    try {
      Signature verifier = Signature.getInstance(algorithm);
      verifier.initVerify(key);
      verifier.update(content);
      return verifier.verify(signature);
    } catch (GeneralSecurityException e) {
      return false; // a signature of the wrong length or encoding: not the platform's
    }
  }
}
