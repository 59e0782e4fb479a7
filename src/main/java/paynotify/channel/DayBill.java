package paynotify.channel;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import paynotify.net.OutboundFailure;

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

  /**
   * WeChat Pay's "still making it" ("Bill Creating", STATEMENT_CREATING), which its docs say may also mean a day
   * without trades: not ready until noon of the next day (Beijing time; bills come from 09:00), after that a day
   * without trades, so that a shop with no WeChat sales that day is not told "try again" for ever.
   */
  public static DayBill stillMaking(LocalDate date, String detail) {
    if (LocalDateTime.now(PlatformTime.BEIJING).isAfter(date.plusDays(1).atTime(LocalTime.NOON))) {
      return none(date);
    }
    throw OutboundFailure.notReady(detail + " (WeChat makes a day's bill from 09:00 the next day; past noon,"
        + " this means the day had no trades)");
  }

  public boolean hasTrades() {
    return content != null;
  }
}
