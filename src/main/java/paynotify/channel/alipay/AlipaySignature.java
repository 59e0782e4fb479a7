package paynotify.channel.alipay;

import java.nio.charset.Charset;
import java.security.PublicKey;
import java.util.Map;
import java.util.TreeMap;
import paynotify.channel.RsaSignatures;

/**
 * Alipay's notify signature, as {@code AlipaySignature.rsaCheckV1} in alipay-sdk-java checks it.
 * The algorithm is fixed by configuration: the request's {@code sign_type} is never trusted.
 */
public final class AlipaySignature {

  /** The two algorithms Alipay has used; RSA2 is the current one. */
  public enum Algorithm {
    RSA2("SHA256withRSA"),
    /** Legacy SHA1 keys: only when the operator enables it. */
    RSA("SHA1withRSA");

    final String jca;

    Algorithm(String jca) {
      this.jca = jca;
    }
  }

  private final PublicKey alipayPublicKey;
  private final Algorithm algorithm;

  public AlipaySignature(PublicKey alipayPublicKey, Algorithm algorithm) {
    this.alipayPublicKey = alipayPublicKey;
    this.algorithm = algorithm;
  }

  /**
   * The signed content (SDK {@code getSignCheckContentV1}): every parameter but {@code sign} and
   * {@code sign_type}, blank values dropped, sorted by name, {@code k=v} joined with {@code &},
   * values exactly as decoded (never re-encoded or trimmed).
   */
  static String signContent(Map<String, String> params) {
    StringBuilder content = new StringBuilder();
    for (Map.Entry<String, String> p : new TreeMap<>(params).entrySet()) {
      String name = p.getKey();
      if (name.equals("sign") || name.equals("sign_type") || p.getValue().isBlank()) {
        continue;
      }
      if (content.length() > 0) {
        content.append('&');
      }
      content.append(name).append('=').append(p.getValue());
    }
    return content.toString();
  }

  /** True when {@code sign} is a valid signature of the parameters in {@code charset}. */
  public boolean verify(Map<String, String> params, String sign, Charset charset) {
    return RsaSignatures.verify(alipayPublicKey, algorithm.jca, signContent(params).getBytes(charset), sign);
  }
}
