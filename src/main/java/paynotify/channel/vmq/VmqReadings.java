package paynotify.channel.vmq;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import paynotify.channel.Money;
import paynotify.channel.NotifyEvent.Reading;
import paynotify.channel.RejectedNotification;

/**
 * The other readings of one signed V免签 message. Its sign covers {@code param . type . price . reallyPrice} as one
 * string (after payId: where a number may start is vmq.order_pattern's to fix), so the same sign fits every split
 * of that string that a server could have sent: a type of 1 or 2 and two plain prices above zero within
 * vmq.max_price_shift of each other. They are few: a price has at most 16 characters, so only the last 33
 * characters can move. A reading with another price names the same order (its booking compares the amount with
 * the order's); one with another param names another order when the order is in param, which booking checks.
 */
final class VmqReadings {
  /** The longest price {@link Money} reads: 13 digits, a dot and 2 decimals. */
  private static final int LONGEST_PRICE = 16;
  /** A param ending in 1 or 2 and what a price (a plain decimal ending in 1 or 2) has before its last character. */
  private static final Pattern FORGEABLE =
      Pattern.compile(".*[12]([1-9][0-9]{0,12}|(0|[1-9][0-9]{0,12})\\.[0-9]?)?", Pattern.DOTALL);

  private VmqReadings() {}

  /**
   * The readings of {@code param . type . price . reallyPrice} with another param that {@code order} accepts as an
   * order number: that param and the price it would book (readings with the received param name the same order).
   */
  static List<Reading> others(String param, String type, String price, String reallyPrice, long maxShiftCents,
      Predicate<String> order) {
    String signed = param + type + price + reallyPrice;
    Set<Reading> readings = new LinkedHashSet<>();
    for (int at = Math.max(0, signed.length() - 1 - 2 * LONGEST_PRICE); at + 3 <= signed.length(); at++) {
      String otherParam = signed.substring(0, at);
      if (at == param.length() || !VmqSignature.TYPES.contains(signed.substring(at, at + 1))
          || !order.test(otherParam)) {
        continue;
      }
      String prices = signed.substring(at + 1);
      for (int cut = 1; cut < prices.length(); cut++) {
        long otherPrice = cents(prices.substring(0, cut));
        long otherPaid = cents(prices.substring(cut));
        if (otherPrice > 0 && otherPaid > 0 && Math.abs(otherPaid - otherPrice) <= maxShiftCents) {
          readings.add(new Reading(otherParam, otherPrice));
        }
      }
    }
    return List.copyOf(readings);
  }

  /**
   * Whether a site that sends {@code param} to createOrder gives its buyers a forgery: createOrder's sign,
   * md5(payId . param . type . price . key), which the buyer's browser is sent, is the notify sign of every split
   * of that string into five, and when param ends in 1 or 2 and the first characters of a price (createOrder
   * (ORD7, qq21, 1, 11) is the notify (ORD7, qq, 2, 11, 11)), one of them says the order was paid its price. The
   * forged message is in every way a genuine one (of a site whose param is qq): only the site's param tells.
   */
  static boolean forgeable(String param) {
    return FORGEABLE.matcher(param).matches();
  }

  /** A plain decimal's cents, or 0 for anything else (a reading a server cannot send). */
  private static long cents(String yuan) {
    try {
      return Money.yuanToCents("price", yuan);
    } catch (RejectedNotification e) {
      return 0;
    }
  }
}
