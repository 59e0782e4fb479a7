package paynotify.channel;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * What the platforms' signatures are built from. The rules of each protocol (which parameters are
 * signed, which algorithm, which key) are in its {@code ...Signature} class, not here.
 */
public final class Signatures {
  private static final Pattern NUMBERED = Pattern.compile("_[0-9]+$");

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

  /**
   * Refuses parameters that {@link #sortedContent} could have joined from other ones. Values are
   * joined unescaped, so a value holding {@code &out_trade_no=X} signs the same content as a
   * message whose out_trade_no is X: a genuine message the buyer sees (a return URL) with buyer
   * text in a signed field could be re-split into a payment for another order. Only the protocol's
   * own names count: the site's text may hold {@code a&b=c} (JSON, a query string of its own), and
   * splitting there only adds a parameter nobody reads. A name holding {@code &} or {@code =} could
   * move a boundary the same way and is refused too.
   *
   * @param protocolNames the parameters the platform sends; {@code name_$n} stands for {@code name_0},
   *                      {@code name_1}, ... (WeChat's numbered coupon fields)
   */
  public static void requireUnambiguous(Map<String, String> params, Set<String> protocolNames)
      throws RejectedNotification {
    for (Map.Entry<String, String> param : params.entrySet()) {
      String name = param.getKey();
      if (name.indexOf('&') >= 0 || name.indexOf('=') >= 0) {
        throw RejectedNotification.malformed("parameter name '" + Ids.printable(name) + "' holds & or =");
      }
      String value = param.getValue();
      for (int amp = value.indexOf('&'); amp >= 0; amp = value.indexOf('&', amp + 1)) {
        int eq = value.indexOf('=', amp + 1);
        if (eq < 0) {
          break;
        }
        String inner = value.substring(amp + 1, eq);
        if (protocolNames.contains(NUMBERED.matcher(inner).replaceFirst("_\\$n"))) {
          throw RejectedNotification.malformed(name + " holds '&" + Ids.printable(inner) + "=', which would sign the"
              + " same as a message with its own " + Ids.printable(inner) + ": refused as ambiguous");
        }
      }
    }
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
