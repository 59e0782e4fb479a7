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
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongPredicate;

/**
 * Stripe's {@code GET /v1/events} played on 127.0.0.1: the restricted key checked as a Bearer token (another
 * one: 401, as Stripe answers), and the list's parameters applied to the events a test adds as Stripe's API
 * reference says: {@code delivery_success}, {@code created} and its {@code [gt]}, {@code [gte]}, {@code [lt]},
 * {@code [lte]}, {@code limit} (1 to 100, 10 by default), and the cursors {@code starting_after} (the older
 * page) and {@code ending_before} (the newer one), one or the other; newest first (then the later added), in
 * Stripe's list object, {@code has_more} saying whether more lie beyond the page in the direction asked. A
 * cursor names an event's place whatever the filters say of it; an unknown one, a limit out of range or both
 * cursors are refused as invalid requests. Proved by {@code StripeEventsSdkTest}: stripe-java's
 * {@code Event.list} pointed here reads what it answers.
 */
public final class StripeStandIn implements AutoCloseable {
  public static final String KEY = "rk_test_paynotify_events_read_0123456789";

  private record Stored(JsonObject event, boolean delivered, long created, int added) {
    String id() {
      return event.getString("id");
    }
  }

  /** Stripe's order: newest first; one second's events, the later added first. */
  private static final Comparator<Stored> NEWEST_FIRST =
      Comparator.comparingLong(Stored::created).thenComparingInt(Stored::added).reversed();

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
    add(event, secondsAgo, false);
  }

  /** An event delivered to the endpoint: not listed with delivery_success=false. */
  public synchronized void delivered(JsonObject event) {
    add(event, 60, true);
  }

  private void add(JsonObject event, long secondsAgo, boolean delivered) {
    long created = System.currentTimeMillis() / 1000 - secondsAgo;
    events.add(new Stored(event.copy().put("created", created), delivered, created, events.size()));
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
        try {
          answer = list(CountingStandIn.form(exchange.getRequestURI().getRawQuery()));
        } catch (IllegalArgumentException e) { // as Stripe refuses a request it cannot take
          status = 400;
          answer = new JsonObject().put("error", new JsonObject().put("type", "invalid_request_error")
              .put("message", e.getMessage()));
        }
      }
      byte[] body = answer.encode().getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(status, body.length);
      exchange.getResponseBody().write(body);
    }
  }

  private synchronized JsonObject list(Map<String, String> q) {
    Boolean deliverySuccess = q.containsKey("delivery_success") ? Boolean.valueOf(q.get("delivery_success")) : null;
    int limit = Integer.parseInt(q.getOrDefault("limit", "10"));
    if (limit < 1 || limit > 100) {
      throw new IllegalArgumentException("Invalid limit: must be between 1 and 100");
    }
    String after = q.get("starting_after");
    String before = q.get("ending_before");
    if (after != null && before != null) {
      throw new IllegalArgumentException(
          "You may only specify one of these parameters: ending_before, starting_after.");
    }
    List<Stored> all = new ArrayList<>(events);
    all.sort(NEWEST_FIRST);
    Stored cursor = after != null ? find(all, after, "starting_after")
        : before != null ? find(all, before, "ending_before") : null;
    List<JsonObject> matching = new ArrayList<>();
    for (Stored s : all) {
      boolean beyond = cursor == null || (after != null ? NEWEST_FIRST.compare(s, cursor) > 0
          : NEWEST_FIRST.compare(s, cursor) < 0);
      if (beyond && (deliverySuccess == null || deliverySuccess == s.delivered()) && created(q, s.created())) {
        matching.add(s.event());
      }
    }
    // ending_before: the page just newer than the cursor, still listed newest first
    int from = before == null ? 0 : Math.max(0, matching.size() - limit);
    int to = before == null ? Math.min(matching.size(), limit) : matching.size();
    return new JsonObject().put("object", "list").put("url", "/v1/events")
        .put("has_more", before == null ? to < matching.size() : from > 0)
        .put("data", new JsonArray(new ArrayList<>(matching.subList(from, to))));
  }

  private static Stored find(List<Stored> all, String id, String param) {
    return all.stream().filter(s -> id.equals(s.id())).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("No such event: '" + id + "' (" + param + ")"));
  }

  /** {@code created} (exactly) and its range operators. */
  private static boolean created(Map<String, String> q, long created) {
    return bound(q, "created", v -> created == v) && bound(q, "created[gt]", v -> created > v)
        && bound(q, "created[gte]", v -> created >= v) && bound(q, "created[lt]", v -> created < v)
        && bound(q, "created[lte]", v -> created <= v);
  }

  private static boolean bound(Map<String, String> q, String name, LongPredicate holds) {
    return !q.containsKey(name) || holds.test(Long.parseLong(q.get(name)));
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
