package paynotify.testsupport;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Stripe's {@code GET /v1/events} played on 127.0.0.1: the restricted key checked as a Bearer token (another
 * one: 401, as Stripe answers), {@code delivery_success}, {@code created[gte]}, {@code limit} and
 * {@code starting_after} applied to the events a test adds, newest first, in Stripe's list object. Proved by
 * {@code StripeEventsSdkTest}: stripe-java's {@code Event.list} pointed here reads what it answers.
 */
public final class StripeStandIn implements AutoCloseable {
  public static final String KEY = "rk_test_paynotify_events_read_0123456789";

  private record Stored(JsonObject event, boolean delivered) {}

  private final HttpServer server;
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final List<Stored> events = new ArrayList<>();
  private final AtomicInteger requests = new AtomicInteger();
  private final AtomicInteger refused = new AtomicInteger();
  private volatile boolean down;

  private StripeStandIn() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
    server.setExecutor(threads);
    server.createContext("/v1/events", this::handle);
    server.start();
  }

  public static StripeStandIn start() {
    try {
      return new StripeStandIn();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public URI url() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** stripe.api_key (the restricted key) and stripe.api_base, merged into the service's configuration. */
  public JsonObject configure(JsonObject config) {
    return config.mergeIn(new JsonObject().put("stripe", new JsonObject().put("api_key", KEY)
        .put("api_base", url().toString())), true);
  }

  /** An event whose webhook was never delivered, created {@code secondsAgo}. */
  public synchronized void undelivered(JsonObject event, long secondsAgo) {
    events.add(new Stored(event.copy().put("created", System.currentTimeMillis() / 1000 - secondsAgo), false));
  }

  /** An event delivered to the endpoint: not listed with delivery_success=false. */
  public synchronized void delivered(JsonObject event) {
    events.add(new Stored(event.copy().put("created", System.currentTimeMillis() / 1000 - 60), true));
  }

  public int requests() {
    return requests.get();
  }

  public int refusedRequests() {
    return refused.get();
  }

  public void down(boolean down) {
    this.down = down;
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      if (down) {
        exchange.sendResponseHeaders(503, -1);
        return;
      }
      requests.incrementAndGet();
      String auth = exchange.getRequestHeaders().getFirst("Authorization");
      JsonObject answer;
      int status = 200;
      if (!("Bearer " + KEY).equals(auth)) {
        refused.incrementAndGet();
        status = 401;
        answer = new JsonObject().put("error", new JsonObject().put("type", "invalid_request_error")
            .put("message", "Invalid API Key provided: rk_test_****wxyz"));
      } else {
        answer = list(CountingStandIn.form(exchange.getRequestURI().getRawQuery()));
      }
      byte[] body = answer.encode().getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(status, body.length);
      exchange.getResponseBody().write(body);
    }
  }

  private synchronized JsonObject list(Map<String, String> q) {
    Boolean deliverySuccess = q.containsKey("delivery_success") ? Boolean.valueOf(q.get("delivery_success")) : null;
    long since = Long.parseLong(q.getOrDefault("created[gte]", "0"));
    int limit = Integer.parseInt(q.getOrDefault("limit", "10"));
    String after = q.get("starting_after");
    List<JsonObject> matching = new ArrayList<>();
    for (int i = events.size() - 1; i >= 0; i--) { // newest first
      Stored s = events.get(i);
      if ((deliverySuccess == null || deliverySuccess == s.delivered()) && s.event().getLong("created") >= since) {
        matching.add(s.event());
      }
    }
    int from = 0;
    if (after != null) {
      for (int i = 0; i < matching.size(); i++) {
        if (after.equals(matching.get(i).getString("id"))) {
          from = i + 1;
        }
      }
    }
    int to = Math.min(matching.size(), from + limit);
    return new JsonObject().put("object", "list").put("url", "/v1/events").put("has_more", to < matching.size())
        .put("data", new JsonArray(new ArrayList<>(matching.subList(from, to))));
  }


  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
