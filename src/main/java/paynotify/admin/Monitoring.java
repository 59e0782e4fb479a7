package paynotify.admin;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;

/**
 * The Vert.x instance the service runs on, with vertx-micrometer-metrics reporting its pools, HTTP
 * server and client and the JVM to a Prometheus registry, or plain when the admin listener is off
 * (nothing measured, nothing kept).
 *
 * @param registry null when metrics are off
 */
public record Monitoring(Vertx vertx, PrometheusMeterRegistry registry) {
  public static Monitoring start(AdminSettings admin) {
    if (admin == null) {
      return new Monitoring(Vertx.vertx(), null);
    }
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    Vertx vertx = Vertx.builder()
        .with(new VertxOptions().setMetricsOptions(new MicrometerMetricsOptions().setEnabled(true)
            .setJvmMetricsEnabled(true)))
        .withMetrics(new MicrometerMetricsFactory(registry))
        .build();
    return new Monitoring(vertx, registry);
  }
}
