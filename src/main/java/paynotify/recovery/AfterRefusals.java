package paynotify.recovery;

import io.vertx.core.Future;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.channel.NotifyChannel;
import paynotify.channel.Platform;
import paynotify.channel.PlatformTime;
import paynotify.store.Database;
import paynotify.store.OrdersTable;
import paynotify.store.RefusalEpisode;
import paynotify.store.RefusalEpisodes;

/**
 * What follows a time the database refused writes, once it is over: the episode kept ({@link RefusalEpisodes}),
 * the sweeper told to ask about the window's orders first ({@link Recovery#askFirst}), and for a day the status
 * page's attention lines listing the unpaid orders of that window of the channels that never deliver a refused
 * notification again (epusdt, V免签): their payments are lost to the site unless the owner looks.
 */
public final class AfterRefusals {
  private static final Logger LOG = LoggerFactory.getLogger(AfterRefusals.class);
  /** Orders made this long before the first refusal are in the window too: a buyer pays a while after ordering. */
  public static final Duration BEFORE = Duration.ofMinutes(1);
  /** How long an episode stays on the status page's attention list. */
  static final Duration SHOWN_FOR = Duration.ofHours(24);
  /** Orders listed per episode; the rest counted. */
  static final int ORDERS_SHOWN = 10;
  /** Episodes listed; the rest counted in one line (a database that flaps all day). */
  static final int EPISODES_SHOWN = 5;
  private static final DateTimeFormatter DAY_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");

  private final RefusalEpisodes episodes;
  private final Database db;
  private final OrdersTable orders;
  private final Recovery recovery;
  private final Clock clock;
  /** The configured endpoints whose platform never delivers again, by endpoint. */
  private final Map<String, Platform> lostEndpoints = new LinkedHashMap<>();
  private final String lostLabels;
  /** The channel column's values of those platforms; null: every order of the window (the column cannot tell). */
  private final List<String> lostValues;

  /**
   * @param db       where the site's orders are read (the status pool)
   * @param endpoints the enabled endpoints and their platforms ({@link #endpoints})
   * @param settings  recovery's: what the site's channel column's values mean
   * @param recovery  asks the window's orders first; null when no platform can be asked
   */
  public AfterRefusals(RefusalEpisodes episodes, Database db, OrdersTable orders, Map<String, Platform> endpoints,
      RecoverySettings settings, Recovery recovery, Clock clock) {
    this.episodes = episodes;
    this.db = db;
    this.orders = orders;
    this.recovery = recovery;
    this.clock = clock;
    endpoints.forEach((endpoint, platform) -> {
      if (!platform.retries()) {
        lostEndpoints.put(endpoint, platform);
      }
    });
    List<Platform> lost = lostEndpoints.values().stream().distinct().sorted().toList();
    this.lostLabels = lost.stream().map(Platform::label).collect(Collectors.joining(" and "));
    boolean allLost = settings.onlyPlatform() != null && !settings.onlyPlatform().retries();
    this.lostValues = allLost || orders.columns().channel() == null ? null : settings.platformOf().entrySet().stream()
        .filter(e -> lost.contains(e.getValue())).map(Map.Entry::getKey).sorted().toList();
  }

  /** The enabled channels' endpoints and their platforms, as the constructor takes them. */
  public static Map<String, Platform> endpoints(List<NotifyChannel> enabled) {
    Map<String, Platform> endpoints = new LinkedHashMap<>();
    enabled.forEach(c -> endpoints.put(c.endpoint(), c.platform()));
    return endpoints;
  }

  /** An episode is over (WriteRefusals' consumer): kept, and its window's orders asked about first. */
  public void ended(RefusalEpisode episode) {
    LOG.info("the database refused writes from {} to {} ({}): {} notification(s) answered failure {}",
        episode.since(), episode.until(), episode.reason(), episode.refused(), episode.refusedByEndpoint());
    episodes.record(episode); // logs itself when it cannot be written
    if (recovery != null) {
      recovery.askFirst(episode.since().minus(BEFORE), episode.until());
    }
  }

  /**
   * The attention lines of the episodes that ended in the last day and refused notifications of a platform that
   * does not deliver again, newest first: a platform that retries delivers the rest itself.
   */
  public Future<List<String>> attention() {
    if (lostEndpoints.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    return episodes.endedSince(clock.instant().minus(SHOWN_FOR)).compose(ended -> {
      List<RefusalEpisode> lost = ended.stream().filter(e -> lostOf(e) > 0).toList();
      List<String> lines = new ArrayList<>();
      Future<Void> all = Future.succeededFuture();
      for (RefusalEpisode e : lost.subList(0, Math.min(lost.size(), EPISODES_SHOWN))) {
        all = all.compose(v -> line(e)).map(line -> {
          lines.add(line);
          return null;
        });
      }
      return all.map(v -> {
        if (lost.size() > EPISODES_SHOWN) {
          lines.add("and " + (lost.size() - EPISODES_SHOWN) + " more times the database refused writes in the last"
              + " 24 h (write_refusals): check " + lostLabels + " orders of each");
        }
        return lines;
      });
    }).otherwise(err -> List.of("the times the database refused writes in the last 24 h could not be read (" + err
        + "): check " + lostLabels + " orders of any time the alerts named"));
  }

  private long lostOf(RefusalEpisode e) {
    return e.refusedByEndpoint().entrySet().stream().filter(n -> lostEndpoints.containsKey(n.getKey()))
        .mapToLong(Map.Entry::getValue).sum();
  }

  private Future<String> line(RefusalEpisode e) {
    Instant from = e.since().minus(BEFORE);
    String said = "the database refused writes from " + dayTime(e.since()) + " to " + sameDay(e.since(), e.until())
        + " (Beijing time; " + e.reason() + "): " + e.refused() + " notification" + (e.refused() == 1 ? "" : "s")
        + " answered failure, " + lostOf(e) + " of them from " + lostLabels + ", which never deliver again";
    String atThePlatform = "look for " + lostLabels + " payments of that time at the platform";
    if (orders.columns().createdAt() == null) {
      return Future.succeededFuture(said + ": the orders of that window cannot be listed (orders.columns.created_at"
          + " is not mapped); " + atThePlatform);
    }
    return db.inTransaction(conn -> orders.unpaidCreatedBetween(conn, from, e.until(), lostValues, ORDERS_SHOWN))
        .map(unpaid -> unpaid.total() == 0
            ? said + ": no unpaid order of theirs was created from " + time(from) + " to " + time(e.until())
                + "; " + atThePlatform + " (an order made earlier may have been paid then)"
            : said + ": check these unpaid orders of that window (created " + time(from) + " to " + time(e.until())
                + "): " + String.join(", ", unpaid.newest())
                + (unpaid.total() > unpaid.newest().size() ? " (and " + (unpaid.total() - unpaid.newest().size())
                    + " more)" : ""));
  }

  private static String dayTime(Instant t) {
    return LocalDateTime.ofInstant(t, PlatformTime.BEIJING).format(DAY_TIME);
  }

  private static String time(Instant t) {
    return LocalDateTime.ofInstant(t, PlatformTime.BEIJING).format(TIME);
  }

  /** The end's time alone when it is the start's day. */
  private static String sameDay(Instant start, Instant end) {
    boolean same = LocalDateTime.ofInstant(start, PlatformTime.BEIJING).toLocalDate()
        .equals(LocalDateTime.ofInstant(end, PlatformTime.BEIJING).toLocalDate());
    return same ? time(end) : dayTime(end);
  }
}
