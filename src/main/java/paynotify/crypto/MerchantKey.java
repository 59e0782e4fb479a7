package paynotify.crypto;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A merchant's RSA private key (Alipay's application private key, WeChat Pay v3's apiclient_key.pem):
 * it signs requests to the platform, and it can move money (refunds), so it is opt-in and read only from
 * a file that the service's user owns and nobody else can read (config/SecretFile, as every secret's file). Its
 * bytes never reach a message, a log or {@link #toString()}.
 */
public final class MerchantKey {
  /** A PEM line naming what follows ({@code -----BEGIN <label>-----}, and its END). */
  private static final Pattern ARMOUR = Pattern.compile("-----(?:BEGIN|END) ([A-Z0-9 ]+)-----");
  /** The label of the only form read: PKCS#8, unencrypted. */
  private static final String PKCS8 = "PRIVATE KEY";

  private final PrivateKey key;

  private MerchantKey(PrivateKey key) {
    this.key = key;
  }

  /**
   * The PKCS#8 key in {@code text} (PEM, or the bare base64 that Alipay's key tool writes), read from a private file
   * (config/SecretFile); {@code where} names it in messages.
   *
   * @throws IllegalArgumentException saying what is wrong with the key (never its content)
   */
  public static MerchantKey parse(String text, String where) {
    Matcher armour = ARMOUR.matcher(text);
    // no armour: the bare base64 Alipay's key tool writes, PKCS#8 as its label would say
    String label = armour.find() ? armour.group(1) : PKCS8;
    if (!label.equals(PKCS8)) {
      throw new IllegalArgumentException(where + switch (label) {
        case "RSA " + PKCS8 -> " is a PKCS#1 key: convert it once with openssl pkcs8 -topk8 -nocrypt -in OLD -out NEW"
            + " and name NEW";
        case "ENCRYPTED " + PKCS8 -> " is encrypted: give the key without a passphrase (openssl pkcs8 -topk8"
            + " -nocrypt), readable by the service's user only";
        default -> " holds a " + label.toLowerCase(Locale.ROOT) + ", not the merchant's private key";
      });
    }
    PrivateKey key;
    try {
      key = KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(
          Base64.getDecoder().decode(ARMOUR.matcher(text).replaceAll("").replaceAll("\\s", ""))));
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new IllegalArgumentException(where + " is not a PKCS#8 RSA private key");
    }
    if (key instanceof RSAPrivateCrtKey rsa && rsa.getModulus().bitLength() < 2048) {
      throw new IllegalArgumentException(where + ": RSA key has " + rsa.getModulus().bitLength()
          + " bits; the platforms issue 2048");
    }
    return new MerchantKey(key);
  }

  /** The base64 SHA256withRSA signature of {@code content}. */
  public String sign(byte[] content) {
    try {
      Signature signer = Signature.getInstance("SHA256withRSA");
      signer.initSign(key);
      signer.update(content);
      return Base64.getEncoder().encodeToString(signer.sign());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA256withRSA with an RSA key read at start cannot fail: " + e.getMessage(), e);
    }
  }

  /**
   * Whether {@code publicKey} is this key's own public half (the same RSA modulus and exponent): a key pasted where
   * the platform's belongs (Alipay's 应用公钥 in place of 支付宝公钥).
   */
  public boolean pairsWith(PublicKey publicKey) {
    return key instanceof RSAPrivateCrtKey rsa && publicKey instanceof RSAPublicKey pub
        && rsa.getModulus().equals(pub.getModulus()) && rsa.getPublicExponent().equals(pub.getPublicExponent());
  }

  @Override
  public String toString() {
    return "MerchantKey[not shown]";
  }
}
