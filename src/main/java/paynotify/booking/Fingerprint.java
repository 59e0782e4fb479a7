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
    String fields = String.join("\n", e.channel(), e.kind().keyPart, e.tradeNo(), e.orderNo(),
        Long.toString(e.amountCents()), e.refund() == null ? "" : e.refund().refundNo());
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(fields.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(hash);
    } catch (NoSuchAlgorithmException e1) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e1);
    }
  }
}
