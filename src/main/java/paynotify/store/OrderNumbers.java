package paynotify.store;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import paynotify.channel.NotifyEvent.Reading;
import paynotify.channel.NotifyEvent;

/**
 * How the site's order number is written where the platforms see it (out_trade_no, client_reference_id,
 * invoice): as it is, or between a fixed prefix and suffix the site adds ({@code orders.out_trade_no:
 * "{order_no}-pay"}). Everything booked is booked under the site's number; recovery asks with the platform's.
 * A variable part (a time, a retry counter) cannot be asked about, so it is not accepted. The template binds: a
 * number not written with it is another site's (one merchant account, V免签 server or epusdt token for two sites),
 * never this site's order, on any path.
 *
 * @param prefix what comes before the site's number, "" for none
 * @param suffix what comes after it, "" for none
 */
public record OrderNumbers(String prefix, String suffix) {
  /** Where the site's number goes in the template. */
  public static final String PLACEHOLDER = "{order_no}";
  /** The site's number is the platform's. */
  public static final OrderNumbers AS_IS = new OrderNumbers("", "");
  private static final Pattern LITERAL = Pattern.compile("[A-Za-z0-9_.:#|-]{0,32}");

  /**
   * The template's prefix and suffix.
   *
   * @throws IllegalArgumentException saying what is wrong with it
   */
  public static OrderNumbers of(String template) {
    int at = template.indexOf(PLACEHOLDER);
    if (at < 0 || template.indexOf(PLACEHOLDER, at + 1) >= 0) {
      throw new IllegalArgumentException("'" + template + "' must hold " + PLACEHOLDER + " exactly once");
    }
    String prefix = template.substring(0, at);
    String suffix = template.substring(at + PLACEHOLDER.length());
    if (!LITERAL.matcher(prefix).matches() || !LITERAL.matcher(suffix).matches()) {
      throw new IllegalArgumentException("'" + template + "': only fixed letters, digits and _ . : # | - (32 at"
          + " most) may stand around " + PLACEHOLDER + "; a time or counter the site adds cannot be asked about");
    }
    return prefix.isEmpty() && suffix.isEmpty() ? AS_IS : new OrderNumbers(prefix, suffix);
  }

  /** The out_trade_no the platform knows the site's order {@code orderNo} by. */
  public String toPlatform(String orderNo) {
    return prefix + orderNo + suffix;
  }

  /** The site's order number in a platform's {@code outTradeNo}; null when it is not written so (not the site's). */
  public String toSite(String outTradeNo) {
    if (this == AS_IS || outTradeNo == null) {
      return outTradeNo;
    }
    return written(outTradeNo) ? outTradeNo.substring(prefix.length(), outTradeNo.length() - suffix.length()) : null;
  }

  /**
   * Whether {@code outTradeNo} is written as this site writes its numbers (always, without a template): a
   * number without the prefix is another site's on the same merchant account, as far as a bill can tell.
   */
  public boolean written(String outTradeNo) {
    return outTradeNo != null && outTradeNo.length() > prefix.length() + suffix.length()
        && outTradeNo.startsWith(prefix) && outTradeNo.endsWith(suffix);
  }

  /**
   * {@code event} under the site's order number, and its other readings under theirs (one not written so names no
   * order of this site: dropped); null when the order it names is not the site's.
   */
  public NotifyEvent toSite(NotifyEvent event) {
    if (event.orderNo() == null) { // a refund that names only its trade: booked by the trade
      return event;
    }
    String orderNo = toSite(event.orderNo());
    if (orderNo == null || this == AS_IS) {
      return orderNo == null ? null : event;
    }
    List<Reading> readings = new ArrayList<>();
    for (Reading other : event.otherReadings()) {
      String otherNo = toSite(other.orderNo());
      if (otherNo != null) {
        readings.add(new Reading(otherNo, other.amountCents()));
      }
    }
    return event.withOrderNo(orderNo).withOtherReadings(readings);
  }
}
