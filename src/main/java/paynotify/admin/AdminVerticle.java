package paynotify.admin;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin listener: {@code GET /metrics} (Prometheus text), {@code /status} (a page for a
 * person) and {@code /status.json}. Its own port, never the public notify one; with a token, every
 * request needs {@code Authorization: Bearer <token>}.
 */
public final class AdminVerticle extends VerticleBase {
  private static final Logger LOG = LoggerFactory.getLogger(AdminVerticle.class);
  private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

  private final AdminSettings settings;
  private final PrometheusMeterRegistry registry;
  private final Supplier<Future<Void>> refreshGauges;
  private final Supplier<Future<JsonObject>> status;
  private HttpServer server;

  /**
   * @param refreshGauges brings the gauges read from the database up to date (cached), before a scrape
   * @param status        the report /status and /status.json show
   */
  public AdminVerticle(AdminSettings settings, PrometheusMeterRegistry registry, Supplier<Future<Void>> refreshGauges,
      Supplier<Future<JsonObject>> status) {
    this.settings = settings;
    this.registry = registry;
    this.refreshGauges = refreshGauges;
    this.status = status;
  }

  @Override
  public Future<?> start() {
    Router router = Router.router(vertx);
    router.route().handler(this::authorised);
    router.get("/metrics").handler(ctx -> refreshGauges.get().onComplete(refreshed ->
        ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, PROMETHEUS_TEXT).end(registry.scrape())));
    router.get("/status.json").handler(ctx -> status.get().onComplete(report -> {
      if (report.failed()) {
        unavailable(ctx, report.cause());
      } else {
        ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, "application/json").end(report.result().encodePrettily());
      }
    }));
    router.get("/status").handler(ctx -> status.get().onComplete(report -> {
      if (report.failed()) {
        unavailable(ctx, report.cause());
      } else {
        ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, "text/html; charset=utf-8")
            .end(StatusPage.html(report.result()));
      }
    }));
    return vertx.createHttpServer().requestHandler(router).listen(settings.port(), settings.host())
        .onSuccess(s -> server = s);
  }

  public int actualPort() {
    return server.actualPort();
  }

  private void authorised(RoutingContext ctx) {
    if (settings.token() == null) {
      ctx.next();
      return;
    }
    String given = ctx.request().getHeader(HttpHeaders.AUTHORIZATION);
    byte[] expected = ("Bearer " + settings.token()).getBytes(StandardCharsets.UTF_8);
    if (given != null && MessageDigest.isEqual(expected, given.getBytes(StandardCharsets.UTF_8))) {
      ctx.next();
    } else {
      ctx.response().setStatusCode(401).putHeader("WWW-Authenticate", "Bearer")
          .end("admin: Authorization: Bearer <admin token> required\n");
    }
  }

  private static void unavailable(RoutingContext ctx, Throwable err) {
    LOG.warn("admin: status not available: {}", err.getMessage());
    ctx.response().setStatusCode(503).end("status not available: the database does not answer\n");
  }
}
