package paynotify.channel;

import java.util.regex.Pattern;

/** Exact yuan-to-cents parsing: money never passes through a double. */
public final class Money {
  // A plain decimal: no sign, no exponent, no leading zeros, at most 2 places, at most 10^13 yuan.
  private static final Pattern YUAN = Pattern.compile("(0|[1-9][0-9]{0,12})(\\.[0-9]{1,2})?");

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

  /** "88.88" -> 8888; anything that is not a plain decimal with at most 2 places is rejected. */
  public static long yuanToCents(String field, String value) throws RejectedNotification {
    if (value == null || !YUAN.matcher(value).matches()) {
      throw RejectedNotification.malformed(
          field + " is not a plain decimal amount with at most 2 places: '" + Ids.printable(value) + "'");
    }
    int dot = value.indexOf('.');
    if (dot < 0) {
      return Long.parseLong(value) * 100;
    }
    String fraction = (value.substring(dot + 1) + "0").substring(0, 2);
    return Long.parseLong(value.substring(0, dot)) * 100 + Integer.parseInt(fraction);
  }

  /** 8888 -> "88.88", for messages. */
  public static String format(long cents) {
    return String.format("%d.%02d", cents / 100, Math.abs(cents % 100));
  }
}
