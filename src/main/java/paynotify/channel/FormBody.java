package paynotify.channel;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Decodes an application/x-www-form-urlencoded body exactly once, byte by byte, in a charset
 * chosen by the caller. Signatures are computed over these decoded values, so the decoder is
 * strict: a malformed escape, invalid bytes for the charset or a repeated name is an error,
 * never a guess. It runs before any signature is checked, on the event loop, so it is bounded:
 * a body of more parameters, or more blank ones, than any platform sends is refused first.
 */
public final class FormBody {
  /**
   * Genuine notifications carry 10-30 parameters (Alipay's ~25, epay's ~10, a PayPal IPN 30-60 and
   * ~8 more per cart item): counted in one pass over the bytes before anything is decoded, so a body
   * of tens of thousands of names costs that pass only.
   */
  public static final int MAX_PARAMETERS = 512;
  /**
   * Blank values are left out of Alipay's and epay's sign content, so a genuine message padded with
   * thousands of them still verifies. The platforms send a few (Alipay's vectors 2, an IPN a handful).
   */
  public static final int MAX_BLANK_VALUES = 32;

  /** Charsets whose bytes below 0x80 are ASCII, one character each (names as {@link Charset#name} gives them). */
  private static final Set<String> ASCII_COMPATIBLE =
      Set.of("UTF-8", "US-ASCII", "ISO-8859-1", "GBK", "GB2312", "GB18030", "windows-1252");

  private FormBody() {}

  /** The raw (still encoded) value of {@code name}, read as ASCII; null when absent. */
  public static String rawValue(byte[] body, String name) {
    // Over the bytes, pair by pair: splitting the whole body into strings first cost a hostile body of
    // thousands of names more than refusing it.
    byte[] key = (name + "=").getBytes(StandardCharsets.US_ASCII);
    for (int start = 0; start < body.length; ) {
      int end = indexOf(body, (byte) '&', start, body.length);
      if (end - start >= key.length && Arrays.equals(body, start, start + key.length, key, 0, key.length)) {
        return new String(body, start + key.length, end - start - key.length, StandardCharsets.ISO_8859_1);
      }
      start = end + 1;
    }
    return null;
  }

  /** All parameters in body order, of a body not verified yet: at most the caps above. */
  public static Map<String, String> decode(byte[] body, Charset charset) throws RejectedNotification {
    return decode(body, charset, MAX_PARAMETERS, MAX_BLANK_VALUES);
  }

  /**
   * All parameters in body order, of a body its platform vouched for (PayPal's VERIFIED): the caps bound
   * the work done for the unauthenticated, and this body is bounded by http.max_body_bytes already.
   */
  public static Map<String, String> decodeVerified(byte[] body, Charset charset) throws RejectedNotification {
    return decode(body, charset, Integer.MAX_VALUE, Integer.MAX_VALUE);
  }

  private static Map<String, String> decode(byte[] body, Charset charset, int maxParameters, int maxBlank)
      throws RejectedNotification {
    if (pairs(body) > maxParameters) {
      throw RejectedNotification.malformed("form body of more than " + maxParameters + " parameters");
    }
    Map<String, String> params = new LinkedHashMap<>();
    int blank = 0;
    CharsetDecoder decoder = charset.newDecoder() // one per body: creating one per pair was most of the cost
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    int start = 0;
    while (start <= body.length) {
      int end = indexOf(body, (byte) '&', start, body.length);
      if (end > start) {
        // '=' is looked for in this pair only: searching on to the end of the body for every
        // pair made a body of names without '=' quadratic, before any signature is checked.
        int eq = indexOf(body, (byte) '=', start, end); // end when absent: a name with an empty value
        String name = decodePart(body, start, eq, decoder);
        String value = eq < end ? decodePart(body, eq + 1, end, decoder) : "";
        if (params.put(name, value) != null) {
          throw RejectedNotification.malformed("parameter '" + Ids.printable(name) + "' appears twice");
        }
        if (value.isBlank() && ++blank > maxBlank) {
          throw RejectedNotification.malformed("form body of more than " + maxBlank + " blank values");
        }
      }
      start = end + 1;
    }
    return params;
  }

  /** The non-empty '&'-separated pairs, as decode() will see them. */
  private static int pairs(byte[] body) {
    int pairs = 0;
    for (int i = 0; i < body.length; i++) {
      if (body[i] != '&' && (i == 0 || body[i - 1] == '&')) {
        pairs++;
      }
    }
    return pairs;
  }

  /** The first {@code b} in {@code [from, to)}, or {@code to}. */
  private static int indexOf(byte[] bytes, byte b, int from, int to) {
    for (int i = from; i < to; i++) {
      if (bytes[i] == b) {
        return i;
      }
    }
    return to;
  }

  private static String decodePart(byte[] body, int from, int to, CharsetDecoder decoder) throws RejectedNotification {
    if (plainAscii(body, from, to) && asciiCompatible(decoder.charset())) {
      return new String(body, from, to - from, StandardCharsets.ISO_8859_1); // nothing to unescape or decode
    }
    byte[] out = new byte[to - from]; // an escape only shortens: never more bytes than the part
    int length = 0;
    boolean ascii = true;
    for (int i = from; i < to; i++) {
      byte b = body[i];
      if (b == '+') {
        out[length++] = ' ';
      } else if (b == '%') {
        int hi = i + 2 < to ? Character.digit(body[i + 1], 16) : -1;
        int lo = hi >= 0 ? Character.digit(body[i + 2], 16) : -1;
        if (lo < 0) {
          throw RejectedNotification.malformed("malformed percent-escape in the form body at byte " + i);
        }
        out[length] = (byte) (hi << 4 | lo);
        ascii &= out[length++] >= 0;
        i += 2;
      } else {
        out[length++] = b;
        ascii &= b >= 0;
      }
    }
    if (ascii && asciiCompatible(decoder.charset())) {
      return new String(out, 0, length, StandardCharsets.ISO_8859_1);
    }
    try {
      return decoder.decode(ByteBuffer.wrap(out, 0, length)).toString(); // decode() resets it first
    } catch (CharacterCodingException e) {
      throw RejectedNotification.malformed("form body is not valid " + decoder.charset().name());
    }
  }

  /** Bytes below 0x80 only, none of them an escape ('%', '+'): the part is its own text. */
  private static boolean plainAscii(byte[] bytes, int from, int to) {
    for (int i = from; i < to; i++) {
      byte b = bytes[i];
      if (b < 0 || b == '%' || b == '+') {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether every byte below 0x80 is, alone, that ASCII character in {@code charset}, as in the platforms' charsets
   * (not in UTF-16, say): text of such bytes needs no decoder, and no decoder would refuse it.
   */
  private static boolean asciiCompatible(Charset charset) {
    return ASCII_COMPATIBLE.contains(charset.name());
  }
}
