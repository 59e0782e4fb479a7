package paynotify.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.Signature;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.crypto.Cipher;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.AlipayNotifications;

/**
 * The check answers exactly as the JDK (what the platforms' own SDKs check with) on genuine signatures
 * and on every malformed one we can think of: wrong lengths, values at and above the modulus, and raw
 * RSA of paddings PKCS#1 v1.5 refuses (the forgeries lax parsers have accepted). AWS-LC alone never
 * accepts what the JDK refuses, and refuses exactly one encoding the JDK accepts.
 */
class RsaSignatureCheckTest {
  private static final Provider NATIVE = AmazonCorrettoCryptoProvider.INSTANCE;
  private static final byte[] SHA256_PREFIX = HexFormat.of().parseHex("3031300d060960864801650304020105000420");
  private static final byte[] SHA256_PREFIX_NO_NULL = HexFormat.of().parseHex("302f300b0609608648016503040201" + "0420");
  private static final byte[] SHA1_PREFIX = HexFormat.of().parseHex("3021300906052b0e03021a05000414");
  private static final byte[] SHA1_PREFIX_NO_NULL = HexFormat.of().parseHex("301f300706052b0e03021a0414");

  /** On the machines we ship for, the native engine is the one in use: a packaging mistake fails here. */
  @Test
  void awsLcChecksSignaturesOnX8664Linux() {
    assumeTrue(System.getProperty("os.name").equals("Linux") && System.getProperty("os.arch").equals("amd64"));
    assertThat(AmazonCorrettoCryptoProvider.INSTANCE.getLoadingError()).isNull();
    assertThat(RsaSignatureCheck.engine()).startsWith("AWS-LC (AmazonCorrettoCryptoProvider ");
  }

  @Test
  void bothEnginesAgreeOnTheAlipayKeyForSha256AndSha1() throws Exception {
    RSAPrivateKey priv = (RSAPrivateKey) KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(
        Base64.getDecoder().decode(AlipayNotifications.PRIVATE_KEY)));
    RSAPublicKey pub = PublicKeys.parseRsa(AlipayNotifications.PUBLIC_KEY_PEM);
    assertAgreement(priv, pub, "SHA256withRSA", "SHA-256", SHA256_PREFIX);
    assertAgreement(priv, pub, "SHA1withRSA", "SHA-1", SHA1_PREFIX);
  }

  @Test
  void bothEnginesAgreeOnA4096BitKey() throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(4096);
    KeyPair pair = generator.generateKeyPair();
    assertAgreement((RSAPrivateKey) pair.getPrivate(), (RSAPublicKey) pair.getPublic(), "SHA256withRSA", "SHA-256",
        SHA256_PREFIX);
  }

  private static void assertAgreement(RSAPrivateKey priv, RSAPublicKey pub, String algorithm, String digest,
      byte[] digestInfoPrefix) throws Exception {
    byte[] content = "gmt_create=2026-12-01 10:00:00&out_trade_no=A1&total_amount=9.99&中文"
        .getBytes(StandardCharsets.UTF_8);
    Map<String, String> cases = signatures(priv, pub, algorithm, digest, digestInfoPrefix, content);
    RsaSignatureCheck jdk = new RsaSignatureCheck(pub, algorithm, null);
    RsaSignatureCheck shipped = new RsaSignatureCheck(pub, algorithm, NATIVE);
    List<String> accepted = new ArrayList<>();
    List<String> refusedByAwsLcAlone = new ArrayList<>();
    for (Map.Entry<String, String> c : cases.entrySet()) {
      boolean byJdk = jdk.verifies(content, c.getValue());
      assertThat(shipped.verifies(content, c.getValue())).as("'%s' (%s)", c.getKey(), algorithm).isEqualTo(byJdk);
      boolean byAwsLc = awsLcAlone(pub, algorithm, content, c.getValue());
      assertThat(!byAwsLc || byJdk).as("AWS-LC accepts '%s', the JDK does not", c.getKey()).isTrue();
      if (byJdk) {
        accepted.add(c.getKey());
      }
      if (byJdk && !byAwsLc) {
        refusedByAwsLcAlone.add(c.getKey());
      }
    }
    // Not vacuous: the genuine signatures pass, and the one encoding only the JDK's fallback accepts.
    assertThat(accepted).containsExactly("genuine", "genuine, raw RSA of the standard padding",
        "digest info without the NULL parameter");
    assertThat(refusedByAwsLcAlone).containsExactly("digest info without the NULL parameter");
    // and another content with a genuine signature fails for both
    String genuine = cases.get("genuine");
    byte[] other = Arrays.copyOf(content, content.length + 1);
    assertThat(jdk.verifies(other, genuine)).isFalse();
    assertThat(shipped.verifies(other, genuine)).isFalse();
  }

  private static boolean awsLcAlone(RSAPublicKey pub, String algorithm, byte[] content, String base64) {
    try {
      Signature verifier = Signature.getInstance(algorithm, NATIVE);
      verifier.initVerify(pub);
      verifier.update(content);
      return verifier.verify(Base64.getDecoder().decode(base64));
    } catch (java.security.GeneralSecurityException | IllegalArgumentException e) {
      return false;
    }
  }

  private static Map<String, String> signatures(RSAPrivateKey priv, RSAPublicKey pub, String algorithm,
      String digest, byte[] prefix, byte[] content) throws Exception {
    Signature signer = Signature.getInstance(algorithm);
    signer.initSign(priv);
    signer.update(content);
    byte[] genuine = signer.sign();
    int k = genuine.length;
    byte[] hash = MessageDigest.getInstance(digest).digest(content);
    Base64.Encoder b64 = Base64.getEncoder();

    Map<String, String> cases = new LinkedHashMap<>();
    cases.put("genuine", b64.encodeToString(genuine));
    cases.put("genuine, raw RSA of the standard padding", b64.encodeToString(raw(priv, padded(k, 1, prefix, hash, 0))));
    cases.put("empty", "");
    cases.put("not base64", "!!" + b64.encodeToString(genuine));
    cases.put("one byte short", b64.encodeToString(Arrays.copyOf(genuine, k - 1)));
    cases.put("one byte long", b64.encodeToString(Arrays.copyOf(genuine, k + 1)));
    byte[] zeroFirst = new byte[k + 1];
    System.arraycopy(genuine, 0, zeroFirst, 1, k);
    cases.put("a zero byte in front", b64.encodeToString(zeroFirst));
    cases.put("all zero", b64.encodeToString(new byte[k]));
    byte[] ones = new byte[k];
    Arrays.fill(ones, (byte) 0xff);
    cases.put("all 0xff (above the modulus)", b64.encodeToString(ones));
    cases.put("the modulus", b64.encodeToString(unsigned(pub.getModulus(), k)));
    cases.put("one", b64.encodeToString(unsigned(BigInteger.ONE, k)));
    cases.put("modulus minus one", b64.encodeToString(unsigned(pub.getModulus().subtract(BigInteger.ONE), k)));
    for (int bit : new int[] {0, 7, 8 * k / 2, 8 * k - 1}) {
      byte[] flipped = genuine.clone();
      flipped[bit / 8] ^= (byte) (1 << (bit % 8));
      cases.put("bit " + bit + " flipped", b64.encodeToString(flipped));
    }
    cases.put("digest info without the NULL parameter", b64.encodeToString(raw(priv,
        padded(k, 1, prefix == SHA256_PREFIX ? SHA256_PREFIX_NO_NULL : SHA1_PREFIX_NO_NULL, hash, 0))));
    cases.put("block type 2", b64.encodeToString(raw(priv, padded(k, 2, prefix, hash, 0))));
    cases.put("garbage after the digest", b64.encodeToString(raw(priv, padded(k, 1, prefix, hash, 16))));
    cases.put("short padding (7 bytes of 0xff)", b64.encodeToString(raw(priv, shortPadding(k, prefix, hash))));
    cases.put("the digest of other content", b64.encodeToString(raw(priv,
        padded(k, 1, prefix, MessageDigest.getInstance(digest).digest("other".getBytes(StandardCharsets.UTF_8)), 0))));
    return cases;
  }

  /** 00 type FF..FF 00 prefix hash, then {@code garbage} bytes of 0x41 that a lax parser ignores. */
  private static byte[] padded(int k, int type, byte[] prefix, byte[] hash, int garbage) {
    byte[] block = new byte[k];
    int tail = prefix.length + hash.length + garbage;
    block[1] = (byte) type;
    Arrays.fill(block, 2, k - tail - 1, (byte) 0xff);
    System.arraycopy(prefix, 0, block, k - tail, prefix.length);
    System.arraycopy(hash, 0, block, k - tail + prefix.length, hash.length);
    Arrays.fill(block, k - garbage, k, (byte) 0x41);
    return block;
  }

  /** 00 01 FF*7 00 prefix hash, the rest of the block filled with zeros after it. */
  private static byte[] shortPadding(int k, byte[] prefix, byte[] hash) {
    byte[] block = new byte[k];
    block[1] = 1;
    Arrays.fill(block, 2, 9, (byte) 0xff);
    System.arraycopy(prefix, 0, block, 10, prefix.length);
    System.arraycopy(hash, 0, block, 10 + prefix.length, hash.length);
    return block;
  }

  private static byte[] raw(PrivateKey priv, byte[] block) throws Exception {
    Cipher rsa = Cipher.getInstance("RSA/ECB/NoPadding");
    rsa.init(Cipher.ENCRYPT_MODE, priv);
    return rsa.doFinal(block);
  }

  private static byte[] unsigned(BigInteger value, int length) {
    byte[] bytes = value.toByteArray();
    byte[] out = new byte[length];
    int n = Math.min(bytes.length, length);
    System.arraycopy(bytes, bytes.length - n, out, length - n, n);
    return out;
  }

  /**
   * A native engine that fails in a way of its own (an unchecked exception, a key it will not take)
   * leaves the answer to the JDK: the genuine signature passes, a forged one does not, nothing escapes.
   */
  @Test
  void aFailingEngineLeavesTheAnswerToTheJdk() throws Exception {
    RSAPrivateKey priv = (RSAPrivateKey) KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(
        Base64.getDecoder().decode(AlipayNotifications.PRIVATE_KEY)));
    RSAPublicKey pub = PublicKeys.parseRsa(AlipayNotifications.PUBLIC_KEY_PEM);
    byte[] content = "out_trade_no=A1&total_amount=9.99".getBytes(StandardCharsets.UTF_8);
    Signature signer = Signature.getInstance("SHA256withRSA");
    signer.initSign(priv);
    signer.update(content);
    String genuine = Base64.getEncoder().encodeToString(signer.sign());
    String forged = Base64.getEncoder().encodeToString(raw(priv, padded(256, 1, SHA256_PREFIX,
        MessageDigest.getInstance("SHA-256").digest("other".getBytes(StandardCharsets.UTF_8)), 0)));
    for (Provider broken : List.of(new FailingEngine(false), new FailingEngine(true))) {
      RsaSignatureCheck check = new RsaSignatureCheck(pub, "SHA256withRSA", broken);
      assertThat(check.verifies(content, genuine)).as(broken.getInfo()).isTrue();
      assertThat(check.verifies(content, forged)).as(broken.getInfo()).isFalse();
    }
  }

  /** Throws ProviderException from every check, or refuses every key. */
  public static final class FailingEngine extends Provider {
    FailingEngine(boolean refusesKeys) {
      super("FailingEngine", "1", refusesKeys ? "refuses every key" : "throws from every check");
      put("Signature.SHA256withRSA", ThrowingSignature.class.getName());
      put("KeyFactory.RSA", (refusesKeys ? RefusingKeyFactory.class : IdentityKeyFactory.class).getName());
    }
  }

  public static final class ThrowingSignature extends java.security.SignatureSpi {
    @Override
    protected void engineInitVerify(java.security.PublicKey publicKey) {}

    @Override
    protected void engineInitSign(PrivateKey privateKey) {}

    @Override
    protected void engineUpdate(byte b) {}

    @Override
    protected void engineUpdate(byte[] b, int off, int len) {}

    @Override
    protected byte[] engineSign() {
      throw new java.security.ProviderException("native failure");
    }

    @Override
    protected boolean engineVerify(byte[] sigBytes) {
      throw new java.security.ProviderException("native failure");
    }

    @Override
    @Deprecated
    protected void engineSetParameter(String param, Object value) {}

    @Override
    @Deprecated
    protected Object engineGetParameter(String param) {
      return null;
    }
  }

  public static class IdentityKeyFactory extends java.security.KeyFactorySpi {
    @Override
    protected java.security.PublicKey engineGeneratePublic(java.security.spec.KeySpec keySpec)
        throws java.security.spec.InvalidKeySpecException {
      throw new java.security.spec.InvalidKeySpecException("not here");
    }

    @Override
    protected PrivateKey engineGeneratePrivate(java.security.spec.KeySpec keySpec)
        throws java.security.spec.InvalidKeySpecException {
      throw new java.security.spec.InvalidKeySpecException("not here");
    }

    @Override
    protected <T extends java.security.spec.KeySpec> T engineGetKeySpec(java.security.Key key, Class<T> keySpec)
        throws java.security.spec.InvalidKeySpecException {
      throw new java.security.spec.InvalidKeySpecException("not here");
    }

    @Override
    protected java.security.Key engineTranslateKey(java.security.Key key) throws java.security.InvalidKeyException {
      return key;
    }
  }

  public static final class RefusingKeyFactory extends IdentityKeyFactory {
    @Override
    protected java.security.Key engineTranslateKey(java.security.Key key) throws java.security.InvalidKeyException {
      throw new java.security.InvalidKeyException("this engine takes no RSA key");
    }
  }
}
