package paynotify.admin;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.config.MeterFilterReply;
import java.util.Set;
import paynotify.store.CountedPool;

/**
 * The database pools' figures, from our own count ({@link CountedPool}): {@code paynotify_db_pool_in_use{pool}}
 * (connections lent now) and {@code paynotify_db_pool_waiting{pool}} (uses waiting for one). They replace
 * vertx-micrometer-metrics' {@code vertx_pool_in_use} and {@code vertx_pool_queue_pending} of the SQL pools, which
 * Vert.x 5.0.7 leaves counting waits and uses that ended when connections failed (after MariaDB was killed under
 * load: 861 "pending" at rest, nothing waiting): a figure that is wrong after an outage is worse than none, so those
 * two are not published, nor {@code vertx_pool_ratio} (in use / max size: computed from the same wrong count; see
 * {@link #hideVertxFigures}). Its other SQL pool figures stay: {@code vertx_pool_queue_time_seconds},
 * {@code vertx_pool_usage_seconds} and {@code vertx_pool_completed_total}, counted when a wait or use ends.
 */
public final class PoolGauges {
  private static final Set<String> WRONG_AFTER_FAILURES = Set.of("vertx_pool_in_use", "vertx_pool_queue_pending",
      "vertx_pool_ratio");

  private PoolGauges() {}

  /** Publishes each pool's figures under its name. */
  public static void register(MeterRegistry registry, CountedPool... pools) {
    for (CountedPool pool : pools) {
      Gauge.builder("paynotify.db.pool.in.use", pool, CountedPool::inUse).tag("pool", pool.name())
          .description("database connections in use now").register(registry);
      Gauge.builder("paynotify.db.pool.waiting", pool, CountedPool::waiting).tag("pool", pool.name())
          .description("uses waiting for a database connection now").register(registry);
    }
  }

  /** The filter, set on the registry before Vert.x registers its meters, that leaves out its three SQL pool figures. */
  static MeterFilter hideVertxFigures() {
    return new MeterFilter() {
      @Override
      public MeterFilterReply accept(Meter.Id id) {
        return "sql".equals(id.getTag("pool_type")) && WRONG_AFTER_FAILURES.contains(id.getName().replace('.', '_'))
            ? MeterFilterReply.DENY : MeterFilterReply.NEUTRAL;
      }
    };
  }
}
