package paynotify.http;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.AllowForwardHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.alert.SelfProbe;
import paynotify.booking.EventBooking;
import paynotify.channel.Ids;
import paynotify.channel.NotifyChannel.Reply;
import paynotify.channel.NotifyChannel;
import paynotify.channel.NotifyEvent;
import paynotify.channel.NotifyRequest;
import paynotify.forward.ForwardRelay.Backlog;
import paynotify.store.NotifyLog;
import paynotify.store.RejectedLog;
import paynotify.store.WriteRefusals.Refusing;
import paynotify.store.WriteRefusals;

/**
 * The HTTP callback flow: route each channel's path, read the raw body, hand it to the request's
 * {@link NotifyFate} (which has the channel verify it, books it, and keeps its trace and count), time
 * it out, and answer the platform. The success reply is sent only once booking has committed (or
 * found the event booked before); anything else gets the channel's failure reply so that the
 * platform retries.
 */
public final class NotifyVerticle extends VerticleBase {
  private static final Logger LOG = LoggerFactory.getLogger(NotifyVerticle.class);

  private final HttpSettings settings;
  private final List<NotifyChannel> channels;
  private final Map<String, String> disabledChannels;
  private final NotifyFate.Keepers keepers;
  private final Readiness readiness;
  /** Pending and failed events of the forward relay for /health; null when forwarding is off. */
  private final Supplier<Future<Backlog>> forwardBacklog;
  private HttpServer server;
  /**
   * Connections Vert.x is shutting down: it closes each after its reply, which says so (exactly
   * these: said on others, it would send their clients to a port that is about to close).
   * Event-loop confined.
   */
  private final Set<HttpConnection> closing = new HashSet<>();

  /**
   * @param channels         the configured channels
   * @param disabledChannels paths of known but unconfigured channels, with the config keys that enable them
   * @param booking          books what a channel verified
   * @param log              verified notifications' notify_log rows
   * @param rejected         refused requests' notify_log rows
   * @param readiness        until ready, every notification and /health answer 503
   * @param refusals         whether the database refuses writes (/health 503 while it does)
   * @param confirm          why a payment of a channel that confirms before booking is not confirmed by its
   *                         platform's query (null: it is); null when no channel does
   */
  public NotifyVerticle(HttpSettings settings, List<NotifyChannel> channels,
      Map<String, String> disabledChannels, EventBooking booking, NotifyLog log, RejectedLog rejected,
      Readiness readiness, Supplier<Future<Backlog>> forwardBacklog, NotifyMetrics metrics, WriteRefusals refusals,
      Function<NotifyEvent, Future<String>> confirm) {
    if (confirm == null && channels.stream().anyMatch(NotifyChannel::confirmsBeforeBooking)) {
      throw new IllegalArgumentException("a channel confirms before booking, and nothing can confirm");
    }
    this.settings = settings;
    this.channels = channels;
    this.disabledChannels = disabledChannels;
    this.keepers = new NotifyFate.Keepers(booking, log, rejected, metrics, refusals, confirm);
    this.readiness = readiness;
    this.forwardBacklog = forwardBacklog;
  }

  /** /health and every channel's path, on or off (the docs test reads these routes too). */
  public Router router() {
    Router router = Router.router(vertx);
    if (settings.behindProxy()) {
      router.allowForward(AllowForwardHeaders.X_FORWARD);
    }
    router.get("/health").handler(this::health);
    router.post(SelfProbe.PATH).handler(this::probe);
    for (NotifyChannel channel : channels) {
      router.route(HttpMethod.POST, channel.path()).handler(ctx -> notify(ctx, channel));
      if (channel.acceptsGet()) {
        router.route(HttpMethod.GET, channel.path()).handler(ctx -> notify(ctx, channel));
      }
    }
    disabledChannels.forEach((path, hint) -> router.route(path).handler(ctx -> channelOff(ctx, path, hint)));
    return router;
  }

  @Override
  public Future<?> start() {
    Router router = router();
    // Port 0 becomes -1: Vert.x then shares one random port among all instances of this verticle.
    int port = settings.port() == 0 ? -1 : settings.port();
    return vertx.createHttpServer(new HttpServerOptions().setIdleTimeout(60).setIdleTimeoutUnit(TimeUnit.SECONDS))
        .requestHandler(request -> route(router, request))
        .connectionHandler(conn -> conn.shutdownHandler(v -> {
          closing.add(conn);
          conn.closeHandler(closed -> closing.remove(conn));
        }))
        .listen(port, settings.host())
        .onSuccess(s -> server = s);
  }

  /**
   * Vert.x 5.0.7's router throws on a Host with a percent escape (eclipse-vertx/vert.x#5926) before any handler
   * runs, which left the request unanswered until the idle timeout: such a request is refused here instead.
   */
  private static void route(Router router, HttpServerRequest request) {
    try {
      router.handle(request);
    } catch (RuntimeException e) {
      // debug only: what an unauthenticated request sends must not fill the disk
      LOG.debug("{} {}: refused before routing, Host {}: {}", request.method(), request.path(),
          Ids.printable(request.getHeader(HttpHeaders.HOST)), e.toString());
      if (!request.response().headWritten()) {
        request.response().setStatusCode(400).putHeader(HttpHeaders.CONNECTION, "close").end("bad request");
      }
    }
  }

  /**
   * Graceful (Vert.x's HttpServer.shutdown): stops taking connections, closes the idle ones, and
   * closes each connection with a request in flight once its reply is sent, so a booking that
   * commits is answered. Only what still runs after {@code http.shutdown_grace_ms} is cut.
   */
  @Override
  public Future<?> stop() {
    return server.shutdown(settings.shutdownGrace().toMillis(), TimeUnit.MILLISECONDS);
  }

  public int actualPort() {
    return server.actualPort();
  }

  private void notify(RoutingContext ctx, NotifyChannel channel) {
    if (!readiness.isReady()) {
      reply(ctx, channel.failure(503, "starting, retry later"));
      return;
    }
    long timer = vertx.setTimer(settings.requestTimeout().toMillis(), id -> {
      LOG.error("{} notify not answered within {} ms (http.request_timeout_ms): replied failure, platform will retry",
          channel.endpoint(), settings.requestTimeout().toMillis());
      reply(ctx, channel.failure(503, "timeout, retry later"));
    });
    ctx.response().endHandler(v -> vertx.cancelTimer(timer));
    String remote = ctx.request().remoteAddress() == null ? null : ctx.request().remoteAddress().hostAddress();
    NotifyFate fate = new NotifyFate(keepers, channel, remote);

    RawBody.read(ctx.request(), Math.max(settings.maxBodyBytes(), channel.door().minBody())).onComplete(read -> {
      if (read.failed()) {
        Reply refused = fate.unread(read.cause()); // first: after the timeout's reply the header cannot be set
        if (!ctx.response().headWritten()) {
          ctx.response().putHeader(HttpHeaders.CONNECTION, "close");
        }
        reply(ctx, refused);
        return;
      }
      NotifyRequest request = new NotifyRequest(ctx.request().method().name(), ctx.request().headers(),
          ctx.request().query(), read.result());
      fate.decide(request).onComplete(decided -> reply(ctx, decided.succeeded() ? decided.result()
          : fate.bug(decided.cause())));
    });
  }

  private void channelOff(RoutingContext ctx, String path, String hint) {
    NotifyFate.channelOff(keepers, path, hint);
    ctx.response().setStatusCode(404).putHeader(HttpHeaders.CONTENT_TYPE, "text/plain")
        .end(path + " is not configured\n");
  }

  /** What /health answers: its status code and body. */
  private record Health(int status, JsonObject body) {}

  private static final Health UNAVAILABLE = new Health(503, new JsonObject().put("status", "database unavailable"));

  /**
   * 200 while notifications can be booked; 503 while the database does not answer (the ping first: a dead server is
   * "database unavailable", whatever was refused before it died) or refuses writes ({@link WriteRefusals}).
   */
  private void health(RoutingContext ctx) {
    if (!readiness.isReady()) {
      ctx.response().setStatusCode(503).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
          .end("{\"status\":\"waiting for the database\"}");
      return;
    }
    keepers.booking().ping().timeout(2, TimeUnit.SECONDS)
        .compose(ping -> {
          Refusing refusing = keepers.refusals().refusing();
          if (refusing != null) {
            return Future.succeededFuture(new Health(503, new JsonObject().put("status", "database refuses writes")
                .put("reason", refusing.reason()).put("since", refusing.since().toString())));
          }
          return forwardBacklog == null ? Future.succeededFuture(new Health(200, new JsonObject().put("status", "ok")))
              : forwardBacklog.get().timeout(2, TimeUnit.SECONDS)
                  .map(Backlog::json)
                  .otherwise(new JsonObject().put("error", "backlog unreadable"))
                  .map(forward -> new Health(200, new JsonObject().put("status", "ok").put("forward", forward)));
        })
        .otherwise(UNAVAILABLE)
        .onSuccess(health -> ctx.response().setStatusCode(health.status())
            .putHeader(HttpHeaders.CONTENT_TYPE, "application/json").end(health.body().encode()));
  }

  /** The self-probe's nonce sent back: this service answered (nothing else is read or written). */
  private void probe(RoutingContext ctx) {
    // As a notification: a body that never ends is cut at the request time limit
    long timer = vertx.setTimer(settings.requestTimeout().toMillis(), id -> {
      if (!ctx.response().ended()) {
        ctx.response().setStatusCode(408).putHeader(HttpHeaders.CONNECTION, "close").end();
      }
    });
    ctx.response().endHandler(v -> vertx.cancelTimer(timer));
    RawBody.read(ctx.request(), SelfProbe.MAX_BODY).onComplete(read -> {
      if (ctx.response().ended()) {
        return;
      }
      String answer = read.failed() ? null : SelfProbe.answer(read.result().toString());
      ctx.response().setStatusCode(answer == null ? 400 : 200).putHeader(HttpHeaders.CONTENT_TYPE, "text/plain")
          .end(answer == null ? "not a paynotify probe" : answer);
    });
  }

  private void reply(RoutingContext ctx, Reply reply) {
    if (ctx.response().ended() || ctx.response().closed()) {
      return; // already answered (timeout) or the platform hung up
    }
    if (closing.contains(ctx.request().connection())) {
      // Said, the client sends nothing more on this connection, instead of a next request that
      // would meet the close.
      ctx.response().putHeader(HttpHeaders.CONNECTION, "close");
    }
    ctx.response().setStatusCode(reply.status());
    if (reply.contentType() != null) {
      ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, reply.contentType());
    }
    ctx.response().end(reply.body());
  }
}
