package paynotify.reconcile;

import java.time.LocalDate;
import paynotify.channel.Platform;

/**
 * The bill of a day the platform says had no trades (WeChat Pay's "No Bill Exist"): no rows, the day's window,
 * so that reconciling it still finds what was booked here that day.
 */
public record DayWithoutTrades(Platform platform, LocalDate day) implements Bill {
  @Override
  public Summary read(RowSink sink) {
    return new Summary(day.atStartOfDay(), day.plusDays(1).atStartOfDay(), 0, 0, 0, 0);
  }
}
