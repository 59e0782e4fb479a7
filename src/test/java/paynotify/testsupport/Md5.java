package paynotify.testsupport;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** The MD5 of UTF-8 text in lower-case hex, as PHP's md5() and Go's {@code %x} of md5.Sum write it. */
final class Md5 {
  private Md5() {}

  static String hex(String text) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
