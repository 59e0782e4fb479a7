package paynotify.store;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The trace every request leaves: one notify_log row with its outcome. It is what happened, for a
 * human; what a booking's guarantee rests on is in idempotent_keys, payments, refunds and the site's
 * orders, all written in the booking's own transaction. So the rows leave that transaction:
 * <ul>
 *   <li>they are queued after the booking committed (or failed), in memory, bounded in rows and in
 *       body bytes, and written in batches (one multi-row INSERT), one batch at a time, on a
 *       connection that is not the booking pool's: a booking never waits for its log line;
 *   <li>a crash loses the lines still queued (at most {@link #FLUSH_PERIOD_MS} ms' worth, or one
 *       batch being written); a full queue or a failed write drops lines, counted and reported
 *       every {@code reportPeriod}. Nothing else is lost with them.
 * </ul>
 * Lines are written in the order they were queued; received_at is the time of the write, at most
 * a flush period after the reply.
 */
public final class NotifyLog {
  /** Bodies are kept up to this size; body_bytes keeps the full length. */
  public static final int MAX_STORED_BODY = 16 * 1024;
  public static final Duration REPORT_PERIOD = Duration.ofSeconds(10);
  /** Rows queued at most, and their bodies' bytes at most; beyond either, lines are dropped (and counted). */
  public static final int CAPACITY = 10_000;
  public static final long MAX_QUEUED_BYTES = 4L * 1024 * 1024;
  static final int BATCH = 100;
  /** Outcome.IGNORED's code (store does not depend on booking). */
  private static final String IGNORED = "ignored";
  static final long FLUSH_PERIOD_MS = 200;
  private static final Logger LOG = LoggerFactory.getLogger(NotifyLog.class);

  /**
   * Where a notification came from and what it carried.
   *
   * @param endpoint the path it came in by ({@code alipay}, {@code wechat_v2}, ...): notify_log.channel
   *                 holds this, payments and refunds the platform
   */
  public record Trace(String endpoint, String remoteAddress, Buffer body) {}

  /**
   * One row: a verified notification keeps (the start of) its body, a refused request only its
   * size, hash and printable prefix.
   */
  record Line(String endpoint, String remote, String outcome, String idemKey, String detail, int bodyBytes,
      Buffer rawBody, String sha256, String prefix) {
    /** What it holds in memory, roughly: its body and its detail. */
    int size() {
      return (rawBody == null ? 0 : rawBody.length()) + (detail == null ? 0 : detail.length());
    }
  }

  private final Vertx vertx;
  private final Database db;
  private final String what;
  private final int capacity;
  private final long maxQueuedBytes;
  private final BlockingQueue<Line> queue;
  private final AtomicLong queuedBytes = new AtomicLong();
  private final LongAdder dropped = new LongAdder(); // since the last report
  private final LongAdder droppedTotal = new LongAdder();
  private boolean writing; // guarded by this
  private volatile boolean closing; // then a failed write drops the rest: the database is not coming back in time
  private final Duration reportPeriod;
  private Future<Void> lastWrite = Future.succeededFuture(); // guarded by this
  private final long flushTimer;
  private final long reportTimer;

  /**
   * @param db   a pool that is not the booking pool (one connection is enough); not closed here
   * @param what what a line stands for, in the drop report ("notification(s)")
   */
  public NotifyLog(Vertx vertx, Database db, String what, int capacity, long maxQueuedBytes, Duration reportPeriod) {
    this.vertx = vertx;
    this.db = db;
    this.what = what;
    this.capacity = capacity;
    this.maxQueuedBytes = maxQueuedBytes;
    this.queue = new ArrayBlockingQueue<>(capacity);
    this.reportPeriod = reportPeriod;
    this.flushTimer = vertx.setPeriodic(FLUSH_PERIOD_MS, id -> flush());
    this.reportTimer = vertx.setPeriodic(reportPeriod.toMillis(), id -> report(reportPeriod));
  }

  /**
   * Queues the row of a verified notification, with (the start of) its body; returns at once. An
   * ignored one keeps none: it booked nothing, and every buyer holds a signed message that is one
   * (Alipay's return-URL parameters), replayable at will.
   */
  public void record(Trace trace, String outcome, String idemKey, String detail) {
    Buffer body = trace.body();
    // A copy of what is kept, not a slice: the request's buffer is not held while the line waits.
    Buffer stored = outcome.equals(IGNORED) ? null : body.getBuffer(0, Math.min(body.length(), MAX_STORED_BODY));
    offer(new Line(trace.endpoint(), trace.remoteAddress(), outcome, idemKey, bounded(detail), body.length(), stored,
        null, null));
  }

  void offer(Line line) {
    if (queuedBytes.addAndGet(line.size()) > maxQueuedBytes || !queue.offer(line)) {
      queuedBytes.addAndGet(-line.size());
      drop(1);
    } else if (queue.size() >= BATCH) {
      flush();
    }
  }

  private void dropQueued() {
    List<Line> rest = new ArrayList<>();
    queue.drainTo(rest);
    rest.forEach(line -> queuedBytes.addAndGet(-line.size()));
    drop(rest.size());
  }

  private void drop(int lines) {
    dropped.add(lines);
    droppedTotal.add(lines);
  }

  /** Lines dropped since the start: a full queue, or a write that failed. */
  public long droppedTotal() {
    return droppedTotal.sum();
  }

  /** Writes what is queued now; completes once it is written (or counted as dropped). */
  public Future<Void> drain() {
    Future<Void> current;
    synchronized (this) {
      if (!writing && queue.isEmpty()) {
        return Future.succeededFuture();
      }
      current = lastWrite;
    }
    // A write under way (the timer's, perhaps) first, then what is left.
    return current.transform(done -> flush()).transform(done -> drain());
  }

  /**
   * Stops the timers, writes what is queued (after a failed write, drops the rest) and reports
   * what was dropped; the pool stays open: it is the caller's.
   */
  public Future<Void> close() {
    vertx.cancelTimer(flushTimer);
    vertx.cancelTimer(reportTimer);
    closing = true;
    return drain().onComplete(done -> report(reportPeriod));
  }

  /** One batch at a time: a flood waits here, in memory, not in the database. */
  private Future<Void> flush() {
    List<Line> batch = new ArrayList<>(BATCH);
    Promise<Void> written = Promise.promise();
    synchronized (this) { // offer() calls this from every event loop, the timer from its own
      if (writing || queue.drainTo(batch, BATCH) == 0) {
        return lastWrite; // the write under way, which drain() waits for; or nothing to write
      }
      writing = true;
      lastWrite = written.future();
    }
    String sql = SqlQueries.INSERT_NOTIFY_LOG
        + String.join(", ", Collections.nCopies(batch.size(), SqlQueries.NOTIFY_LOG_ROW));
    Tuple params = Tuple.tuple();
    long bytes = 0;
    for (Line l : batch) {
      params.addString(l.endpoint()).addString(l.remote()).addString(l.outcome()).addString(l.idemKey())
          .addString(l.detail()).addInteger(l.bodyBytes())
          .addValue(l.rawBody())
          .addString(l.sha256()).addString(l.prefix());
      bytes += l.size();
    }
    long batchBytes = bytes;
    db.inTransaction(conn -> conn.preparedQuery(sql).execute(params)).onComplete(done -> {
      queuedBytes.addAndGet(-batchBytes);
      if (done.failed()) {
        drop(batch.size()); // reported by report()
        LOG.debug("notify_log: {} row(s) not written: {}", batch.size(), done.cause().getMessage());
        if (closing) {
          dropQueued();
        }
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
      LOG.warn("notify_log: {} {} not recorded in the last {} s (queue of {} rows / {} KiB full, or the database"
          + " failed)", lost, what, period.toSeconds(), capacity, maxQueuedBytes / 1024);
    }
  }

  /** detail fits its column (500). */
  static String bounded(String detail) {
    return detail == null || detail.length() <= 500 ? detail : detail.substring(0, 497) + "...";
  }
}
