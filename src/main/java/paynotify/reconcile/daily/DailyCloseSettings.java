package paynotify.reconcile.daily;

import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.List;
import paynotify.channel.Platform;

/**
 * The {@code reconcile.daily:} section: each day, yesterday's bill of each platform fetched and reconciled by the
 * service itself, as {@code paynotify reconcile --fetch --record} would.
 *
 * @param enabled    off by default
 * @param at         the time of day (Beijing) the close starts
 * @param platforms  whose bills it closes (Alipay, WeChat Pay: {@code reconcile --channel alipay, wechat})
 * @param repair     auto_repair: missing_local (the payments it shows that are safe to book, booked)
 * @param configFile the service's configuration: the close runs {@code paynotify reconcile} with it
 */
public record DailyCloseSettings(boolean enabled, LocalTime at, List<Platform> platforms, boolean repair,
    Path configFile) {
  /** A close that did not come off is tried again this much later. */
  public static final Duration RETRY = Duration.ofMinutes(15);
  /** The platforms make a day's bill by about 10:00 the next day; a bill still missing at noon is news. */
  static final LocalTime GIVE_UP = LocalTime.NOON;

  public static DailyCloseSettings off() {
    return new DailyCloseSettings(false, LocalTime.of(10, 30), List.of(), false, null);
  }

  /** The day whose bill is closed at {@code now} (Beijing): yesterday, from {@link #at} on; else none (null). */
  public LocalDate dayDue(LocalDateTime now) {
    return now.toLocalTime().isBefore(at) ? null : now.toLocalDate().minusDays(1);
  }

  /**
   * A close of {@code day} that fails at or after this (Beijing) is given up: noon of the next day, or an hour
   * after {@link #at} when that is later (a few tries at least).
   */
  public LocalDateTime giveUpAt(LocalDate day) {
    LocalDateTime noon = day.plusDays(1).atTime(GIVE_UP);
    LocalDateTime hourAfter = day.plusDays(1).atTime(at).plusHours(1);
    return hourAfter.isAfter(noon) ? hourAfter : noon;
  }
}
