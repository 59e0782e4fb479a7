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
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Paddle's {@code GET /notifications} played on 127.0.0.1, as its API reference (list-notifications) describes it:
 * the API key checked as a Bearer token (another one: 401 {@code authentication_malformed}, as Paddle answers);
 * proved by {@code PaddleEventsSdkTest}, Paddle's node SDK's {@code notifications.list()} pointed here;
 * {@code notification_setting_id}, {@code status} (comma-separated), {@code from} and {@code to} (RFC 3339),
 * {@code per_page} (1 to 200, 50 by default) and the cursor {@code after} applied to the notifications a test adds;
 * newest first ({@code id[DESC]}: ids grow with time); the answer {@code {data, meta: {request_id, pagination:
 * {per_page, next, has_more, estimated_total}}}}, {@code next} the URL of the page after (its {@code after} the
 * page's last id). A parameter out of range or an unknown status is refused 400 as Paddle refuses it.
 */
public final class PaddleApiStandIn implements AutoCloseable {
  public static final String KEY = "pdl_sdbx_apikey_01hs0t3tw21j988db1pam5xg8m_paynotifyNotificationsRead";
  /** The destination PaddleNotifications.SECRET belongs to. */
  public static final String DESTINATION = "ntfset_01hs0t3tw21j988db1pam5xg8m";
  private static final Set<String> STATUSES = Set.of("delivered", "failed", "needs_retry", "not_attempted");

  private record Stored(JsonObject notification, String destination, long occurred) {
    String id() {
      return notification.getString("id");
    }

    String status() {
      return notification.getString("status");
    }
  }

  private final HttpServer server;
  private final ExecutorService threads = Executors.newCachedThreadPool();
  /** Oldest first: the order of their ids. */
  private final List<Stored> notifications = new ArrayList<>();
  private final List<Map<String, String>> queries = new ArrayList<>();
  private final AtomicInteger refused = new AtomicInteger();

  private PaddleApiStandIn() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
    server.setExecutor(threads);
    server.createContext("/notifications", this::handle);
    server.start();
  }

  public static PaddleApiStandIn start() {
    try {
      return new PaddleApiStandIn();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public URI url() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** paddle.api_key (inline), paddle.api_base and paddle.notification_setting_id, merged into the configuration. */
  public JsonObject configure(JsonObject config, String key) {
    return config.mergeIn(new JsonObject().put("paddle", new JsonObject().put("api_key", key)
        .put("api_base", url().toString()).put("notification_setting_id", DESTINATION)), true);
  }

  /**
   * {@code event} notified to {@code destination} {@code secondsAgo}, in {@code status}: a notification as Paddle
   * lists it, the event its {@code payload}.
   */
  public synchronized void notified(JsonObject event, String destination, String status, long secondsAgo) {
    long occurred = System.currentTimeMillis() / 1000 - secondsAgo;
    // ids grow with time, as Paddle's (ULIDs) do
    String id = String.format("ntf_%013d%04d", occurred, notifications.size());
    JsonObject notification = new JsonObject().put("id", id).put("type", event.getString("event_type"))
        .put("status", status).put("payload", event.copy().put("notification_id", id))
        .put("occurred_at", Instant.ofEpochSecond(occurred).toString())
        .put("delivered_at", "delivered".equals(status) ? Instant.ofEpochSecond(occurred + 1).toString() : null)
        .put("replayed_at", null).put("origin", "event").put("last_attempt_at", Instant.ofEpochSecond(occurred)
            .toString()).put("retry_at", null).put("times_attempted", "not_attempted".equals(status) ? 0 : 3)
        .put("notification_setting_id", destination);
    notifications.add(new Stored(notification, destination, occurred));
    notifications.sort((a, b) -> a.id().compareTo(b.id()));
  }

  /** The queries answered (a wrong key's too), their parameters decoded. */
  public synchronized List<Map<String, String>> queries() {
    return List.copyOf(queries);
  }

  public int refusedRequests() {
    return refused.get();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      Map<String, String> q = CountingStandIn.form(exchange.getRequestURI().getRawQuery());
      synchronized (this) {
        queries.add(q);
      }
      JsonObject answer;
      int status = 200;
      String auth = exchange.getRequestHeaders().getFirst("Authorization");
      // the scheme's case is free (RFC 9110; the node SDK writes "bearer"), the key's is not
      if (auth == null || !auth.regionMatches(true, 0, "Bearer ", 0, 7) || !auth.substring(7).equals(KEY)) {
        refused.incrementAndGet();
        status = 401;
        answer = error("authentication_malformed", "Authentication header included, but incorrectly formatted.");
      } else {
        try {
          answer = list(q);
        } catch (IllegalArgumentException e) {
          status = 400;
          answer = error("invalid_field", e.getMessage());
        }
      }
      byte[] body = answer.encode().getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(status, body.length);
      exchange.getResponseBody().write(body);
    }
  }

  private static JsonObject error(String code, String detail) {
    return new JsonObject().put("error", new JsonObject().put("type", "request_error").put("code", code)
        .put("detail", detail).put("documentation_url", "https://developer.paddle.com/v1/errors/shared/" + code))
        .put("meta", new JsonObject().put("request_id", "req-stand-in"));
  }

  private synchronized JsonObject list(Map<String, String> q) {
    int perPage = Integer.parseInt(q.getOrDefault("per_page", "50"));
    if (perPage < 1 || perPage > 200) {
      throw new IllegalArgumentException("per_page must be between 1 and 200");
    }
    Set<String> statuses = q.containsKey("status") ? Set.of(q.get("status").split(",")) : STATUSES;
    if (!STATUSES.containsAll(statuses)) {
      throw new IllegalArgumentException("status: unknown value in " + q.get("status"));
    }
    long from = q.containsKey("from") ? Instant.parse(q.get("from")).getEpochSecond() : Long.MIN_VALUE;
    long to = q.containsKey("to") ? Instant.parse(q.get("to")).getEpochSecond() : Long.MAX_VALUE;
    String after = q.get("after");
    String destination = q.get("notification_setting_id");
    List<JsonObject> matching = new ArrayList<>();
    for (int i = notifications.size() - 1; i >= 0; i--) { // id[DESC]
      Stored s = notifications.get(i);
      if ((after == null || s.id().compareTo(after) < 0) && statuses.contains(s.status())
          && (destination == null || destination.equals(s.destination())) && s.occurred() >= from
          && s.occurred() < to) {
        matching.add(s.notification());
      }
    }
    List<JsonObject> page = matching.subList(0, Math.min(perPage, matching.size()));
    boolean more = page.size() < matching.size();
    String next = page.isEmpty() ? null : url() + "/notifications?" + nextQuery(q, page.get(page.size() - 1)
        .getString("id"));
    return new JsonObject().put("data", new JsonArray(new ArrayList<>(page)))
        .put("meta", new JsonObject().put("request_id", "req-stand-in").put("pagination", new JsonObject()
            .put("per_page", perPage).put("next", next).put("has_more", more)
            .put("estimated_total", matching.size())));
  }

  /** The same query, after {@code last}. */
  private static String nextQuery(Map<String, String> q, String last) {
    StringBuilder s = new StringBuilder();
    q.forEach((k, v) -> {
      if (!k.equals("after")) {
        s.append(k).append('=').append(java.net.URLEncoder.encode(v, StandardCharsets.UTF_8)).append('&');
      }
    });
    return s.append("after=").append(last).toString();
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
