package paynotify.reconcile.daily;

import static paynotify.store.SqlQueries.ADD_DAILY_CLOSE;
import static paynotify.store.SqlQueries.DAILY_CLOSES_SINCE;
import static paynotify.store.SqlQueries.DAILY_CLOSE_TRIED;
import static paynotify.store.SqlQueries.LEASE_DAILY_CLOSE;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.channel.Platform;
import paynotify.channel.PlatformTime;
import paynotify.reconcile.daily.CloseProcess.Tried;
import paynotify.store.Database;
import paynotify.store.Lease;
import paynotify.timer.Periodic;

/**
 * The daily close ({@code reconcile.daily}) on the service's clock: from {@code at} (Beijing time), yesterday's bill
 * of each platform closed ({@link DayClose}, run as a process of its own: {@link CloseProcess}), once across all
 * instances, and what it came to recorded in daily_closes (the status page and the alerts read it there).
 *
 * <p>One instance closes a day: its row's {@link Lease} in daily_closes, decided by the database; whether one is
 * due is looked at every minute ({@link Periodic}). A close that does not come off (the bill not made yet, the
 * platform or the database down) is tried again every 15 minutes, and given up when a try at or after noon fails
 * too (then the status page says so, and the owner can run the command by hand).
 */
public final class DailyClose {
  private static final Logger LOG = LoggerFactory.getLogger(DailyClose.class);
  private static final Duration LEASE = CloseProcess.RUN_LIMIT.plusMinutes(5);
  private static final Duration TICK = Duration.ofMinutes(1);
  private static final Duration FIRST_TICK = Duration.ofSeconds(5);
  /** How far back a day the close did not finish (the service down over midnight) is still closed. */
  private static final int CATCH_UP_DAYS = 7;

  private final Vertx vertx;
  private final Database db;
  private final DailyCloseSettings settings;
  private final Clock clock;
  private final Lease lease;
  private final CloseProcess process;
  private final DayRefusals refusals;
  /** The platforms whose close of {@link #overDay} is over (done or given up): the minute's tick asks nothing. */
  private final Set<Platform> over = ConcurrentHashMap.newKeySet();
  private volatile LocalDate overDay;
  private volatile Periodic timer;
  private volatile boolean stopping;

  /**
   * @param db          a pool of the service's: a few short statements a day, none held while the command runs
   * @param billsDir    reconcile.bills_dir, where the command keeps the bill and its report
   * @param commandLine the jar's command line, whose {@code reconcile} closes a day ({@link CloseProcess})
   */
  public DailyClose(Vertx vertx, Database db, DailyCloseSettings settings, Path billsDir, Clock clock,
      Class<?> commandLine) {
    this.vertx = vertx;
    this.db = db;
    this.settings = settings;
    this.clock = clock;
    this.lease = new Lease(vertx, db);
    this.process = new CloseProcess(vertx, commandLine, settings, billsDir);
    this.refusals = new DayRefusals(vertx, db);
  }

  /** What one platform's close came to. */
  public record Closed(Platform platform, LocalDate day, String state, String detail) {}

  /**
   * Looks for a close due soon after the start (a service down at the hour closes the day when it is back),
   * then every minute; a close still running when the next is due is not overlapped.
   */
  public void schedule() {
    LOG.info("daily close: {} at {} (Beijing time), yesterday's bill{}",
        settings.platforms().stream().map(Platform::code).toList(), settings.at(),
        settings.repair() ? "; auto_repair: missing_local" : "");
    timer = Periodic.every(vertx, FIRST_TICK, TICK, () -> runOnce(clock.instant()).onFailure(err ->
        LOG.warn("daily close: not tried now (the database?), looked at again in a minute: {}", err.getMessage())));
  }

  /**
   * No more looking by the clock: closes run when {@link #runOnce} is called (a test's clock). Completes once the
   * look in flight, if any, is over.
   */
  public Future<Void> unschedule() {
    return timer == null ? Future.succeededFuture() : timer.stop();
  }

  /**
   * No more looking, and a command that is running is stopped (the service is stopping): nothing is recorded of
   * it, and its day is tried again once the lease ends; no close is begun after. Completes once the look in flight,
   * if any, is over.
   */
  public Future<Void> stop() {
    stopping = true;
    Future<Void> inFlight = unschedule();
    process.stop();
    return inFlight;
  }

  /**
   * The closes due at {@code now}, each tried if no instance holds it: yesterday's, and the days before it the
   * close was on for and did not finish (a week at most); what each came to (none: nothing due).
   */
  public Future<List<Closed>> runOnce(Instant now) {
    LocalDateTime beijing = LocalDateTime.ofInstant(now, PlatformTime.BEIJING);
    LocalDate yesterday = settings.dayDue(beijing);
    if (yesterday == null || stopping) {
      return Future.succeededFuture(List.of());
    }
    if (!yesterday.equals(overDay)) {
      over.clear();
      overDay = yesterday;
    }
    List<Closed> closed = new ArrayList<>();
    Future<Void> all = Future.succeededFuture();
    for (Platform platform : settings.platforms()) {
      if (!over.contains(platform)) {
        all = all.compose(v -> unfinished(platform, yesterday)).compose(days -> {
          Future<Void> each = Future.succeededFuture();
          for (LocalDate day : days) {
            each = each.compose(v -> closeIfOurs(platform, day, now)).map(c -> {
              if (c != null) {
                closed.add(c);
              }
              return null;
            });
          }
          return each;
        });
      }
    }
    return all.map(v -> closed);
  }

  /**
   * The days to close, oldest first: yesterday unless it is over (then the platform is over for the day), and
   * each day since the first the close was on for within the week that is not over.
   */
  private Future<List<LocalDate>> unfinished(Platform platform, LocalDate yesterday) {
    LocalDate weekAgo = yesterday.minusDays(CATCH_UP_DAYS);
    return db.inTransaction(conn -> conn.preparedQuery(DAILY_CLOSES_SINCE)
            .execute(Tuple.of(platform.code(), weekAgo)))
        .map(rows -> {
          Set<LocalDate> settled = new HashSet<>();
          LocalDate first = yesterday;
          for (Row r : rows) {
            LocalDate day = r.getLocalDate(0);
            first = day.isBefore(first) ? day : first;
            if (!r.getString(1).equals("pending")) {
              settled.add(day);
            }
          }
          if (settled.contains(yesterday)) {
            over.add(platform);
          }
          List<LocalDate> days = new ArrayList<>();
          for (LocalDate day = first; !day.isAfter(yesterday); day = day.plusDays(1)) {
            if (!settled.contains(day)) {
              days.add(day);
            }
          }
          return days;
        });
  }

  /** Null when the day is another instance's now, not due again yet, or the service is stopping. */
  private Future<Closed> closeIfOurs(Platform platform, LocalDate day, Instant now) {
    if (stopping) { // the days after the one the stop cut are not begun (their command would outlive the service)
      return Future.succeededFuture(null);
    }
    String channel = platform.code(); // daily_closes.channel
    LocalDateTime utc = LocalDateTime.ofInstant(now, ZoneOffset.UTC);
    return lease.take(ADD_DAILY_CLOSE, Tuple.of(channel, day, utc, utc), LEASE_DAILY_CLOSE,
            owner -> Tuple.of(owner, utc.plus(LEASE), utc, channel, day, utc, utc))
        .compose(held -> !held || stopping ? Future.succeededFuture(null) : close(platform, day)
            // stopped, not answered: once the lease runs out the day is tried again
            .compose(tried -> stopping ? Future.succeededFuture(null) : record(platform, day, now, tried)));
  }

  /** What the try came to, written while the lease is still ours: null when it ran past it. */
  private Future<Closed> record(Platform platform, LocalDate day, Instant now, Tried tried) {
    String channel = platform.code();
    LocalDateTime utc = LocalDateTime.ofInstant(now, ZoneOffset.UTC);
    // the last try is the one at or after noon (WeChat's "still making it" means "no trades" from then)
    boolean givenUp = !tried.done()
        && !LocalDateTime.ofInstant(now, PlatformTime.BEIJING).isBefore(settings.giveUpAt(day));
    String state = tried.done() ? "done" : givenUp ? "failed" : "pending";
    return lease.whileHeld(DAILY_CLOSE_TRIED, owner -> Tuple.of(state, utc.plus(DailyCloseSettings.RETRY),
            cut(tried.detail()), tried.done() ? tried.summary().toJson().encode() : null, channel, day, owner))
        .map(held -> {
          if (!held) {
            LOG.warn("daily close {} {}: ran past its lease, which another instance took; not recorded here: {}",
                channel, day, tried.detail());
            return null;
          }
          log(channel, day, state, tried.detail());
          if (!state.equals("pending") && day.equals(overDay)) {
            over.add(platform);
          }
          return new Closed(platform, day, state, tried.detail());
        });
  }

  /** A day's close run; the summary of one done gets the day's times the database refused writes. */
  private Future<Tried> close(Platform platform, LocalDate day) {
    return process.run(platform, day).compose(tried -> !tried.done() ? Future.succeededFuture(tried)
        : refusals.of(day).map(lines -> Tried.done(tried.summary().withRefusals(lines))));
  }

  private void log(String channel, LocalDate day, String state, String detail) {
    switch (state) {
      case "done" -> LOG.info("daily close {} {}: {}", channel, day, detail);
      case "failed" -> LOG.warn("daily close {} {}: given up: {} (run scripts/paynotify reconcile --channel {}"
          + " --fetch --date {} --record when it can be fetched)", channel, day, detail, channel, day);
      default -> LOG.info("daily close {} {}: not done, tried again in {} min: {}", channel, day,
          DailyCloseSettings.RETRY.toMinutes(), detail);
    }
  }

  private static String cut(String detail) {
    return detail == null || detail.length() <= CloseProcess.DETAIL_CHARS ? detail
        : detail.substring(0, CloseProcess.DETAIL_CHARS);
  }
}
