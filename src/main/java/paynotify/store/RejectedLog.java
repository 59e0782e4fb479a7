package paynotify.store;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
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
 *   <li>rows go to a queue of their own ({@link NotifyLog}, bounded, written in batches off the
 *       booking pool): a flood fills and drops only its own, counted and reported;
 *   <li>at most {@code rowsPerSecond} rows per second per endpoint: a flood would otherwise fill the
 *       site's database disk (a forged POST costs microseconds, its row ~400 B). The rest are only
 *       counted ({@link #unrecorded}): the sample says what the flood is, the count how large;
 *   <li>at most one log line per second per endpoint; the next one says how many were left out.
 * </ul>
 */
public final class RejectedLog {
  private static final int PREFIX_CHARS = 64;
  private static final long ONE_SECOND_NANOS = Duration.ofSeconds(1).toNanos();
  private static final Logger LOG = LoggerFactory.getLogger(RejectedLog.class);

  private final Vertx vertx;
  private final NotifyLog rows;
  private final Map<String, LineLimit> lines = new ConcurrentHashMap<>();
  private final Map<String, RowSample> samples = new ConcurrentHashMap<>();
  private final int rowsPerSecond;
  private final long reportTimer;

  /**
   * @param db            a pool that is not the booking pool (one connection is enough): a flood must
   *                      never wait in, or fill, the booking pool's queue; not closed here
   * @param rowsPerSecond rows written per endpoint and second at most ({@code retention.rejected_rows_per_second})
   */
  public RejectedLog(Vertx vertx, Database db, int capacity, int rowsPerSecond, Duration reportPeriod) {
    this.vertx = vertx;
    this.rowsPerSecond = rowsPerSecond;
    this.rows = new NotifyLog(vertx, db, "rejected request(s)", capacity, NotifyLog.MAX_QUEUED_BYTES, reportPeriod);
    this.reportTimer = vertx.setPeriodic(reportPeriod.toMillis(), id -> reportLeftOut());
  }

  /**
   * Logs (limited) and queues the record of a refused request, or only counts it when this
   * endpoint's rows of this second are written already; returns at once.
   *
   * @param cause a bug in our parsing (logged as an error, with its stack), or null
   */
  public void record(Trace trace, String outcome, String detail, Throwable cause) {
    log(trace.endpoint(), trace.endpoint() + " notify from " + trace.remoteAddress() + " " + outcome + ": " + detail,
        cause);
    if (!samples.computeIfAbsent(trace.endpoint(), e -> new RowSample()).admit(System.nanoTime(), rowsPerSecond)) {
      return;
    }
    Buffer body = trace.body();
    rows.offer(new NotifyLog.Line(trace.endpoint(), trace.remoteAddress(), outcome, null, NotifyLog.bounded(detail),
        body.length(), null, sha256(body), printablePrefix(body)));
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

  /** Writes what is queued (the pool stays open: it is the caller's). */
  public Future<Void> close() {
    vertx.cancelTimer(reportTimer);
    return rows.close();
  }

  /** Writes what is queued now; completes once it is written (or counted as dropped). */
  public Future<Void> drain() {
    return rows.drain();
  }

  /** Rows dropped since the start: a full queue, or a write that failed. */
  public long droppedTotal() {
    return rows.droppedTotal();
  }

  /** Refused requests of {@code endpoint} counted but not written since the start (over the rows per second). */
  public long unrecorded(String endpoint) {
    RowSample sample = samples.get(endpoint);
    return sample == null ? 0 : sample.unrecorded.sum();
  }

  /** The same, over every endpoint. */
  public long unrecordedTotal() {
    return samples.values().stream().mapToLong(s -> s.unrecorded.sum()).sum();
  }

  private void reportLeftOut() {
    long now = System.nanoTime();
    lines.forEach((endpoint, limit) -> {
      int leftOut = limit.takeLeftOut(now);
      if (leftOut > 0) {
        LOG.warn("{}: {} more refused request(s) not logged", endpoint, leftOut);
      }
    });
    samples.forEach((endpoint, sample) -> {
      long counted = sample.takeUnreported();
      if (counted > 0) {
        LOG.warn("{}: {} refused request(s) counted, not written to notify_log (over"
            + " retention.rejected_rows_per_second = {})", endpoint, counted, rowsPerSecond);
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

  /** The rows of one endpoint written in the current second, and those only counted since the start. */
  private static final class RowSample {
    private final LongAdder unrecorded = new LongAdder();
    private long reported;
    private long second;
    private int written;

    /** Whether this row is written; otherwise it is counted. */
    synchronized boolean admit(long now, int perSecond) {
      if (written == 0 || now - second >= ONE_SECOND_NANOS) {
        second = now;
        written = 0;
      }
      if (written < perSecond) {
        written++;
        return true;
      }
      unrecorded.increment();
      return false;
    }

    /** Those counted since the last report. */
    synchronized long takeUnreported() {
      long total = unrecorded.sum();
      long since = total - reported;
      reported = total;
      return since;
    }
  }

  /** One line per second for one endpoint, and how many were left out since the last one. */
  private static final class LineLimit {
    private boolean logged;
    private long lastLine;
    private int leftOut;

    /** -1: leave this line out; otherwise how many were left out before it. */
    synchronized int admit(long now) {
      if (logged && now - lastLine < ONE_SECOND_NANOS) {
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
      if (now - lastLine < ONE_SECOND_NANOS) {
        return 0;
      }
      int n = leftOut;
      leftOut = 0;
      return n;
    }
  }
}
