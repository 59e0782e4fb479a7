package paynotify.net;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;

/** A gzip-compressed bill (WeChat's tar_type=GZIP), unpacked in memory. */
public final class Gzip {
  /**
   * The most a bill may unpack to: far above a shop's day (a few hundred bytes a trade), and a bound on what
   * a small compressed answer can make us hold, since the HTTP cap counts compressed bytes only.
   */
  /** A day's bill unpacked, at most: a few MiB for a busy small shop, well inside the tools' 128 MiB heap. */
  static final int MAX_PLAIN_BYTES = 24 * 1024 * 1024;

  private Gzip() {}

  public static boolean isGzip(byte[] bytes) {
    return bytes.length >= 2 && (bytes[0] & 0xFF) == 0x1F && (bytes[1] & 0xFF) == 0x8B;
  }

  /** The plain bytes; a broken or oversized stream is UNAVAILABLE (a cut transfer: fetch again). */
  public static byte[] gunzip(byte[] compressed, String what) {
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(compressed))) {
      byte[] plain = in.readNBytes(MAX_PLAIN_BYTES + 1);
      if (plain.length > MAX_PLAIN_BYTES) {
        throw OutboundFailure.unavailable(what + " unpacks to more than " + MAX_PLAIN_BYTES + " bytes");
      }
      return plain;
    } catch (IOException e) {
      throw new OutboundFailure(OutboundFailure.Kind.UNAVAILABLE, what + " is not a whole gzip file: " + e.getMessage(),
          e);
    }
  }
}
