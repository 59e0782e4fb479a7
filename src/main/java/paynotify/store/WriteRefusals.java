package paynotify.store;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Tuple;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.channel.Platform;

/**
 * Whether the database refuses writes now ({@link DbErrors#refusal}: a full disk, read-only, no connection left, no
 * memory): what /health, the status and the owner's alerts say while bookings cannot commit. One per service,
 * told by every event loop's requests ({@link #refused}, {@link #succeeded}: in memory, no statement).
 *
 * <p>One refusal is a suspicion, not an outage (one statement may hit a table's limit, a write may race a
 * failover). It is confirmed by a second refusal within {@link Timing#confirmWithin} of the first, whatever
 * committed between (on a full disk a small write may still fit in a page), or by a probe write refused: the first
 * refusal asks for one {@link Timing#probeAfter} later. Under load the second refusal comes within milliseconds; on a
 * quiet shop the platform's retry (Alipay's after 4 and 10 minutes) is the second, hence 10 minutes.
 * Confirmed, the episode is open: {@link #refusing()} says since when and why. While it lasts a probe runs every
 * {@link Timing#probeEvery} (one at a time); it closes (/health 200 again) once nothing was refused for
 * {@link Timing#closeAfter} and a write committed since (a booking or a probe), and is over after
 * {@link Timing#overAfter} without a refusal: then the owner is told and the ended episode handed on. A refusal while
 * it closes reopens it: one episode, told once. A full disk is judged apart: the probe's row may fit where a booking's
 * index pages do not, so a probe says little. Its episode closes on a booking (or anomaly) committed since the last
 * refused one, or on {@value #PROBES_THAT_CLOSE} probes written in a row (without them a backend its load balancer
 * dropped for the 503, or a quiet shop, would get no traffic to close it with); it is over only once a booking
 * committed after the last refused one: nothing else proves the bookings fit. A refused probe no longer counts once a
 * booking committed after the last refused booking: the bookings say more than the probe.
 *
 * <p>Each episode keeps the order numbers of the notifications it refused from platforms that never deliver again
 * ({@link Platform#retries()}: epusdt, V免签), those lost to a dead server meanwhile too, each once, the first
 * {@link RefusalEpisode#LOST_ORDERS_KEPT}: the orders the owner must look at. The booking path pays nothing for it:
 * only a refused notification is looked at.
 */
public final class WriteRefusals {
  private static final Logger LOG = LoggerFactory.getLogger(WriteRefusals.class);
  /**
   * The probe's body: more than fits beside other rows, so that InnoDB wants new pages for it (an off-page BLOB) and,
   * refused, it shows the disk full (1114) or the server read-only (1290). Taken, it shows only that notify_log found
   * room: a booking's idempotent_keys and payments pages may still find none (hence it ends no disk-full episode).
   */
  private static final int PROBE_BYTES = 60_000;
  /** Probes written in a row that close a full disk's episode without traffic (one may be luck: a page freed). */
  static final int PROBES_THAT_CLOSE = 3;

  /**
   * How refusals become an episode and how it ends (tests give shorter ones).
   *
   * @param confirmWithin a second refusal within this of the first confirms it
   * @param probeAfter    the first refusal's probe runs this much later
   * @param probeEvery    while the episode lasts, a probe this often
   * @param closeAfter    no refusal for this long, and a write committed: /health 200 again
   * @param overAfter     no refusal for this long: the episode is over and told
   * @param tick          how often the times above are looked at
   */
  public record Timing(Duration confirmWithin, Duration probeAfter, Duration probeEvery, Duration closeAfter,
      Duration overAfter, Duration tick) {
    public static final Timing DEFAULT = new Timing(Duration.ofMinutes(10), Duration.ofSeconds(1),
        Duration.ofSeconds(2), Duration.ofSeconds(5), Duration.ofSeconds(20), Duration.ofMillis(250));
  }

  /**
   * The open episode as it stands.
   *
   * @param reason            the first refusal's, e.g. {@code disk full (1114)}
   * @param since             the first refusal
   * @param refused           notifications answered failure because of it so far
   * @param refusedByEndpoint those by endpoint
   */
  public record Refusing(String reason, Instant since, long refused, Map<String, Long> refusedByEndpoint) {}

  private enum State { CLEAR, SUSPECTED, OPEN, CLOSING }

  /** A notification answered failure: counted by endpoint, its order kept when its platform never delivers again. */
  private record Lost(String endpoint, Platform platform, String orderNo) {}

  private final Vertx vertx;
  private final Supplier<Future<Void>> probe;
  private final Timing timing;
  private final Clock clock;
  private final Consumer<Refusing> opened;
  private final Consumer<RefusalEpisode> writesAgain;
  private final Consumer<RefusalEpisode> ended;
  // Guarded by this; state is read without the lock by succeeded(), the booking path's one look.
  private volatile State state = State.CLEAR;
  private String reason;
  private Instant since;
  private Instant lastRefused; // a booking's or a probe's
  private Instant lastBookingRefused;
  private Instant lastWritten; // a write that may close the episode: a booking, or (not on a full disk) a probe
  private Instant lastBooked;
  private int probesWritten; // in a row, since the last refusal
  private Instant nextProbe;
  private boolean probing;
  private boolean stopped;
  private long refused;
  private final Map<String, Long> byEndpoint = new LinkedHashMap<>();
  private final Set<String> lostOrders = new LinkedHashSet<>(); // the first LOST_ORDERS_KEPT
  private Long timer;

  /**
   * @param db     the booking pool: the probe writes where the bookings do
   * @param opened      told once an episode is confirmed (the owner's alert)
   * @param writesAgain told once an episode is over because the database writes again (the owner's alert)
   * @param ended       told of every ended episode, over or cut short by {@link #stop} (where it is kept)
   */
  public WriteRefusals(Vertx vertx, Database db, Timing timing, Clock clock, Consumer<Refusing> opened,
      Consumer<RefusalEpisode> writesAgain, Consumer<RefusalEpisode> ended) {
    this(vertx, () -> probeWrite(db), timing, clock, opened, writesAgain, ended);
  }

  WriteRefusals(Vertx vertx, Supplier<Future<Void>> probe, Timing timing, Clock clock, Consumer<Refusing> opened,
      Consumer<RefusalEpisode> writesAgain, Consumer<RefusalEpisode> ended) {
    this.vertx = vertx;
    this.probe = probe;
    this.timing = timing;
    this.clock = clock;
    this.opened = opened;
    this.writesAgain = writesAgain;
    this.ended = ended;
  }

  /**
   * A write that needs new space, rolled back: no row is ever seen (only an AUTO_INCREMENT id is spent). The empty
   * transaction after the ROLLBACK commits nothing.
   */
  private static Future<Void> probeWrite(Database db) {
    return db.inTransaction(conn -> conn.preparedQuery(SqlQueries.WRITE_PROBE)
            .execute(Tuple.of(PROBE_BYTES, Buffer.buffer(new byte[PROBE_BYTES])))
            .compose(inserted -> conn.query("ROLLBACK").execute()))
        .mapEmpty();
  }

  /**
   * A verified notification of {@code endpoint} answered failure because of {@code err}; nothing happens when it is
   * no refusal.
   *
   * @param platform whose notification it was: one that never delivers again has its order kept
   * @param orderNo  the site's order it names, null when it names none (or it is not known)
   */
  public void refused(String endpoint, Platform platform, String orderNo, Throwable err) {
    String why = DbErrors.refusal(err);
    Lost lost = new Lost(endpoint, platform, orderNo);
    if (why == null) {
      if (state != State.CLEAR && DbErrors.isUnreachable(err)) {
        unreachable(lost);
      }
      return;
    }
    List<Runnable> then;
    synchronized (this) {
      if (stopped) {
        return; // the service stops: no probe, no timer on a closing pool
      }
      then = refusedNow(why, lost, clock.instant());
    }
    then.forEach(Runnable::run);
  }

  /**
   * A notification lost to a database that died or cannot be reached while it refused writes (MariaDB aborts on a
   * full disk): counted in the episode, whose window the owner is sent to look at, and the episode is not over while
   * it lasts. It confirms nothing by itself.
   */
  private void unreachable(Lost lost) {
    synchronized (this) {
      if (stopped || state == State.CLEAR) {
        return;
      }
      count(lost);
      probesWritten = 0;
      if (state != State.SUSPECTED) {
        lastBookingRefused = clock.instant();
        lastRefused = lastBookingRefused;
        state = State.OPEN;
      }
    }
  }

  /** A booking committed: the database writes (an in-memory look while there is no refusal to weigh). */
  public void succeeded() {
    if (state == State.CLEAR) {
      return;
    }
    synchronized (this) {
      lastWritten = clock.instant();
      lastBooked = lastWritten;
    }
  }

  /** The open episode; null while there is none (nothing refused, one refusal not confirmed, or closing). */
  public synchronized Refusing refusing() {
    return state != State.OPEN ? null : new Refusing(reason, since, refused, Map.copyOf(byEndpoint));
  }

  /**
   * Ends an episode that is open or closing, as it stands, at its last refusal (the service stops): handed on to be
   * kept, but no "writes again" alert: whether it does is not known. Refusals after it are not looked at.
   */
  public void stop() {
    RefusalEpisode episode;
    boolean open;
    synchronized (this) {
      stopped = true;
      open = state == State.OPEN;
      episode = open || state == State.CLOSING ? episode() : null;
      clear();
    }
    if (episode != null) {
      LOG.warn("paynotify stopped while the database {} writes ({}, since {}): the episode is kept as ending at its"
          + " last refusal, {}", open ? "refused" : "had just stopped refusing", episode.reason(), episode.since(),
          episode.until());
      ended.accept(episode);
    }
  }

  /**
   * A refusal at {@code now}, of a notification (null: the probe's, not counted): what to tell once the lock is
   * released. Called holding the lock.
   */
  private List<Runnable> refusedNow(String why, Lost lost, Instant now) {
    List<Runnable> then = new ArrayList<>();
    boolean fresh = state == State.CLEAR || state == State.SUSPECTED && now.isAfter(since.plus(timing.confirmWithin()));
    if (fresh) {
      suspect(why, now); // an earlier one alone stands for nothing: a suspicion of its own starts
    }
    if (lost != null) {
      lastBookingRefused = now;
    }
    count(lost);
    if (fresh) {
      return then;
    }
    probesWritten = 0;
    switch (state) {
      case SUSPECTED -> open(now, then);
      case OPEN -> lastRefused = now;
      case CLOSING -> {
        LOG.error("the database refuses writes again ({}): the episode since {} goes on", why, since);
        state = State.OPEN;
        lastRefused = now;
      }
      default -> throw new IllegalStateException("cleared above");
    }
    return then;
  }

  private void count(Lost lost) {
    if (lost != null) {
      refused++;
      byEndpoint.merge(lost.endpoint(), 1L, Long::sum);
      if (lost.orderNo() != null && lost.platform() != null && !lost.platform().retries()
          && lostOrders.size() < RefusalEpisode.LOST_ORDERS_KEPT) {
        lostOrders.add(lost.orderNo());
      }
    }
  }

  private void suspect(String why, Instant now) {
    LOG.warn("the database refused a write ({}): asking it again with a probe", why);
    forget();
    reason = why;
    since = now;
    lastRefused = now;
    nextProbe = now.plus(timing.probeAfter());
    state = State.SUSPECTED;
    if (timer == null) {
      timer = vertx.setPeriodic(timing.tick().toMillis(), id -> tick());
    }
  }

  private void open(Instant now, List<Runnable> then) {
    state = State.OPEN;
    lastRefused = now;
    Refusing r = new Refusing(reason, since, refused, Map.copyOf(byEndpoint));
    LOG.error("the database refuses writes since {} ({}): notifications are answered failure until it writes again"
        + " ({})", since, reason, whatToDo(reason));
    then.add(() -> opened.accept(r));
  }

  /** Looks at the times (the timer's work; a test's at will): the probe it started, or a completed future. */
  Future<Void> tick() {
    Instant now = clock.instant();
    RefusalEpisode over = null;
    boolean probeNow = false;
    synchronized (this) {
      switch (state) {
        case CLEAR -> {
          return Future.succeededFuture();
        }
        case SUSPECTED -> {
          if (now.isAfter(since.plus(timing.confirmWithin()))) {
            LOG.info("the database's refusal ({}) was not confirmed within {} s: one statement, not an outage",
                reason, timing.confirmWithin().toSeconds());
            clear();
            return Future.succeededFuture();
          }
        }
        case OPEN -> {
          if (quietFor(now, timing.closeAfter()) && mayClose()) {
            LOG.info("the database writes again (no refusal since {}): /health answers 200", lastRefused);
            state = State.CLOSING;
          }
        }
        case CLOSING -> {
          if (quietFor(now, timing.overAfter()) && (!diskFull(reason) || bookedSinceRefused())) {
            over = episode();
            clear();
          }
        }
      }
      if (over == null && !probing && !now.isBefore(nextProbe)) {
        probing = true;
        nextProbe = now.plus(timing.probeEvery());
        probeNow = true;
      }
    }
    if (over != null) {
      writesAgain.accept(over);
      ended.accept(over);
      return Future.succeededFuture();
    }
    return probeNow ? runProbe() : Future.succeededFuture();
  }

  private Future<Void> runProbe() {
    Future<Void> probed;
    try {
      probed = probe.get();
    } catch (RuntimeException e) {
      probed = Future.failedFuture(e);
    }
    // Until it completes, no other: a probe that hangs (a rollback waiting for a page) holds one connection, not one
    // more every probeEvery. The bookings still confirm and close the episode meanwhile.
    return probed.transform(done -> {
      String why = done.failed() ? DbErrors.refusal(done.cause()) : null;
      List<Runnable> then = List.of();
      synchronized (this) {
        probing = false;
        if (state == State.CLEAR) {
          return Future.succeededFuture();
        }
        if (done.succeeded()) {
          probesWritten++;
          if (!diskFull(reason)) {
            lastWritten = clock.instant();
          }
        } else {
          probesWritten = 0;
        }
        if (why != null) {
          if (state == State.SUSPECTED) {
            then = confirmedByProbe();
          } else if (!bookedSinceRefused()) {
            then = refusedNow(why, null, clock.instant());
          }
        }
      }
      then.forEach(Runnable::run);
      return Future.succeededFuture();
    });
  }

  /**
   * Whether a write says the database writes again: any write since the last refusal; on a full disk a booking since
   * the last refused one, or {@link #PROBES_THAT_CLOSE} probes in a row (no traffic comes to a backend its load
   * balancer dropped, nor to a quiet shop).
   */
  private boolean mayClose() {
    if (diskFull(reason)) {
      return bookedSinceRefused() || probesWritten >= PROBES_THAT_CLOSE;
    }
    return lastWritten != null && lastWritten.isAfter(lastRefused);
  }

  private boolean bookedSinceRefused() {
    return lastBooked != null && lastBooked.isAfter(lastBookingRefused);
  }

  private static boolean diskFull(String reason) {
    return reason.startsWith("disk full");
  }

  private List<Runnable> confirmedByProbe() {
    List<Runnable> then = new ArrayList<>();
    open(clock.instant(), then);
    return then;
  }

  private boolean quietFor(Instant now, Duration quiet) {
    return !now.isBefore(lastRefused.plus(quiet));
  }

  /** Nothing of an earlier episode or suspicion kept: its times, counts and orders. */
  private void forget() {
    reason = null;
    since = null;
    lastRefused = null;
    lastBookingRefused = null;
    lastWritten = null;
    lastBooked = null;
    probesWritten = 0;
    refused = 0;
    byEndpoint.clear();
    lostOrders.clear();
  }

  private RefusalEpisode episode() {
    return new RefusalEpisode(reason, since, lastRefused, refused, Map.copyOf(byEndpoint), List.copyOf(lostOrders));
  }

  private void clear() {
    state = State.CLEAR;
    forget();
    if (timer != null) {
      vertx.cancelTimer(timer);
      timer = null;
    }
  }

  /** What the owner does about {@code reason} ({@link DbErrors#refusal}'s), in English: the status's words. */
  public static String whatToDo(String reason) {
    if (reason == null) {
      return "see docs/operations.md, The database refuses writes";
    }
    if (diskFull(reason)) {
      return "free disk space on the database server (df -h: binary logs, old backups, the general log)";
    }
    if (reason.equals("read-only (1836)")) {
      return "MariaDB runs with innodb_read_only: restart it without that option";
    }
    if (reason.equals("read-only (1792)")) {
      return "SET GLOBAL transaction_read_only=OFF on the database (tx_read_only before MariaDB 11.1), and take it"
          + " out of its configuration";
    }
    if (reason.startsWith("read-only")) {
      return "if SHOW REPLICA STATUS is empty (this server is the primary): SET GLOBAL read_only=OFF; otherwise point"
          + " database.host at the primary";
    }
    if (reason.startsWith("too many connections")) {
      return "raise the database's max_connections, or find what holds its connections (SHOW PROCESSLIST)";
    }
    if (reason.startsWith("out of memory")) {
      return "free memory on the database server (or lower innodb_buffer_pool_size), restart it if it stays so";
    }
    return whatToDo(null);
  }
}
