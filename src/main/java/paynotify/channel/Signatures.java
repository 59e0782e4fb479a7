package paynotify.channel;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.function.Predicate;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * What the platforms' signatures are built from. The rules of each protocol (which parameters are
 * signed, which algorithm, which key) are in its {@code ...Signature} class, not here.
 */
public final class Signatures {
  private Signatures() {}

  /**
   * The content form-style protocols sign: the parameters sorted by name, {@code k=v} joined with
   * {@code &}, values exactly as decoded (never re-encoded or trimmed), then {@code appended}.
   *
   * @param unsigned the names that are not signed
   * @param empty    the values whose parameter is not signed
   * @param appended pairs added after the sorted ones, e.g. WeChat Pay v2's {@code key=<API key>}
   */
  public static String sortedContent(Map<String, String> params, Set<String> unsigned, Predicate<String> empty,
      String... appended) {
    StringJoiner content = new StringJoiner("&");
    new TreeMap<>(params).forEach((name, value) -> {
      if (!unsigned.contains(name) && !empty.test(value)) {
        content.add(name + "=" + value);
      }
    });
    for (String pair : appended) {
      content.add(pair);
    }
    return content.toString();
  }

  /** MD5 of the UTF-8 bytes. */
  public static byte[] md5(String content) {
    try {
      return MessageDigest.getInstance("MD5").digest(content.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("MD5 is part of every JDK", e);
    }
  }

  /** HMAC-SHA256 of the UTF-8 bytes, keyed with the UTF-8 bytes of {@code key}. */
  public static byte[] hmacSha256(String key, String content) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return mac.doFinal(content.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }

  /** Constant-time comparison, so that response timing tells nothing about the expected sign. */
  public static boolean sameSign(String expected, String got) {
    return MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII), got.getBytes(StandardCharsets.US_ASCII));
  }
}
