package paynotify.admin;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import paynotify.forward.ForwardRelay.EndpointBacklog;
import paynotify.forward.ForwardRelay;
import paynotify.store.Database;
import paynotify.store.SqlQueries;

/**
 * Gauges whose values live in the database: {@code paynotify_anomalies_open} and, with forwarding, for each
 * endpoint {@code paynotify_forward_events{endpoint,state}} and {@code paynotify_forward_endpoint_disabled{endpoint}}
 * (1 while a 410 or answers 4xx in a row keep it disabled). Read when scraped, at most every few seconds (several
 * Prometheus servers, or a dashboard refreshing, cost one query).
 */
public final class DatabaseGauges {
  private static final long CACHE_MS = 5_000;

  private final Database db;
  private final ForwardRelay relay;
  private final AtomicLong anomaliesOpen = new AtomicLong();
  /** Each configured endpoint's pending, failed and disabled (0 or 1). */
  private final Map<String, AtomicLong[]> endpoints = new HashMap<>();
  private final CachedRead<Void> read = new CachedRead<>(CACHE_MS, this::read);

  /**
   * @param db    the status pool (never the booking one: a scrape must not take a booking's connection)
   * @param relay null when forwarding is off (then no forward gauge)
   */
  public DatabaseGauges(MeterRegistry registry, Database db, ForwardRelay relay) {
    this.db = db;
    this.relay = relay;
    Gauge.builder("paynotify.anomalies.open", anomaliesOpen, AtomicLong::get)
        .description("anomalies not resolved yet: paynotify anomalies list --open").register(registry);
    for (String name : relay == null ? List.<String>of() : relay.endpointNames()) {
      AtomicLong[] values = {new AtomicLong(), new AtomicLong(), new AtomicLong()};
      endpoints.put(name, values);
      Gauge.builder("paynotify.forward.events", values[0], AtomicLong::get).tags("endpoint", name, "state", "pending")
          .description("events waiting to be delivered to the endpoint").register(registry);
      Gauge.builder("paynotify.forward.events", values[1], AtomicLong::get).tags("endpoint", name, "state", "failed")
          .description("events the endpoint never accepted: paynotify forward retry").register(registry);
      Gauge.builder("paynotify.forward.endpoint.disabled", values[2], AtomicLong::get).tag("endpoint", name)
          .description("1 while nothing is sent to the endpoint: paynotify forward enable").register(registry);
    }
  }

  /** Up to date within a few seconds; a failed read keeps the last values (the scrape still answers). */
  public Future<Void> refresh() {
    return read.get();
  }

  private Future<Void> read() {
    Future<Void> anomalies = db.inTransaction(conn -> conn.query(SqlQueries.COUNT_OPEN_ANOMALIES).execute())
        .map(rows -> {
          anomaliesOpen.set(rows.iterator().next().getLong(0));
          return null;
        });
    Future<Void> forward = relay == null ? Future.succeededFuture() : relay.backlog().map(b -> {
      for (EndpointBacklog e : b.endpoints()) {
        AtomicLong[] values = endpoints.get(e.name());
        if (values != null) { // rows of an endpoint no longer configured: on the status page, not a gauge
          values[0].set(e.pending());
          values[1].set(e.failed());
          values[2].set(e.disabled() ? 1 : 0);
        }
      }
      return null;
    });
    return Future.join(anomalies, forward).<Void>mapEmpty().otherwiseEmpty();
  }
}
