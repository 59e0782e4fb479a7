package paynotify.channel;

import java.util.regex.Pattern;

/** Exact yuan-to-cents parsing: money never passes through a double. */
public final class Money {
  // Integer cents as WeChat Pay sends them (total_fee, refund_fee).
  private static final Pattern CENTS = Pattern.compile("0|[1-9][0-9]{0,14}");

  private Money() {}

  /** "8888" -> 8888: integer cents, no sign, no leading zeros. */
  public static long cents(String field, String value) throws RejectedNotification {
    if (value == null || !CENTS.matcher(value).matches()) {
      throw RejectedNotification.malformed(field + " is not a whole number of cents: '" + Ids.printable(value) + "'");
    }
    return Long.parseLong(value);
  }

  /**
   * A JSON number of minor units as the webhook platforms send it (Stripe, Lemon Squeezy: cents for USD, yen for
   * JPY), never scaled: a non-negative integer, anything else (a decimal, a string, null) refused.
   */
  public static long minorUnits(String field, Object value) throws RejectedNotification {
    if (!(value instanceof Integer || value instanceof Long) || ((Number) value).longValue() < 0) {
      throw RejectedNotification.malformed(field + " is not a whole number of minor units");
    }
    return ((Number) value).longValue();
  }

  /** "88.88" -> 8888; anything that is not a plain decimal with at most 2 places is rejected. */
  public static long yuanToCents(String field, String value) throws RejectedNotification {
    if (value == null || !plainYuan(value)) {
      throw RejectedNotification.malformed(
          field + " is not a plain decimal amount with at most 2 places: '" + Ids.printable(value) + "'");
    }
    int dot = value.indexOf('.');
    if (dot < 0) {
      return Long.parseLong(value) * 100;
    }
    int cents = (value.charAt(dot + 1) - '0') * 10 + (dot + 2 < value.length() ? value.charAt(dot + 2) - '0' : 0);
    return Long.parseLong(value, 0, dot, 10) * 100 + cents;
  }

  /**
   * A plain decimal: no sign, no exponent, no leading zeros, at most 2 places, at most 10^13 yuan (what the regex
   * {@code (0|[1-9][0-9]{0,12})(\.[0-9]{1,2})?} matches, read by a loop on every notification).
   */
  private static boolean plainYuan(String value) {
    int dot = value.indexOf('.');
    int whole = dot < 0 ? value.length() : dot;
    if (whole < 1 || whole > 13 || (whole > 1 && value.charAt(0) == '0') || !digits(value, 0, whole)) {
      return false;
    }
    int places = dot < 0 ? 0 : value.length() - dot - 1;
    return dot < 0 || (places >= 1 && places <= 2 && digits(value, dot + 1, value.length()));
  }

  private static boolean digits(String value, int from, int to) {
    for (int i = from; i < to; i++) {
      if (value.charAt(i) < '0' || value.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  /** 8888 -> "88.88", for messages. */
  public static String format(long cents) {
    return String.format("%d.%02d", cents / 100, Math.abs(cents % 100));
  }
}
