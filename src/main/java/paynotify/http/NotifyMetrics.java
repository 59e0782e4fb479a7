package paynotify.http;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongBiFunction;

/**
 * What the notify endpoints count for /metrics: {@code paynotify_notifications_total{channel,
 * outcome}} and {@code paynotify_booking_seconds{channel}} (a histogram). Labels are the endpoint and
 * the outcome only, never an order or a trade (a series per order would swamp Prometheus).
 */
public final class NotifyMetrics {
  /** Metrics off (admin.port 0): nothing counted. */
  public static final NotifyMetrics OFF = new NotifyMetrics(null, List.of());
  static final List<String> OUTCOMES =
      List.of("processed", "duplicate", "conflict", "anomaly", "ignored", "rejected", "error");
  private static final Duration[] BUCKETS = {Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25),
      Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500),
      Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10)};

  private final MeterRegistry registry;
  // Looked up by the notify path without building a meter per request: endpoint -> outcome -> counter.
  private final Map<String, Map<String, Counter>> counters = new HashMap<>();
  private final Map<String, Timer> timers = new HashMap<>();

  /** @param endpoints registered at 0 for every outcome, so that a rate over them exists from the start */
  public NotifyMetrics(MeterRegistry registry, List<String> endpoints) {
    this.registry = registry;
    if (registry != null) {
      for (String endpoint : endpoints) {
        Map<String, Counter> byOutcome = new HashMap<>();
        OUTCOMES.forEach(outcome -> byOutcome.put(outcome, counter(endpoint, outcome)));
        counters.put(endpoint, byOutcome);
        timers.put(endpoint, timer(endpoint));
      }
    }
  }

  /** One request to {@code endpoint} ended with {@code outcome}. */
  void count(String endpoint, String outcome) {
    Map<String, Counter> byOutcome = counters.get(endpoint);
    if (byOutcome != null) {
      byOutcome.get(outcome).increment();
    }
  }

  /** A booking of {@code endpoint} took {@code nanos}, whatever came of it. */
  void booked(String endpoint, long nanos) {
    Timer timer = timers.get(endpoint);
    if (timer != null) {
      timer.record(nanos, TimeUnit.NANOSECONDS);
    }
  }

  /**
   * {@code paynotify_notify_log_dropped_total{log}}: rows of {@code log} not written, as {@code dropped}
   * reads them from {@code source} (held by the service: the meter keeps only a weak reference).
   */
  public <T> void countLogDrops(String log, T source, ToDoubleFunction<T> dropped) {
    if (registry != null) {
      FunctionCounter.builder("paynotify.notify_log.dropped", source, dropped)
          .description("notify_log rows not written (their queue was full, or the database failed)").tag("log", log)
          .register(registry);
    }
  }

  /**
   * {@code paynotify_rejected_unrecorded_total{channel}}: refused requests counted but not written to
   * notify_log (over retention.rejected_rows_per_second), as {@code unrecorded} reads them per endpoint.
   */
  public <T> void countUnrecorded(T source, ToLongBiFunction<T, String> unrecorded) {
    if (registry != null) {
      for (String endpoint : counters.keySet()) {
        FunctionCounter.builder("paynotify.rejected.unrecorded", source, s -> unrecorded.applyAsLong(s, endpoint))
            .description("refused requests counted, not written to notify_log (over its rows per second)")
            .tag("channel", endpoint).register(registry);
      }
    }
  }

  private Counter counter(String endpoint, String outcome) {
    return Counter.builder("paynotify.notifications").description("notifications received, by what became of them")
        .tag("channel", endpoint).tag("outcome", outcome).register(registry);
  }

  private Timer timer(String endpoint) {
    return Timer.builder("paynotify.booking").description("time to book a verified notification (until COMMIT)")
        .tag("channel", endpoint).serviceLevelObjectives(BUCKETS).register(registry);
  }
}
