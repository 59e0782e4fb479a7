package paynotify.reconcile.daily;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.channel.PlatformTime;
import paynotify.store.Database;
import paynotify.store.RefusalEpisode;
import paynotify.store.RefusalEpisodes;

/**
 * The times the database refused writes on a closed day (Beijing time), a line each for the day's summary, e.g.
 * {@code database refused writes 12:00:03-12:00:41 (disk full (1114)): 37 notifications answered failure}: the
 * notifications a platform delivers again are in the bill; the others the owner looks for.
 */
final class DayRefusals {
  private static final Logger LOG = LoggerFactory.getLogger(DayRefusals.class);
  private static final DateTimeFormatter HMS = DateTimeFormatter.ofPattern("HH:mm:ss");

  private final RefusalEpisodes episodes;

  DayRefusals(Vertx vertx, Database db) {
    this.episodes = new RefusalEpisodes(vertx, db);
  }

  /** The day's lines, oldest first; none when they cannot be read (the close stays as it is). */
  Future<List<String>> of(LocalDate day) {
    Instant start = day.atStartOfDay(PlatformTime.BEIJING).toInstant();
    Instant end = day.plusDays(1).atStartOfDay(PlatformTime.BEIJING).toInstant();
    return episodes.endedSince(start).map(ended -> ended.stream().filter(e -> e.since().isBefore(end))
        .sorted(Comparator.comparing(RefusalEpisode::since)).map(DayRefusals::line).toList())
        .otherwise(err -> {
          LOG.warn("daily close {}: the day's times the database refused writes not read: {}", day, err.toString());
          return List.of();
        });
  }

  private static String line(RefusalEpisode e) {
    return "database refused writes " + LocalTime.ofInstant(e.since(), PlatformTime.BEIJING).format(HMS) + "-"
        + LocalTime.ofInstant(e.until(), PlatformTime.BEIJING).format(HMS) + " (" + e.reason() + "): " + e.refused()
        + (e.refused() == 1 ? " notification" : " notifications") + " answered failure";
  }
}
