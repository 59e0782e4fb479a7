package paynotify.admin;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import java.util.concurrent.atomic.AtomicLong;
import paynotify.forward.ForwardRelay;
import paynotify.store.Database;
import paynotify.store.SqlQueries;

/**
 * Gauges whose values live in the database: {@code paynotify_anomalies_open} and, with forwarding,
 * {@code paynotify_forward_events{state}}. Read when scraped, at most every few seconds (several
 * Prometheus servers, or a dashboard refreshing, cost one query).
 */
public final class DatabaseGauges {
  private static final long CACHE_MS = 5_000;

  private final Database db;
  private final ForwardRelay relay;
  private final AtomicLong anomaliesOpen = new AtomicLong();
  private final AtomicLong pending = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
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
    if (relay != null) {
      Gauge.builder("paynotify.forward.events", pending, AtomicLong::get).tag("state", "pending")
          .description("events waiting to be delivered to the site").register(registry);
      Gauge.builder("paynotify.forward.events", failed, AtomicLong::get).tag("state", "failed")
          .description("events the site never accepted: paynotify forward retry").register(registry);
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
      pending.set(b.pending());
      failed.set(b.failed());
      return null;
    });
    return Future.join(anomalies, forward).<Void>mapEmpty().otherwiseEmpty();
  }
}
