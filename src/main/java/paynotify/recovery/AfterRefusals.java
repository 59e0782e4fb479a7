package paynotify.recovery;

import io.vertx.core.Future;
import io.vertx.sqlclient.SqlConnection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
  /**
   * Orders made this long before the first refusal are in the window too: a buyer pays a while after ordering, and
   * an order lives about 10 minutes at epusdt, 5 at V免签, so one made before the episode is paid during it.
   */
  public static final Duration BEFORE = Duration.ofMinutes(15);
  /** How long an episode stays on the status page's attention list. */
  static final Duration SHOWN_FOR = Duration.ofHours(24);
  /** Orders listed per episode; the rest counted. */
  static final int ORDERS_SHOWN = 10;
  /** Episodes listed; the rest counted in one line (a database that flaps all day). */
  static final int EPISODES_SHOWN = 5;
  /**
   * How long the attention lines are kept: the status page is loaded again and again for the day they are shown,
   * and each read queries the site's orders table.
   */
  static final Duration CACHED_FOR = Duration.ofSeconds(60);
  private static final DateTimeFormatter DAY_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");

  /** Where ended episodes are written (the booking pool: the status pool's few connections are /health's). */
  private final RefusalEpisodes episodes;
  /** Where the episodes and the site's orders are read (the status pool). */
  private final Database db;
  private final OrdersTable orders;
  private final Recovery recovery;
  private final Clock clock;
  /** The configured endpoints whose platform never delivers again, by endpoint. */
  private final Map<String, Platform> lostEndpoints = new LinkedHashMap<>();
  private final String lostLabels;
  /**
   * The channel column's values of the platforms that retry (an order of theirs is not listed: they deliver again);
   * null: every order of the window (the column cannot tell). A value the configuration does not know is listed.
   */
  private final List<String> retryValues;
  /** The last read of {@link #attention()}'s lines (kept {@link #CACHED_FOR}), and when it started. */
  private Future<List<String>> last;
  private Instant lastAt;

  /**
   * @param episodes where ended episodes are written
   * @param db       where the episodes and the site's orders are read (the status pool)
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
    this.retryValues = allLost || orders.columns().channel() == null ? null : settings.platformOf().entrySet()
        .stream().filter(e -> e.getValue().retries()).map(Map.Entry::getKey).sorted().toList();
  }

  /** The enabled channels' endpoints and their platforms, as the constructor takes them. */
  public static Map<String, Platform> endpoints(List<NotifyChannel> enabled) {
    Map<String, Platform> endpoints = new LinkedHashMap<>();
    enabled.forEach(c -> endpoints.put(c.endpoint(), c.platform()));
    return endpoints;
  }

  /**
   * An episode is over (WriteRefusals' consumer): kept, and its window's orders asked about first. Once kept, the
   * attention lines are read again at the next request, not up to {@link #CACHED_FOR} later: this instance's own
   * episode shows at once (another instance's within a minute).
   *
   * @return done when written, or failed when it could not be (logged)
   */
  public Future<Void> ended(RefusalEpisode episode) {
    LOG.info("the database refused writes from {} to {} ({}): {} notification(s) answered failure {}",
        episode.since(), episode.until(), episode.reason(), episode.refused(), episode.refusedByEndpoint());
    Future<Void> kept = episodes.record(episode).onSuccess(v -> forget());
    if (recovery != null) {
      recovery.askFirst(episode.since().minus(BEFORE), episode.until());
    }
    return kept;
  }

  private synchronized void forget() {
    last = null;
  }

  /**
   * The attention lines of the episodes that ended in the last day and refused notifications of a platform that
   * does not deliver again, newest first: a platform that retries delivers the rest itself. Read at most once per
   * {@link #CACHED_FOR} (a read that failed is not kept).
   */
  public Future<List<String>> attention() {
    if (lostEndpoints.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    return cachedRead().otherwise(err -> List.of("the times the database refused writes in the last 24 h could not"
        + " be read (" + err + "): check " + lostLabels + " orders of any time the alerts named"));
  }

  private synchronized Future<List<String>> cachedRead() {
    Instant now = clock.instant();
    if (last == null || last.failed() || !now.isBefore(lastAt.plus(CACHED_FOR))) {
      lastAt = now;
      last = db.inTransaction(conn -> RefusalEpisodes.endedSince(conn, now.minus(SHOWN_FOR))
          .compose(ended -> lines(conn, ended)));
    }
    return last;
  }

  private Future<List<String>> lines(SqlConnection conn, List<RefusalEpisode> ended) {
    List<RefusalEpisode> lost = ended.stream().filter(e -> lostOf(e) > 0).toList();
    List<String> lines = new ArrayList<>();
    Future<Void> all = Future.succeededFuture();
    for (RefusalEpisode e : lost.subList(0, Math.min(lost.size(), EPISODES_SHOWN))) {
      all = all.compose(v -> line(conn, e)).map(line -> {
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
  }

  private long lostOf(RefusalEpisode e) {
    return e.refusedByEndpoint().entrySet().stream().filter(n -> lostEndpoints.containsKey(n.getKey()))
        .mapToLong(Map.Entry::getValue).sum();
  }

  /**
   * An episode's line: the orders its refused notifications named (from verified notifications: plain order
   * numbers), those paid since said so, then the other unpaid orders of its window.
   */
  private Future<String> line(SqlConnection conn, RefusalEpisode e) {
    List<String> named = e.lostOrders();
    Future<Set<String>> paid = named.isEmpty() ? Future.succeededFuture(Set.of()) : orders.paidAmong(conn, named);
    return paid.compose(paidNow -> {
      String said = "the database refused writes from " + dayTime(e.since()) + " to " + sameDay(e.since(), e.until())
          + " (Beijing time; " + e.reason() + "): " + e.refused() + " notification" + (e.refused() == 1 ? "" : "s")
          + " answered failure, " + lostOf(e) + " of them from " + lostLabels + ", which never deliver again"
          + (named.isEmpty() ? "" : refused(named, paidNow));
      String then = named.isEmpty() ? ": " : "; ";
      String atThePlatform = "look for " + lostLabels + " payments of that time at the platform";
      if (orders.columns().createdAt() == null) {
        return Future.succeededFuture(said + then + "the " + (named.isEmpty() ? "" : "other ") + "orders of that"
            + " window cannot be listed (orders.columns.created_at is not mapped); " + atThePlatform);
      }
      Instant from = e.since().minus(BEFORE);
      String window = "(created " + time(from) + " to " + time(e.until()) + ")";
      return orders.unpaidCreatedBetween(conn, from, e.until(), retryValues, named, ORDERS_SHOWN).map(unpaid -> {
        if (unpaid.total() > 0) {
          return said + then + (named.isEmpty() ? "check these unpaid orders of that window " : "other unpaid orders"
              + " of that window ") + window + ": " + String.join(", ", unpaid.newest()) + more(unpaid);
        }
        if (named.isEmpty()) {
          return said + ": no unpaid order of theirs was created from " + time(from) + " to " + time(e.until())
              + "; " + atThePlatform + " (an order made earlier may have been paid then)";
        }
        // The named orders are the known ones, not all: only the first are kept, and a notification may name none.
        return named.size() < lostOf(e) ? said + "; for the others " + atThePlatform : said;
      });
    });
  }

  /** {@code ": refused: EP1, EP2 (EP2 paid since); check EP1"}: those not paid now are the owner's to check. */
  private static String refused(List<String> named, Set<String> paidNow) {
    List<String> paid = named.stream().filter(paidNow::contains).toList();
    List<String> check = named.stream().filter(n -> !paidNow.contains(n)).toList();
    return ": refused: " + String.join(", ", named) + (paid.isEmpty() ? "" : " (" + String.join(", ", paid)
        + " paid since)") + (check.isEmpty() ? "" : "; check " + String.join(", ", check));
  }

  private static String more(OrdersTable.Unpaid unpaid) {
    if (unpaid.countStopped()) {
      return " (and more: " + OrdersTable.COUNTED_UP_TO + " or more in all)";
    }
    return unpaid.total() > unpaid.newest().size() ? " (and " + (unpaid.total() - unpaid.newest().size()) + " more)"
        : "";
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
