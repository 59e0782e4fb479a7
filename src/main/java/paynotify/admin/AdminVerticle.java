package paynotify.admin;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.HostAndPort;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin listener: {@code GET /metrics} (Prometheus text), {@code /status} (a page for a
 * person) and {@code /status.json}. Its own port, never the public notify one; with a token, every
 * request needs {@code Authorization: Bearer <token>}, without one (loopback only) a loopback Host.
 */
public final class AdminVerticle extends VerticleBase {
  private static final Logger LOG = LoggerFactory.getLogger(AdminVerticle.class);
  private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
  /** The status is business data (orders, amounts, addresses): no browser or proxy keeps a copy. */
  private static final String NO_STORE = "no-store";
  /**
   * Without a token, the names this listener answers to: a page of another name that resolves to
   * 127.0.0.1 (DNS rebinding) gets its browser to send that name, never one of these.
   */
  private static final Set<String> LOOPBACK_HOSTS = Set.of("127.0.0.1", "localhost", "[::1]", "::1");
  /** An order number as the platforms take one (out_trade_no): up to 64 printable characters. */
  private static final Pattern ORDER_NO = Pattern.compile("[\\x21-\\x7E]{1,64}");
  private static final Pattern EVENT = Pattern.compile("evt_[0-9a-f]{32}|[0-9]{1,18}");
  /** Its requests are short: a connection that sends nothing for this long is closed. */
  private static final int IDLE_TIMEOUT_SECONDS = 10;

  private final AdminSettings settings;
  private final PrometheusMeterRegistry registry;
  private final Supplier<Future<Void>> refreshGauges;
  private final Supplier<Future<JsonObject>> status;
  private final Function<String, Future<JsonObject>> checkOrder;
  private final BiFunction<String, String, Future<JsonObject>> replayEvent;
  private HttpServer server;
  private long lastRefusalLogged; // event-loop confined

  /**
   * @param refreshGauges brings the gauges read from the database up to date (cached), before a scrape
   * @param status        the report /status and /status.json show
   * @param checkOrder    asks the platform about an order now and books what it says (recovery); null: no
   *                      platform can be asked
   * @param replayEvent   sends a forwarded event again, to one endpoint or (null) each (its state after, null: no
   *                      such event); null: forward off
   */
  public AdminVerticle(AdminSettings settings, PrometheusMeterRegistry registry, Supplier<Future<Void>> refreshGauges,
      Supplier<Future<JsonObject>> status, Function<String, Future<JsonObject>> checkOrder,
      BiFunction<String, String, Future<JsonObject>> replayEvent) {
    this.settings = settings;
    this.checkOrder = checkOrder;
    this.replayEvent = replayEvent;
    this.registry = registry;
    this.refreshGauges = refreshGauges;
    this.status = status;
  }

  /** /metrics, /status.json and /status behind the host or token check (the docs test reads these routes too). */
  public Router router() {
    Router router = Router.router(vertx);
    router.route().handler(settings.token() == null ? this::loopbackHost : this::authorised);
    router.get("/metrics").handler(ctx -> refreshGauges.get().onComplete(refreshed ->
        ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, PROMETHEUS_TEXT).end(registry.scrape())));
    router.get("/status.json").handler(ctx -> status.get().onComplete(report -> {
      if (report.failed()) {
        unavailable(ctx, report.cause());
      } else {
        ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, "application/json").putHeader(HttpHeaders.CACHE_CONTROL,
            NO_STORE).end(report.result().encodePrettily());
      }
    }));
    router.get("/status").handler(ctx -> status.get().onComplete(report -> {
      if (report.failed()) {
        unavailable(ctx, report.cause());
      } else {
        ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, "text/html; charset=utf-8")
            .putHeader(HttpHeaders.CACHE_CONTROL, NO_STORE).end(StatusPage.html(report.result()));
      }
    }));
    router.post("/orders/:order_no/check").handler(this::checkOrder);
    router.post("/forward/events/:id/replay").handler(this::replayEvent);
    return router;
  }

  /**
   * The site's return page asks instead of trusting the redirect: the platform is asked now, what it says
   * paid is booked, and the order's state (paid, unpaid, closed, partially_refunded, refunded, unknown) is the
   * answer, with fulfil true only for paid.
   */
  private void checkOrder(RoutingContext ctx) {
    String orderNo = ctx.pathParam("order_no");
    if (checkOrder == null) {
      ctx.response().setStatusCode(404).end("admin: no platform can be asked about orders: see docs/operations.md,"
          + " recovery\n");
      return;
    }
    if (orderNo == null || !ORDER_NO.matcher(orderNo).matches()) {
      ctx.response().setStatusCode(400).end("admin: an order number is 1 to 64 printable characters\n");
      return;
    }
    checkOrder.apply(orderNo).onComplete(answer -> {
      if (answer.failed()) {
        unavailable(ctx, answer.cause());
      } else {
        ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
            .putHeader(HttpHeaders.CACHE_CONTROL, NO_STORE).end(answer.result().encode());
      }
    });
  }

  /**
   * An event sent again, delivered or not, with its id and bytes (forward replay's, one event), to each endpoint it
   * was written for or to {@code ?endpoint=NAME} only.
   */
  private void replayEvent(RoutingContext ctx) {
    String id = ctx.pathParam("id");
    String endpoint = ctx.queryParams().get("endpoint");
    if (replayEvent == null) {
      ctx.response().setStatusCode(404).end("admin: forwarding is off (forward.url)\n");
      return;
    }
    if (id == null || !EVENT.matcher(id).matches()) {
      ctx.response().setStatusCode(400).end("admin: an event is its evt_ id or its number in forward list\n");
      return;
    }
    if (endpoint != null && !endpoint.matches("[a-z0-9_-]{1,32}")) {
      ctx.response().setStatusCode(400).end("admin: an endpoint is named with 1 to 32 of a-z, 0-9, _ and -\n");
      return;
    }
    replayEvent.apply(id, endpoint).onComplete(answer -> {
      if (answer.failed()) {
        unavailable(ctx, answer.cause());
      } else if (answer.result() == null) {
        ctx.response().setStatusCode(404).end("admin: no forward event " + id
            + (endpoint == null ? "" : " for endpoint " + endpoint) + "\n");
      } else {
        ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
            .putHeader(HttpHeaders.CACHE_CONTROL, NO_STORE).end(answer.result().encode());
      }
    });
  }

  @Override
  public Future<?> start() {
    Router router = router();
    return vertx.createHttpServer(new HttpServerOptions().setIdleTimeout(IDLE_TIMEOUT_SECONDS)
            .setIdleTimeoutUnit(TimeUnit.SECONDS))
        .requestHandler(router).listen(settings.port(), settings.host())
        .onSuccess(s -> server = s);
  }

  public int actualPort() {
    return server.actualPort();
  }

  /** Without a token (loopback only, checked at start): requests that name this machine by its loopback name. */
  private void loopbackHost(RoutingContext ctx) {
    HostAndPort authority = ctx.request().authority(); // Host, or HTTP/2's :authority; null when unreadable
    String host = authority == null ? null : authority.host().toLowerCase(Locale.ROOT);
    if (host != null && LOOPBACK_HOSTS.contains(host)) {
      ctx.next();
    } else {
      long now = System.currentTimeMillis();
      if (now - lastRefusalLogged >= 1_000) { // anyone can send these: one line a second at most
        lastRefusalLogged = now;
        LOG.warn("admin: refused a request for Host '{}' (without admin.token only 127.0.0.1, localhost and [::1];"
            + " more within a second are not logged)", host);
      }
      ctx.response().setStatusCode(421).end("admin: without admin.token, only Host 127.0.0.1, localhost or [::1]"
          + " is served\n");
    }
  }

  private void authorised(RoutingContext ctx) {
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
