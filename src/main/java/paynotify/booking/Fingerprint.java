package paynotify.booking;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import paynotify.channel.NotifyEvent;

/**
 * Hash of the business fields of an event. Retries differ in timestamps and signatures but not
 * in these; a different fingerprint under the same key is a conflict.
 */
public final class Fingerprint {
  private Fingerprint() {}

  public static String of(NotifyEvent e) {
    return sha256Hex(String.join("\n", e.platform().code(), e.kind().keyPart, e.tradeNo(), e.orderNo(),
        Long.toString(e.amountCents()), e.refund() == null ? "" : e.refund().refundNo()));
  }

  /** Lower-case hex SHA-256 of the UTF-8 bytes of {@code text}. */
  static String sha256Hex(String text) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}
