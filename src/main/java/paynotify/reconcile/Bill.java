package paynotify.reconcile;

import java.time.LocalDateTime;
import java.util.regex.Pattern;
import paynotify.channel.Platform;

/** A platform bill, read once, row by row: memory does not grow with its size. */
public interface Bill {

  /** Receives the rows as they are read (its own failures are unchecked, so that they pass through). */
  interface RowSink {
    void accept(BillRow row);
  }

  /**
   * What was read, checked against the bill's own totals.
   *
   * @param from the bill's window, inclusive
   * @param to   the bill's window, exclusive
   */
  record Summary(LocalDateTime from, LocalDateTime to, long paymentRows, long refundRows, long paymentCents,
      long refundCents) {}

  /** Whose bill it is: its {@link Platform#code()} is stored with the bookings ({@code alipay}, {@code wechat}). */
  Platform platform();

  /**
   * Reads every row into {@code sink}; fails on anything that is not a complete, well-formed,
   * readable bill (a missing file included).
   */
  Summary read(RowSink sink) throws BillFormatException;

  /** Bills print yuan with two decimals ({@code -12.30}); parsed exactly to cents, never through a float. */
  Pattern YUAN = Pattern.compile("-?(0|[1-9][0-9]{0,13})\\.[0-9]{2}");

  static long cents(String value, String file, long line, String column) throws BillFormatException {
    if (value == null || !YUAN.matcher(value).matches()) {
      throw new BillFormatException(file, line, column, "'" + value + "' is not an amount with two decimals");
    }
    boolean negative = value.startsWith("-");
    String digits = (negative ? value.substring(1) : value).replace(".", "");
    long cents = Long.parseLong(digits);
    return negative ? -cents : cents;
  }
}
