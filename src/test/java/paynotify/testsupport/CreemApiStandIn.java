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
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Creem's API, the two calls recovery makes, played on 127.0.0.1 as Creem's OpenAPI
 * ({@code packages/docs/api-reference/openapi.json}) and its error page ({@code api-reference/error-codes.mdx})
 * describe them: {@code GET /v1/checkouts?checkout_id=} answers a CheckoutEntity, its order expanded;
 * {@code GET /v1/transactions/search?order_id=} a TransactionListEntity ({@code items}, {@code pagination}). The
 * account's key is checked in {@code x-api-key}: none is 401, another 403 {@code {trace_id, status, error:
 * "Forbidden", timestamp}}; an unknown checkout is 404 with {@code message: ["Checkout not found"]}. Proved by
 * {@code CreemQuerySdkTest}: Creem's official SDK ({@link CreemCoreSdk}), pointed here, reads both answers through
 * its schemas.
 */
public final class CreemApiStandIn implements AutoCloseable {
  public static final String KEY = "creem_paynotify_stand_in_0123456789abcdef";

  private final HttpServer server;
  private final ExecutorService threads = Executors.newCachedThreadPool();
  /** By id. */
  private final Map<String, JsonObject> checkouts = new ConcurrentHashMap<>();
  /** The transactions of each order, by the order's id. */
  private final Map<String, JsonObject> transactions = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> asked = new ConcurrentHashMap<>();
  private final AtomicInteger requests = new AtomicInteger();
  private final AtomicInteger refused = new AtomicInteger();
  private volatile Hold hold;
  private volatile boolean down;

  /** A question held once it arrived, until the test releases it: what the test does meanwhile races it. */
  public record Hold(CountDownLatch arrived, CountDownLatch released) {
    public void awaitArrived() throws InterruptedException {
      if (!arrived.await(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("no question arrived within 30 s");
      }
    }

    public void release() {
      released.countDown();
    }
  }

  private CreemApiStandIn() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
    server.setExecutor(threads);
    server.createContext("/v1/checkouts", this::handle);
    server.createContext("/v1/transactions/search", this::handle);
    server.start();
  }

  public static CreemApiStandIn start() {
    try {
      return new CreemApiStandIn();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public URI url() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** creem.api_key (inline) and creem.api_base, merged into the configuration. */
  public JsonObject configure(JsonObject config, String key) {
    return config.mergeIn(new JsonObject().put("creem", new JsonObject().put("api_key", key)
        .put("api_base", url().toString())), true);
  }

  /** Checkout {@code id} made for {@code requestId}, not paid yet: no order. */
  public void open(String id, String requestId) {
    checkouts.put(id, new JsonObject().put("id", id).put("object", "checkout").put("request_id", requestId)
        .put("product", "prod_d1AY2Sadk9YAvLI0pj97f").put("units", 1).put("status", "pending")
        .put("checkout_url", "https://checkout.creem.io/" + id).put("success_url", "https://shop.example.com/paid")
        .put("metadata", new JsonObject()).put("mode", "prod"));
  }

  /** Checkout {@code id} of {@code requestId} expired unpaid. */
  public void expired(String id, String requestId) {
    open(id, requestId);
    checkouts.get(id).put("status", "expired");
  }

  /**
   * Checkout {@code id} of {@code requestId} completed: its order {@code orderId} paid {@code cents} now, in
   * {@code currency}, its payment transaction paid.
   */
  public void paid(String id, String requestId, String orderId, long cents, String currency) {
    JsonObject checkout = CreemNotifications.checkout(requestId, orderId, cents, currency).put("id", id)
        .put("checkout_url", "https://checkout.creem.io/" + id);
    String now = Instant.now().toString();
    checkout.getJsonObject("order").put("created_at", now).put("updated_at", now);
    checkouts.put(id, checkout);
    transactions.put(orderId, new JsonObject().put("id", "tran_" + orderId).put("object", "transaction")
        .put("amount", cents).put("amount_paid", cents).put("currency", currency).put("type", "payment")
        .put("tax_amount", 0).put("status", "paid").put("refunded_amount", 0).put("order", orderId)
        .put("customer", "cust_1OcIK1GEuVvXZwD19tjq2z").put("created_at", System.currentTimeMillis())
        .put("mode", "prod"));
  }

  /** Order {@code orderId}'s payment refunded since, in the dashboard: {@code refunded} or {@code partialRefund}. */
  public void refunded(String orderId, String status, long cents) {
    transactions.get(orderId).put("status", status).put("refunded_amount", cents);
  }

  /** Checkout {@code id} and its order in {@code mode} (test: Creem's Test Mode). */
  public void mode(String id, String mode) {
    JsonObject checkout = checkouts.get(id).put("mode", mode);
    if (checkout.getValue("order") instanceof JsonObject order) {
      order.put("mode", mode);
    }
  }

  /** Checkout {@code id}'s order without {@code field}: an answer its webhook's reading could not use. */
  public void withoutOrderField(String id, String field) {
    checkouts.get(id).getJsonObject("order").remove(field);
  }

  /** Checkout {@code id} as Creem answers it (a copy): the object its checkout.completed webhook carries. */
  public JsonObject checkout(String id) {
    return checkouts.get(id).copy();
  }

  /** The next question is held once it arrived, until the test releases it. */
  public Hold holdNext() {
    Hold next = new Hold(new CountDownLatch(1), new CountDownLatch(1));
    hold = next;
    return next;
  }

  /** True: every question is answered 503, as Creem in trouble (or a proxy before it). */
  public void down(boolean down) {
    this.down = down;
  }

  /** Questions about checkout {@code id} answered with the right key. */
  public int asked(String id) {
    return asked.getOrDefault(id, new AtomicInteger()).get();
  }

  /** Every request received, a refused one's too. */
  public int requests() {
    return requests.get();
  }

  /** Requests refused for their key. */
  public int refusedRequests() {
    return refused.get();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      requests.incrementAndGet();
      Hold held = hold;
      if (held != null) {
        hold = null;
        held.arrived().countDown();
        held.released().await(30, TimeUnit.SECONDS);
      }
      Map<String, String> q = CountingStandIn.form(exchange.getRequestURI().getRawQuery());
      String key = exchange.getRequestHeaders().getFirst("x-api-key");
      int status = 200;
      JsonObject answer;
      if (down) {
        status = 503;
        answer = error(503, "Service Unavailable", null);
      } else if (key == null || !key.equals(KEY)) {
        refused.incrementAndGet();
        status = key == null ? 401 : 403;
        answer = error(status, key == null ? "Unauthorized" : "Forbidden", null);
      } else if (exchange.getRequestURI().getPath().equals("/v1/checkouts")) {
        String id = q.getOrDefault("checkout_id", "");
        asked.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
        answer = checkouts.get(id);
        if (answer == null) {
          status = 404;
          answer = error(404, "Not Found", "Checkout not found");
        }
      } else {
        JsonObject transaction = transactions.get(q.getOrDefault("order_id", ""));
        answer = list(transaction == null ? List.of() : List.of(transaction));
      }
      byte[] body = answer.encode().getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json; charset=utf-8");
      exchange.sendResponseHeaders(status, body.length);
      exchange.getResponseBody().write(body);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static JsonObject list(List<JsonObject> items) {
    return new JsonObject().put("items", new JsonArray(List.copyOf(items))).put("pagination", new JsonObject()
        .put("total_records", items.size()).put("total_pages", 1).put("current_page", 1).putNull("next_page")
        .putNull("prev_page"));
  }

  /** Creem's error object (error-codes.mdx); {@code message} a list of sentences where it says one. */
  private static JsonObject error(int status, String error, String message) {
    JsonObject answer = new JsonObject().put("trace_id", "550e8400-e29b-41d4-a716-446655440000")
        .put("status", status).put("error", error);
    if (message != null) {
      answer.put("message", new JsonArray().add(message));
    }
    return answer.put("timestamp", System.currentTimeMillis());
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
