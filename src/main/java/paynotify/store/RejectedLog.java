package paynotify.store;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Tuple;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.store.NotifyLog.Trace;

/**
 * The trace a refused request leaves. Anyone can send those, as fast as they like, so none of it
 * may cost a genuine notification anything:
 * <ul>
 *   <li>no body is kept (it may carry a buyer's data): its size, SHA-256 and a printable prefix;
 *   <li>rows go to a bounded in-memory queue, written in batches (one multi-row INSERT) on a pool
 *       of their own, one batch at a time: never on the booking pool. A full queue or a failed
 *       write drops records, counted and reported every {@code reportPeriod};
 *   <li>at most one log line per second per endpoint; the next one says how many were left out.
 * </ul>
 */
public final class RejectedLog {
  /** Records waiting to be written at most; beyond, they are dropped (and counted). */
  public static final int CAPACITY = 10_000;
  public static final Duration REPORT_PERIOD = Duration.ofSeconds(10);
  private static final int BATCH = 100;
  private static final int PREFIX_CHARS = 64;
  private static final long FLUSH_PERIOD_MS = 200;
  private static final long LINE_INTERVAL_NANOS = Duration.ofSeconds(1).toNanos();
  private static final Logger LOG = LoggerFactory.getLogger(RejectedLog.class);

  private final Vertx vertx;
  private final Database db;
  private final int capacity;
  private final BlockingQueue<Row> queue;
  private boolean writing; // guarded by this
  private Future<Void> lastWrite = Future.succeededFuture(); // guarded by this
  private final LongAdder dropped = new LongAdder();
  private final Map<String, LineLimit> lines = new ConcurrentHashMap<>();
  private final long flushTimer;
  private final long reportTimer;

  /** One row of notify_log, without the body. */
  private record Row(String endpoint, String remote, String outcome, String detail, int bodyBytes, String sha256,
      String prefix) {}

  /**
   * @param db a pool of its own (one connection is enough): a flood must never wait in, or
   *           fill, the booking pool's queue
   */
  public RejectedLog(Vertx vertx, Database db, int capacity, Duration reportPeriod) {
    this.vertx = vertx;
    this.db = db;
    this.capacity = capacity;
    this.queue = new ArrayBlockingQueue<>(capacity);
    this.flushTimer = vertx.setPeriodic(FLUSH_PERIOD_MS, id -> flush());
    this.reportTimer = vertx.setPeriodic(reportPeriod.toMillis(), id -> report(reportPeriod));
  }

  /**
   * Logs (limited) and queues the record of a refused request; returns at once.
   *
   * @param cause a bug in our parsing (logged as an error, with its stack), or null
   */
  public void record(Trace trace, String outcome, String detail, Throwable cause) {
    log(trace.endpoint(), trace.endpoint() + " notify from " + trace.remoteAddress() + " " + outcome + ": " + detail,
        cause);
    Buffer body = trace.body();
    Row row = new Row(trace.endpoint(), trace.remoteAddress(), outcome, NotifyLog.bounded(detail), body.length(),
        sha256(body), printablePrefix(body));
    if (!queue.offer(row)) {
      dropped.increment();
    } else if (queue.size() >= BATCH) {
      flush();
    }
  }

  /** At most one line per second for {@code endpoint}; the next one says how many were left out. */
  public void log(String endpoint, String line, Throwable cause) {
    int leftOut = lines.computeIfAbsent(endpoint, e -> new LineLimit()).admit(System.nanoTime());
    if (leftOut < 0) {
      return;
    }
    String text = leftOut == 0 ? line : line + " (" + leftOut + " more suppressed)";
    if (cause == null) {
      LOG.warn(text);
    } else {
      LOG.error(text, cause);
    }
  }

  /** Writes what is queued, then closes the pool. */
  public Future<Void> close() {
    vertx.cancelTimer(flushTimer);
    vertx.cancelTimer(reportTimer);
    return drain().eventually(db::close);
  }

  /** Writes what is queued now; completes once it is written (or counted as dropped). */
  public Future<Void> drain() {
    Future<Void> current;
    synchronized (this) {
      current = lastWrite;
    }
    return current.transform(done -> queue.isEmpty() ? Future.<Void>succeededFuture() : flush().compose(v -> drain()));
  }

  /** One batch at a time, on one connection: a flood waits here, in memory, not in the database. */
  private Future<Void> flush() {
    List<Row> batch = new ArrayList<>(BATCH);
    Promise<Void> written = Promise.promise();
    synchronized (this) { // record() calls this from every event loop, the timer from its own
      if (writing || queue.drainTo(batch, BATCH) == 0) {
        return lastWrite; // the write under way, which drain() waits for; or nothing to write
      }
      writing = true;
      lastWrite = written.future();
    }
    String sql = SqlQueries.INSERT_REJECTED_NOTIFY_LOG
        + String.join(", ", Collections.nCopies(batch.size(), SqlQueries.REJECTED_NOTIFY_LOG_ROW));
    Tuple params = Tuple.tuple();
    for (Row r : batch) {
      params.addString(r.endpoint()).addString(r.remote()).addString(r.outcome()).addString(r.detail())
          .addInteger(r.bodyBytes()).addString(r.sha256()).addString(r.prefix());
    }
    db.inTransaction(conn -> conn.preparedQuery(sql).execute(params)).onComplete(done -> {
      if (done.failed()) {
        dropped.add(batch.size()); // reported by report()
        LOG.debug("rejected requests not recorded: {}", done.cause().getMessage());
      }
      synchronized (this) {
        writing = false;
      }
      written.complete();
      if (queue.size() >= BATCH) {
        flush();
      }
    });
    return written.future();
  }

  private void report(Duration period) {
    long lost = dropped.sumThenReset();
    if (lost > 0) {
      LOG.warn("notify_log: {} rejected request(s) not recorded in the last {} s (queue of {} full, or the database"
          + " failed)", lost, period.toSeconds(), capacity);
    }
    long now = System.nanoTime();
    lines.forEach((endpoint, limit) -> {
      int leftOut = limit.takeLeftOut(now);
      if (leftOut > 0) {
        LOG.warn("{}: {} more refused request(s) not logged", endpoint, leftOut);
      }
    });
  }

  private static String sha256(Buffer body) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body.getBytes()));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }

  /** The first bytes as printable ASCII, anything else as '?': safe in a terminal and in a log. */
  private static String printablePrefix(Buffer body) {
    char[] prefix = new char[Math.min(body.length(), PREFIX_CHARS)];
    for (int i = 0; i < prefix.length; i++) {
      byte b = body.getByte(i);
      prefix[i] = b >= 0x20 && b < 0x7F ? (char) b : '?';
    }
    return new String(prefix);
  }

  /** One line per second for one endpoint, and how many were left out since the last one. */
  private static final class LineLimit {
    private boolean logged;
    private long lastLine;
    private int leftOut;

    /** -1: leave this line out; otherwise how many were left out before it. */
    synchronized int admit(long now) {
      if (logged && now - lastLine < LINE_INTERVAL_NANOS) {
        leftOut++;
        return -1;
      }
      logged = true;
      lastLine = now;
      int before = leftOut;
      leftOut = 0;
      return before;
    }

    /** The lines left out, once the second they belong to is over (the flood has stopped). */
    synchronized int takeLeftOut(long now) {
      if (now - lastLine < LINE_INTERVAL_NANOS) {
        return 0;
      }
      int n = leftOut;
      leftOut = 0;
      return n;
    }
  }
}
