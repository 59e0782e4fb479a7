package paynotify.testsupport;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Lemon Squeezy's orders API played on 127.0.0.1, as its reference describes it (docs /api/orders/retrieve-order and
 * /api/orders/list-all-orders; JSON:API): the API key checked as a Bearer token (another one: 401 with a JSON:API
 * {@code errors} array); {@code GET /v1/orders/{id}} the Order a test added ({@code {jsonapi, links, data}}), or 404;
 * {@code GET /v1/orders} the Orders of {@code filter[store_id]} (all without it), newest first ({@code created_at}
 * descending), paged by {@code page[number]} (from 1) and {@code page[size]} (10 by default, 1 to 100: another is
 * refused 400), with {@code meta.page} ({@code currentPage, from, lastPage, perPage, to, total}) and {@code links}
 * ({@code first, last}, {@code next} and {@code prev} where there are). Proved by {@code LemonSqueezySdkTest}: Lemon
 * Squeezy's JS SDK's {@code getOrder} and {@code listOrders} read it.
 */
public final class LemonSqueezyApiStandIn implements AutoCloseable {
  /** An API key as Lemon Squeezy makes them (a JWT; this one signs nothing). */
  public static final String KEY = "eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.eyJhdWQiOiI5NGQ1OWNlZi1kYmI4LTRlYTUtYjE3OC1kMjU0"
      + "MGZjZDY5MTkiLCJqdGkiOiJwYXlub3RpZnktdGVzdCJ9.paynotify-test-key";
  /** Lemon Squeezy's created_at: microseconds, UTC. */
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'")
      .withZone(ZoneOffset.UTC);

  private final HttpServer server;
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final List<JsonObject> orders = new ArrayList<>();
  private final List<String> requests = new ArrayList<>();
  private final List<String> accepts = new ArrayList<>();
  private final AtomicInteger refused = new AtomicInteger();
  private volatile boolean down;

  private LemonSqueezyApiStandIn() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
    server.setExecutor(threads);
    server.createContext("/v1/orders", this::handle);
    server.start();
  }

  public static LemonSqueezyApiStandIn start() {
    try {
      return new LemonSqueezyApiStandIn();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public URI url() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** lemonsqueezy.api_key (inline) and lemonsqueezy.api_base merged into the configuration's lemonsqueezy section. */
  public JsonObject configure(JsonObject config, String key) {
    config.getJsonObject("lemonsqueezy").put("api_key", key).put("api_base", url().toString());
    return config;
  }

  /**
   * {@code order} (an Order of {@link LemonSqueezyNotifications#order}) made {@code secondsAgo}, in {@code status},
   * of {@code storeId}, as the API keeps it: with its relationships' links, as the list carries them.
   */
  public synchronized JsonObject add(JsonObject order, long storeId, String status, long secondsAgo) {
    String id = order.getString("id");
    String made = TIME.format(Instant.now().minusSeconds(secondsAgo));
    JsonObject stored = order.copy();
    stored.getJsonObject("attributes").put("store_id", storeId).put("status", status).put("status_formatted", status)
        .put("created_at", made).put("updated_at", made);
    JsonObject relationships = new JsonObject();
    for (String related : List.of("store", "customer", "order-items", "subscriptions", "license-keys",
        "discount-redemptions")) {
      relationships.put(related, new JsonObject().put("links", new JsonObject()
          .put("related", "https://api.lemonsqueezy.com/v1/orders/" + id + "/" + related)
          .put("self", "https://api.lemonsqueezy.com/v1/orders/" + id + "/relationships/" + related)));
    }
    stored.put("relationships", relationships);
    orders.removeIf(o -> o.getString("id").equals(id));
    orders.add(stored);
    return stored.copy();
  }

  /** Every later request answered 503 without a body (down), or as usual again. */
  public void down(boolean down) {
    this.down = down;
  }

  /** The requests answered (a wrong key's too): path and query, decoded. */
  public synchronized List<String> requests() {
    return List.copyOf(requests);
  }

  /** The Accept header of each request answered. */
  public synchronized List<String> accepts() {
    return List.copyOf(accepts);
  }

  public int refusedRequests() {
    return refused.get();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      URI uri = exchange.getRequestURI();
      synchronized (this) {
        requests.add(uri.getPath() + (uri.getRawQuery() == null ? ""
            : "?" + java.net.URLDecoder.decode(uri.getRawQuery(), StandardCharsets.UTF_8)));
        accepts.add(exchange.getRequestHeaders().getFirst("Accept"));
      }
      if (down) {
        exchange.sendResponseHeaders(503, -1);
        return;
      }
      int status = 200;
      JsonObject answer;
      String auth = exchange.getRequestHeaders().getFirst("Authorization");
      if (auth == null || !auth.regionMatches(true, 0, "Bearer ", 0, 7) || !auth.substring(7).equals(KEY)) {
        refused.incrementAndGet();
        status = 401;
        answer = error("401", "Unauthorized", "Unauthenticated.");
      } else if (!"GET".equals(exchange.getRequestMethod())) {
        status = 405;
        answer = error("405", "Method Not Allowed", "Only GET is played here.");
      } else if (uri.getPath().equals("/v1/orders")) {
        try {
          answer = list(CountingStandIn.form(uri.getRawQuery()));
        } catch (IllegalArgumentException e) {
          status = 400;
          answer = error("400", "Bad Request", e.getMessage());
        }
      } else {
        answer = order(uri.getPath().substring("/v1/orders/".length()));
        if (answer == null) {
          status = 404;
          answer = error("404", "Not Found", "The requested resource could not be found.");
        }
      }
      byte[] body = answer.encode().getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/vnd.api+json");
      exchange.sendResponseHeaders(status, body.length);
      exchange.getResponseBody().write(body);
    }
  }

  private static JsonObject error(String status, String title, String detail) {
    return new JsonObject().put("jsonapi", new JsonObject().put("version", "1.0")).put("errors", new JsonArray()
        .add(new JsonObject().put("detail", detail).put("status", status).put("title", title)));
  }

  private synchronized JsonObject order(String id) {
    return orders.stream().filter(o -> o.getString("id").equals(id)).findFirst()
        .map(o -> new JsonObject().put("jsonapi", new JsonObject().put("version", "1.0"))
            .put("links", new JsonObject().put("self", "https://api.lemonsqueezy.com/v1/orders/" + id))
            .put("data", o.copy()))
        .orElse(null);
  }

  private synchronized JsonObject list(Map<String, String> q) {
    int size = Integer.parseInt(q.getOrDefault("page[size]", "10"));
    int number = Integer.parseInt(q.getOrDefault("page[number]", "1"));
    if (size < 1 || size > 100) {
      throw new IllegalArgumentException("The page.size must be between 1 and 100.");
    }
    if (number < 1) {
      throw new IllegalArgumentException("The page.number must be at least 1.");
    }
    String store = q.get("filter[store_id]");
    List<JsonObject> matching = orders.stream()
        .filter(o -> store == null || store.equals(String.valueOf(o.getJsonObject("attributes").getValue("store_id"))))
        .sorted(Comparator.<JsonObject, String>comparing(o -> o.getJsonObject("attributes").getString("created_at"))
            .thenComparing(o -> Long.parseLong(o.getString("id"))).reversed())
        .toList();
    int last = Math.max(1, (matching.size() + size - 1) / size);
    int from = Math.min(matching.size(), (number - 1) * size);
    List<JsonObject> page = matching.subList(from, Math.min(matching.size(), from + size));
    JsonObject links = new JsonObject().put("first", link(q, 1, size)).put("last", link(q, last, size));
    if (number < last) {
      links.put("next", link(q, number + 1, size));
    }
    if (number > 1) {
      links.put("prev", link(q, number - 1, size));
    }
    return new JsonObject()
        .put("meta", new JsonObject().put("page", new JsonObject().put("currentPage", number)
            .put("from", page.isEmpty() ? null : from + 1).put("lastPage", last).put("perPage", size)
            .put("to", page.isEmpty() ? null : from + page.size()).put("total", matching.size())))
        .put("jsonapi", new JsonObject().put("version", "1.0"))
        .put("links", links)
        .put("data", new JsonArray(page.stream().map(JsonObject::copy).toList()));
  }

  /**
   * The list's URL at page {@code number}, as Lemon Squeezy writes its links (brackets encoded, sorted by -createdAt).
   */
  private String link(Map<String, String> q, int number, int size) {
    StringBuilder s = new StringBuilder("https://api.lemonsqueezy.com/v1/orders?");
    q.forEach((k, v) -> {
      if (!k.startsWith("page[")) {
        s.append(URLEncoder.encode(k, StandardCharsets.UTF_8)).append('=')
            .append(URLEncoder.encode(v, StandardCharsets.UTF_8)).append('&');
      }
    });
    return s.append("page%5Bnumber%5D=").append(number).append("&page%5Bsize%5D=").append(size)
        .append("&sort=-createdAt").toString();
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
