package paynotify.bench;

import com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.Security;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import paynotify.crypto.PublicKeys;
import paynotify.testsupport.AlipayNotifications;

/**
 * CPU per RSA signature check (scripts/bench-rsa.sh), the JDK's (SunRsaSign) against AWS-LC's, on the
 * Alipay test key (2048 bits, SHA256withRSA) and a notification-sized content, with this JVM's options
 * (the script gives start.sh's compiler settings). Rounds alternate; the last rounds are the warm figure.
 */
public final class RsaBench {
  private static final int ROUNDS = 6;
  private static final int CHECKS = 3000;

  public static void main(String[] args) throws Exception {
    AmazonCorrettoCryptoProvider awsLc = AmazonCorrettoCryptoProvider.INSTANCE;
    if (awsLc.getLoadingError() != null) {
      throw new IllegalStateException("AWS-LC did not load: " + awsLc.getLoadingError());
    }
    Provider jdk = Security.getProvider("SunRsaSign");
    PrivateKey priv = KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(
        Base64.getDecoder().decode(AlipayNotifications.PRIVATE_KEY)));
    PublicKey pub = PublicKeys.parseRsa(AlipayNotifications.PUBLIC_KEY_PEM);
    PublicKey awsLcKey = (PublicKey) KeyFactory.getInstance("RSA", awsLc).translateKey(pub);
    byte[] content = AlipayNotifications.signedBody(AlipayNotifications.payment("B1", "T1", "9.99"))
        .getBytes(StandardCharsets.UTF_8);
    Signature signer = Signature.getInstance("SHA256withRSA");
    signer.initSign(priv);
    signer.update(content);
    byte[] signature = signer.sign();

    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    System.out.printf("CPU per check (%,d checks a round), JVM options %s%n", CHECKS,
        ManagementFactory.getRuntimeMXBean().getInputArguments());
    for (int round = 1; round <= ROUNDS; round++) {
      double byJdk = cpuPerCheck(threads, jdk, pub, content, signature);
      double byAwsLc = cpuPerCheck(threads, awsLc, awsLcKey, content, signature);
      System.out.printf("  round %d: JDK %.1f us, AWS-LC %.1f us (%.1fx)%n", round, byJdk, byAwsLc, byJdk / byAwsLc);
    }
  }

  private static double cpuPerCheck(ThreadMXBean threads, Provider provider, PublicKey key, byte[] content,
      byte[] signature) throws Exception {
    long start = threads.getCurrentThreadCpuTime();
    for (int i = 0; i < CHECKS; i++) {
      Signature verifier = Signature.getInstance("SHA256withRSA", provider);
      verifier.initVerify(key);
      verifier.update(content);
      if (!verifier.verify(signature)) {
        throw new IllegalStateException(provider + " refused a genuine signature");
      }
    }
    return (threads.getCurrentThreadCpuTime() - start) / 1e3 / CHECKS;
  }
}
