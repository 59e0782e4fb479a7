package paynotify.reconcile.daily;

import static paynotify.store.SqlQueries.ADD_DAILY_CLOSE;
import static paynotify.store.SqlQueries.DAILY_CLOSES_SINCE;
import static paynotify.store.SqlQueries.DAILY_CLOSE_TRIED;
import static paynotify.store.SqlQueries.LEASE_DAILY_CLOSE;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.channel.PlatformTime;
import paynotify.net.OutboundHttp;
import paynotify.store.Database;
import paynotify.store.LeaseOwner;
import paynotify.store.RefusalEpisode;
import paynotify.store.RefusalEpisodes;
import paynotify.store.TransientRetry;

/**
 * The daily close ({@code reconcile.daily}): from {@code at} (Beijing time), yesterday's bill of each channel is
 * fetched, reconciled and its findings recorded by {@code paynotify reconcile --fetch --record --json} (with
 * {@code --repair missing_local} when auto_repair says so), run as a process of its own: the very command an owner
 * runs by hand, so the same findings, JSON and exit codes; and the JDBC driver, the bill and the reconciliation's
 * memory stay out of the service that books payments (a 16 MiB bill in its 128 MiB heap). Its report is kept
 * beside the bill ({@code <bills_dir>/<channel>/<day>_close.json}, its errors in {@code _close.log}).
 *
 * <p>One instance closes a day: the lease in daily_closes, decided by the database. A close that does not come
 * off (the bill not made yet, the platform or the database down) is tried again every 15 minutes, and given up
 * when a try at or after noon fails too (then the status page says so, and the owner can run the command by
 * hand).
 */
public final class DailyClose {
  private static final Logger LOG = LoggerFactory.getLogger(DailyClose.class);
  /** The command, fetch included, at most; then it is stopped and tried again. */
  private static final Duration RUN_LIMIT = Duration.ofMinutes(20);
  private static final Duration LEASE = RUN_LIMIT.plusMinutes(5);
  private static final Duration TICK = Duration.ofMinutes(1);
  private static final Duration FIRST_TICK = Duration.ofSeconds(5);
  /** How far back a day the close did not finish (the service down over midnight) is still closed. */
  private static final int CATCH_UP_DAYS = 7;
  /** The command's JVM: the heap scripts/paynotify gives the tools, out of memory ending it, not hanging. */
  private static final List<String> JAVA_OPTIONS = List.of("-Xmx128m", "-XX:MaxMetaspaceSize=96m",
      "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:+ExitOnOutOfMemoryError");
  private static final int DETAIL_CHARS = 1000;
  private static final DateTimeFormatter HMS = DateTimeFormatter.ofPattern("HH:mm:ss");

  private final Vertx vertx;
  private final Database db;
  private final DailyCloseSettings settings;
  private final Path billsDir;
  private final Clock clock;
  private final String owner;
  private final TransientRetry retry;
  private final RefusalEpisodes refusals;
  /** The channels whose close of {@link #overDay} is over (done or given up): the minute's tick asks nothing. */
  private final Set<String> over = ConcurrentHashMap.newKeySet();
  private volatile LocalDate overDay;
  private volatile Process running;
  private volatile Long timer;
  private volatile boolean stopping;
  private boolean closing;

  /**
   * @param db       a pool of the service's: a few short statements a day, none held while the command runs
   * @param billsDir reconcile.bills_dir, where the command keeps the bill and this its report
   */
  public DailyClose(Vertx vertx, Database db, DailyCloseSettings settings, Path billsDir, Clock clock) {
    this.vertx = vertx;
    this.db = db;
    this.settings = settings;
    this.billsDir = billsDir.toAbsolutePath();
    this.clock = clock;
    this.owner = LeaseOwner.next();
    this.retry = new TransientRetry(vertx, 3);
    this.refusals = new RefusalEpisodes(vertx, db);
  }

  /** What one channel's close came to. */
  public record Closed(String channel, LocalDate day, String state, String detail) {}

  /**
   * Looks for a close due soon after the start (a service down at the hour closes the day when it is back),
   * then every minute; a close still running when the next is due is not overlapped.
   */
  public void schedule() {
    LOG.info("daily close: {} at {} (Beijing time), yesterday's bill{}", settings.channels(), settings.at(),
        settings.repair() ? "; auto_repair: missing_local" : "");
    timer = vertx.setPeriodic(FIRST_TICK.toMillis(), TICK.toMillis(), id -> {
      if (closing) {
        return;
      }
      closing = true;
      runOnce(clock.instant()).onComplete(done -> {
        closing = false;
        if (done.failed()) {
          LOG.warn("daily close: not tried now (the database?), looked at again in a minute: {}",
              done.cause().getMessage());
        }
      });
    });
  }

  /** No more looking by the clock: closes run when {@link #runOnce} is called (a test's clock). */
  public void unschedule() {
    if (timer != null) {
      vertx.cancelTimer(timer);
    }
  }

  /**
   * No more looking, and a command that is running is stopped (the service is stopping): nothing is recorded of
   * it, and its day is tried again once the lease ends.
   */
  public void stop() {
    stopping = true;
    unschedule();
    Process p = running;
    if (p != null) {
      p.destroy();
    }
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
    for (String channel : settings.channels()) {
      if (!over.contains(channel)) {
        all = all.compose(v -> unfinished(channel, yesterday)).compose(days -> {
          Future<Void> each = Future.succeededFuture();
          for (LocalDate day : days) {
            each = each.compose(v -> closeIfOurs(channel, day, now)).map(c -> {
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
   * The days to close, oldest first: yesterday unless it is over (then the channel is over for the day), and
   * each day since the first the close was on for within the week that is not over.
   */
  private Future<List<LocalDate>> unfinished(String channel, LocalDate yesterday) {
    LocalDate weekAgo = yesterday.minusDays(CATCH_UP_DAYS);
    return db.inTransaction(conn -> conn.preparedQuery(DAILY_CLOSES_SINCE).execute(Tuple.of(channel, weekAgo)))
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
            over.add(channel);
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
  private Future<Closed> closeIfOurs(String channel, LocalDate day, Instant now) {
    LocalDateTime utc = LocalDateTime.ofInstant(now, ZoneOffset.UTC);
    // Two transactions, each run again if the database picks it as a deadlock's victim: two instances inserting
    // the row at one moment can meet so (CI saw it); the update then decides who holds the lease.
    return retry.run(() -> db.inTransaction(conn -> conn.preparedQuery(ADD_DAILY_CLOSE)
            .execute(Tuple.of(channel, day, utc, utc))))
        .compose(added -> retry.run(() -> db.inTransaction(conn -> conn.preparedQuery(LEASE_DAILY_CLOSE)
            .execute(Tuple.of(owner, utc.plus(LEASE), utc, channel, day, utc, utc)))))
        .compose(leased -> leased.rowCount() != 1 ? Future.succeededFuture(null) : close(channel, day)
            .compose(tried -> withRefusals(day, tried)).compose(tried -> {
          if (stopping) { // stopped, not answered: once the lease runs out the day is tried again
            return Future.succeededFuture(null);
          }
          // the last try is the one at or after noon (WeChat's "still making it" means "no trades" from then)
          boolean givenUp = !tried.done()
              && !LocalDateTime.ofInstant(now, PlatformTime.BEIJING).isBefore(settings.giveUpAt(day));
          String state = tried.done() ? "done" : givenUp ? "failed" : "pending";
          return db.inTransaction(conn -> conn.preparedQuery(DAILY_CLOSE_TRIED).execute(Tuple.of(state,
                  utc.plus(DailyCloseSettings.RETRY), cut(tried.detail()),
                  tried.summary() == null ? null : tried.summaryJson().encode(), channel, day, owner)))
              .map(written -> {
                if (written.rowCount() != 1) {
                  LOG.warn("daily close {} {}: ran past its lease, which another instance took; not recorded here:"
                      + " {}", channel, day, tried.detail());
                  return null;
                }
                log(channel, day, state, tried.detail());
                if (!state.equals("pending") && day.equals(overDay)) {
                  over.add(channel);
                }
                return new Closed(channel, day, state, tried.detail());
              });
        }));
  }

  /**
   * What one run of the command came to: done with its summary, or why not; {@code refusals}: the day's times the
   * database refused writes, a line each.
   */
  private record Tried(boolean done, String detail, CloseSummary summary, List<String> refusals) {
    Tried(boolean done, String detail, CloseSummary summary) {
      this(done, detail, summary, List.of());
    }

    JsonObject summaryJson() {
      JsonObject json = summary.toJson();
      return refusals.isEmpty() ? json : json.put("write_refusals", new JsonArray(refusals));
    }
  }

  /**
   * A day closed gets a line for each time the database refused writes that day (Beijing time), after the bill's,
   * e.g. {@code database refused writes 12:00:03-12:00:41 (disk full (1114)): 37 notifications answered failure}:
   * the notifications a platform delivers again are in the bill; the others the owner looks for. Those that cannot
   * be read leave the close as it is.
   */
  private Future<Tried> withRefusals(LocalDate day, Tried tried) {
    if (!tried.done()) {
      return Future.succeededFuture(tried);
    }
    Instant start = day.atStartOfDay(PlatformTime.BEIJING).toInstant();
    Instant end = day.plusDays(1).atStartOfDay(PlatformTime.BEIJING).toInstant();
    return refusals.endedSince(start).map(episodes -> {
      List<String> lines = episodes.stream().filter(e -> e.since().isBefore(end))
          .sorted(Comparator.comparing(RefusalEpisode::since)).map(DailyClose::refusalLine).toList();
      return lines.isEmpty() ? tried : new Tried(true, tried.detail() + lines.stream().map(l -> "\n" + l)
          .collect(Collectors.joining()), tried.summary(), lines);
    }).otherwise(err -> {
      LOG.warn("daily close {}: the day's times the database refused writes not read: {}", day, err.toString());
      return tried;
    });
  }

  static String refusalLine(RefusalEpisode e) {
    return "database refused writes " + LocalTime.ofInstant(e.since(), PlatformTime.BEIJING).format(HMS) + "-"
        + LocalTime.ofInstant(e.until(), PlatformTime.BEIJING).format(HMS) + " (" + e.reason() + "): " + e.refused()
        + (e.refused() == 1 ? " notification" : " notifications") + " answered failure";
  }

  /** One run of the command: its process and where its output goes. */
  private record Run(Process process, Path report, Path errors) {}

  /**
   * Runs {@code paynotify reconcile} for the day. No thread waits for it: the process's exit completes the
   * future; the files are touched on a worker. A run that cannot even start is a try that failed, saying why.
   */
  private Future<Tried> close(String channel, LocalDate day) {
    return vertx.executeBlocking(() -> start(channel, day), false).compose(run -> {
      running = run.process();
      AtomicBoolean late = new AtomicBoolean();
      long limit = vertx.setTimer(RUN_LIMIT.toMillis(), id -> {
        late.set(true);
        run.process().destroyForcibly();
      });
      return Future.fromCompletionStage(run.process().onExit(), vertx.getOrCreateContext())
          .compose(exited -> {
            vertx.cancelTimer(limit);
            running = null;
            return late.get() ? Future.succeededFuture(new Tried(false, "reconcile did not finish within "
                + RUN_LIMIT.toMinutes() + " min: stopped", null))
                : vertx.executeBlocking(() -> result(run, exited.exitValue()), false);
          });
    }).recover(err -> Future.succeededFuture(new Tried(false, "not closed: " + err, null)));
  }

  private Run start(String channel, LocalDate day) throws IOException {
    Path folder = Files.createDirectories(billsDir.resolve(channel));
    Path report = ownersOnly(folder.resolve(day + "_close.json"));
    Path errors = ownersOnly(folder.resolve(day + "_close.log"));
    Process process = new ProcessBuilder(command(channel, day))
        .redirectOutput(report.toFile()).redirectError(errors.toFile()).start();
    return new Run(process, report, errors);
  }

  /** The file, new and readable by the service's user only (as the bills beside it): it names orders and trades. */
  private static Path ownersOnly(Path file) throws IOException {
    Files.deleteIfExists(file);
    return file.getFileSystem().supportedFileAttributeViews().contains("posix")
        ? Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))
        : Files.createFile(file);
  }

  private static Tried result(Run run, int exit) throws IOException {
    if (exit == 0 || exit == 1) { // clean, or findings (recorded)
      CloseSummary summary = CloseSummary.read(run.report());
      return new Tried(true, summary.line(), summary);
    }
    return new Tried(false, lastLine(run.errors(), exit), null);
  }

  /** {@code paynotify reconcile ...} on the JVM and class path this service runs on, with its configuration. */
  private List<String> command(String channel, LocalDate day) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(JAVA_OPTIONS);
    if (Boolean.getBoolean(OutboundHttp.TEST_LOOPBACK_HTTP)) { // the tests' stand-ins, reached by the command too
      command.add("-D" + OutboundHttp.TEST_LOOPBACK_HTTP + "=true");
    }
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), "paynotify.cli.Main", "reconcile",
        "--channel", channel, "--fetch", "--date", day.toString(), "--record", "--json"));
    if (settings.repair()) {
      command.addAll(List.of("--repair", "missing_local"));
    }
    command.addAll(List.of("--config", settings.configFile().toString()));
    return command;
  }

  /** The command's one-line reason (its last line on stderr: "paynotify: ..."), or its exit code. */
  private static String lastLine(Path errors, int exit) throws IOException {
    byte[] tail;
    try (SeekableByteChannel file = Files.newByteChannel(errors)) { // its end only: a crash may write much
      file.position(Math.max(0, file.size() - DETAIL_CHARS));
      ByteBuffer end = ByteBuffer.allocate((int) Math.min(file.size(), DETAIL_CHARS));
      while (end.hasRemaining() && file.read(end) >= 0) {
        // reads to the end
      }
      tail = Arrays.copyOf(end.array(), end.position());
    }
    String[] lines = new String(tail, StandardCharsets.UTF_8).strip().split("\n");
    String last = lines[lines.length - 1].strip().replaceFirst("^paynotify: ", "");
    return "reconcile exited " + exit + (last.isEmpty() ? "" : ": " + last);
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
    return detail == null || detail.length() <= DETAIL_CHARS ? detail : detail.substring(0, DETAIL_CHARS);
  }
}
