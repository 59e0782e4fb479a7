package paynotify.alert;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.channel.PlatformTime;
import paynotify.timer.Periodic;

/**
 * Hands alerts to every target, never holding up what raised them: {@link #raise} only queues, on a context of
 * its own. One message per kind per {@code min_interval}: the first waits {@link #GATHER} for the rest of its burst
 * and goes saying how many came with it ("and 19 more since 10:02"), the ones after it in the interval are folded
 * into one at its end that says how many; in the quiet hours everything is folded until they end. Each target has
 * its queue (bounded: past it an alert is dropped and logged) and sends one message at a time, tried three times,
 * then logged: a target that is down costs a log line, nothing else.
 */
public final class Alerts {
  private static final Logger LOG = LoggerFactory.getLogger(Alerts.class);
  /** Messages waiting per target: a target down for hours holds no more than this. */
  static final int MAX_QUEUED = 50;
  /** After the first try: the waits before the second and the third. */
  private static final List<Duration> RETRIES = List.of(Duration.ofSeconds(10), Duration.ofSeconds(60));
  /** How long the first of a kind waits for the rest of its burst: twenty unknown orders at once are one message. */
  static final Duration GATHER = Duration.ofSeconds(5);
  /** How often folded messages are looked at: a burst goes within a second of its gathering's end. */
  private static final Duration TICK = Duration.ofSeconds(1);
  private static final DateTimeFormatter HOUR_MINUTE = DateTimeFormatter.ofPattern("HH:mm");

  /**
   * @param minInterval one message per kind per this
   * @param quietFrom   the quiet hours' start (Beijing time), or null for none
   * @param quietTo     their end
   */
  public record Settings(Duration minInterval, LocalTime quietFrom, LocalTime quietTo) {}

  /** A kind's interval: until when it is open, what was folded into it. */
  private static final class Window {
    Instant until;
    int folded;
    Instant firstFolded;
    Alert last;
  }

  private final Vertx vertx;
  private final Context context;
  private final List<AlertTarget> targets;
  private final Settings settings;
  private final AlertTexts texts;
  private final Clock clock;
  private final Map<String, Window> windows = new LinkedHashMap<>();
  private final Map<AlertTarget, Deque<Alert>> queues = new HashMap<>();
  private final Map<AlertTarget, Boolean> sending = new HashMap<>();
  private final List<Duration> retries;
  private final Periodic timer;

  public Alerts(Vertx vertx, List<AlertTarget> targets, Settings settings, AlertTexts texts, Clock clock) {
    this(vertx, targets, settings, texts, clock, RETRIES);
  }

  /** @param retries the waits before each try after the first */
  Alerts(Vertx vertx, List<AlertTarget> targets, Settings settings, AlertTexts texts, Clock clock,
      List<Duration> retries) {
    this.retries = List.copyOf(retries);
    this.vertx = vertx;
    this.context = vertx.getOrCreateContext();
    this.targets = List.copyOf(targets);
    this.settings = settings;
    this.texts = texts;
    this.clock = clock;
    for (AlertTarget t : targets) {
      queues.put(t, new ArrayDeque<>());
      sending.put(t, false);
    }
    this.timer = Periodic.every(vertx, TICK, () -> { // the fold handed to the alerts' context: nothing to wait for
      flush(clock.instant());
      return Future.succeededFuture();
    });
  }

  /** The language alerts are written in. */
  public AlertTexts texts() {
    return texts;
  }

  /** The message {@code paynotify alerts test} sends. */
  public Alert test() {
    return new AlertMessages(texts).test();
  }

  /** Queues {@code alert}, throttled with its kind; returns at once, whatever the targets do. */
  public void raise(Alert alert) {
    context.runOnContext(v -> throttle(alert, clock.instant()));
  }

  /**
   * Sends {@code alert} to every target now, past the throttle and the quiet hours ({@code paynotify alerts
   * test}): by target's name, null when it was delivered, else why not.
   */
  public Future<Map<String, String>> sendNow(Alert alert) {
    Map<String, String> results = new LinkedHashMap<>();
    List<Future<Void>> sent = new ArrayList<>();
    for (AlertTarget t : targets) {
      results.put(t.name(), null);
      sent.add(t.send(alert).onFailure(err -> results.put(t.name(), err.getMessage())));
    }
    return Future.join(sent).transform(done -> Future.succeededFuture(results));
  }

  /** Stops the folding timer; what is still queued is dropped (the service is stopping). */
  public void close() {
    timer.stop();
  }

  /** As the timer does, at {@code now} (a test's clock), on the alerts' context. */
  void flush(Instant now) {
    context.runOnContext(v -> fold(now));
  }

  /** How many messages wait for {@code target} (a test's look at the bound). */
  Future<Integer> queued(AlertTarget target) {
    Promise<Integer> size = Promise.promise();
    context.runOnContext(v -> size.complete(queues.get(target).size()));
    return size.future();
  }

  /** Every folded message whose interval ended, and the windows that are over. */
  private void fold(Instant now) {
    Iterator<Map.Entry<String, Window>> open = windows.entrySet().iterator();
    while (open.hasNext()) {
      Window w = open.next().getValue();
      if (now.isBefore(w.until) || quiet(now)) {
        continue;
      }
      if (w.folded == 0) {
        open.remove();
        continue;
      }
      enqueue(folded(w));
      w.folded = 0;
      w.firstFolded = null;
      w.until = now.plus(settings.minInterval());
    }
  }

  private void throttle(Alert alert, Instant now) {
    Window w = windows.get(alert.kind());
    if (w == null) { // the first of its kind: gathered with the rest of its burst (in the quiet hours, till they end)
      w = new Window();
      w.until = now.plus(GATHER);
      windows.put(alert.kind(), w);
    }
    w.folded++;
    w.firstFolded = w.firstFolded == null ? now : w.firstFolded;
    w.last = alert;
  }

  /** The last alert of the interval, saying how many came with it. */
  private Alert folded(Window w) {
    if (w.folded == 1) {
      return w.last;
    }
    String since = LocalDateTime.ofInstant(w.firstFolded, PlatformTime.BEIJING).format(HOUR_MINUTE);
    String more = texts.pick("另有 " + (w.folded - 1) + " 条" + texts.name(w.last.kind()) + "（自 " + since + " 起）",
        "and " + (w.folded - 1) + " more " + w.last.kind() + " since " + since);
    return w.last.with(" (+" + (w.folded - 1) + ")", "\n\n" + more);
  }

  private boolean quiet(Instant now) {
    if (settings.quietFrom() == null) {
      return false;
    }
    LocalTime t = LocalDateTime.ofInstant(now, PlatformTime.BEIJING).toLocalTime();
    LocalTime from = settings.quietFrom();
    LocalTime to = settings.quietTo();
    return from.isBefore(to) ? !t.isBefore(from) && t.isBefore(to) : !t.isBefore(from) || t.isBefore(to);
  }

  private void enqueue(Alert alert) {
    for (AlertTarget t : targets) {
      Deque<Alert> queue = queues.get(t);
      if (queue.size() >= MAX_QUEUED) {
        LOG.warn("alert to {} dropped, {} already wait (is it down?): {}", t.name(), MAX_QUEUED, alert.title());
        continue;
      }
      queue.add(alert);
      pump(t);
    }
  }

  /** The target's next message, once the one before it is done. */
  private void pump(AlertTarget t) {
    if (sending.get(t) || queues.get(t).isEmpty()) {
      return;
    }
    sending.put(t, true);
    Alert alert = queues.get(t).poll();
    deliver(t, alert, 0).onComplete(done -> {
      sending.put(t, false);
      pump(t);
    });
  }

  private Future<Void> deliver(AlertTarget t, Alert alert, int retry) {
    Future<Void> sent;
    try {
      sent = t.send(alert);
    } catch (RuntimeException e) { // a target's bug must not leave it "sending" for ever
      sent = Future.failedFuture(e);
    }
    return sent.recover(err -> {
      if (retry >= retries.size()) {
        LOG.warn("alert to {} not sent after {} tries: {} ({})", t.name(), retry + 1, err.getMessage(), alert.title());
        return Future.succeededFuture();
      }
      return vertx.timer(retries.get(retry).toMillis()).compose(v -> deliver(t, alert, retry + 1));
    });
  }
}
