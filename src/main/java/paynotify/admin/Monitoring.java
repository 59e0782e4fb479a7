package paynotify.admin;

import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.micrometer.Label;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The Vert.x instance the service runs on, with vertx-micrometer-metrics reporting its pools, HTTP
 * server and client and the JVM to a Prometheus registry, or plain when the admin listener is off
 * (nothing measured, nothing kept).
 *
 * <p>No label may come from what a request sends: a meter is kept for the life of the JVM, so each
 * new value would grow the heap and every scrape for good. The labels are listed (a library upgrade
 * cannot add one silently): no path, no remote address; the method, which any client can invent
 * (Netty accepts any token), is one of the standard ones or {@code OTHER}.
 *
 * @param registry null when metrics are off
 */
public record Monitoring(Vertx vertx, PrometheusMeterRegistry registry) {
  private static final Set<String> METHODS = Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE",
      "PATCH");
  private static final String OTHER_METHOD = "OTHER";
  private static final AtomicInteger INSTANCES = new AtomicInteger();

  public static Monitoring start(AdminSettings admin) {
    if (admin == null) {
      return new Monitoring(Vertx.vertx(), null);
    }
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    registry.config().meterFilter(MeterFilter.replaceTagValues(Label.HTTP_METHOD.toString(),
        method -> METHODS.contains(method) ? method : OTHER_METHOD));
    registry.config().meterFilter(PoolGauges.hideVertxFigures()); // ours replace them: PoolGauges.register
    Vertx vertx = Vertx.builder()
        .with(new VertxOptions().setMetricsOptions(new MicrometerMetricsOptions().setEnabled(true)
            // The library keeps one backend per name for the JVM: under the default name a second Vert.x
            // (tests run several services in one JVM) reported into the first one's registry.
            .setRegistryName("paynotify-" + INSTANCES.incrementAndGet())
            .setJvmMetricsEnabled(true)
            .setLabels(EnumSet.of(Label.HTTP_METHOD, Label.HTTP_CODE, Label.POOL_TYPE, Label.POOL_NAME))))
        .withMetrics(new MicrometerMetricsFactory(registry))
        .build();
    return new Monitoring(vertx, registry);
  }
}
