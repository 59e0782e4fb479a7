package paynotify.gateway;

import java.time.LocalDate;

/**
 * One day's bill as a platform served it.
 *
 * @param date     the day (Beijing time) it covers
 * @param fileName the name the owner's download would have (e.g. {@code 20888...._20260314.csv.zip},
 *                 {@code 1543681851_20260314_ALL.csv}): what {@code reconcile --bill} reads the format by
 * @param content  the file's bytes, verified where the platform gives a way (WeChat v3's SHA1); null: the
 *                 platform says the day had no trades
 */
public record DayBill(LocalDate date, String fileName, byte[] content) {
  /** A day without trades, as the platform said. */
  public static DayBill none(LocalDate date) {
    return new DayBill(date, null, null);
  }

  public boolean hasTrades() {
    return content != null;
  }
}
