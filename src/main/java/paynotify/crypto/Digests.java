package paynotify.crypto;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** The digests and the comparison that signature rules, inbound and outbound, are built from. */
public final class Digests {
  private Digests() {}

  /** MD5 of the UTF-8 bytes in lower-case hex: the sign of epay, 虎皮椒, epusdt and V免签. */
  public static String md5Hex(String content) {
    return HexFormat.of().formatHex(md5(content));
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

  /** HMAC-SHA256 of {@code content}, keyed with {@code key}'s bytes as they are (a Standard Webhooks key). */
  public static byte[] hmacSha256(byte[] key, byte[] content) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(content);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }

  /** Constant-time comparison, so that response timing tells nothing about the expected sign. */
  public static boolean sameSign(String expected, String got) {
    return MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII), got.getBytes(StandardCharsets.US_ASCII));
  }
}
