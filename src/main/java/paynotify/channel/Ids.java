package paynotify.channel;

import java.util.Map;

/**
 * Checks on the identifiers a notification carries: those idempotency depends on (present, bounded,
 * unambiguous) and the merchant's own.
 */
public final class Ids {
  /**
   * The longest id accepted: what payments.trade_no and the other id columns hold. Ids are printable ASCII without
   * spaces: no padding or look-alike characters in a unique key.
   */
  static final int LONGEST = 64;
  /** JavaScript's Number.MAX_SAFE_INTEGER: 2^53 itself is also where 2^53 + 1 is rounded to. */
  private static final long EXACT_IN_JS = (1L << 53) - 1;

  private Ids() {}

  /** The value of {@code field}, which must be a non-empty id of at most 64 printable characters. */
  public static String require(Map<String, String> params, String field) throws RejectedNotification {
    String value = params.get(field);
    if (value == null || value.isEmpty()) {
      throw RejectedNotification.malformed(field + " is missing or empty");
    }
    if (!isId(value)) {
      throw RejectedNotification.malformed(
          field + " must be 1-64 printable ASCII characters without spaces: '" + printable(value) + "'");
    }
    return value;
  }

  /** {@code value} when it is a well-formed id, else null (absent, empty or not an id: it names nothing then). */
  public static String optional(String field, String value) {
    return value != null && isId(value) ? value : null;
  }

  /** 1-64 printable ASCII characters without spaces (0x21-0x7E): a loop, not a regex, on every notification. */
  private static boolean isId(String value) {
    if (value.isEmpty() || value.length() > LONGEST) {
      return false;
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < 0x21 || c > 0x7E) {
        return false;
      }
    }
    return true;
  }

  /**
   * An order number as a site passed it through a platform's JSON (Paddle's custom_data, a Lemon Squeezy checkout's
   * custom data, Creem's metadata): a string as it is, a whole number as its digits; null when absent or empty. A
   * number from 2^53 on is refused: JavaScript (Paddle.js, the platform, a Node site) may have held it rounded,
   * perhaps from another order's number.
   */
  public static String orderNumber(String path, Object value) throws RejectedNotification {
    if (value == null || "".equals(value)) {
      return null;
    }
    if (value instanceof String s) {
      return s;
    }
    if ((value instanceof Integer || value instanceof Long) && Math.abs(((Number) value).longValue()) <= EXACT_IN_JS) {
      return value.toString();
    }
    throw RejectedNotification.malformed(path + " is the number " + printable(value.toString()) + ", which"
        + " JavaScript may have rounded (whole numbers below 2^53 only): pass the order number as a string");
  }

  /** A merchant id of the notification ({@code field}) must be the configured one ({@code configKey}). */
  public static void requireMerchant(String field, String got, String expected, String configKey)
      throws RejectedNotification {
    if (!expected.equals(got)) {
      throw new RejectedNotification(RejectedNotification.Reason.WRONG_MERCHANT,
          field + " '" + printable(got) + "' is not the configured " + configKey);
    }
  }

  /** {@link #printable(String)} of a JSON value, whatever its type (a number, a string, an object, absent). */
  public static String printable(Object value) {
    return printable(value == null ? null : value.toString());
  }

  /** A short, log-safe rendering of untrusted input. */
  public static String printable(String value) {
    if (value == null) {
      return "(absent)";
    }
    String cut = value.length() > 40 ? value.substring(0, 40) + "..." : value;
    return cut.replaceAll("[\\p{Cntrl}]", "?");
  }
}
