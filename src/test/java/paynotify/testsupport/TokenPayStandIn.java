package paynotify.testsupport;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TokenPay server's {@code GET /Query?Id=&Signature=} (HomeController.Query), played on 127.0.0.1: the Signature
 * checked as its VerifySignature does (MD5 of {@code Id=<Id>} and the ApiToken; a wrong one answers
 * {@code {"success":false,"message":"签名验证失败！"}}), the order answered as MVC writes a TokenOrders row with
 * Program.cs' JSON options (camelCase names, the status enum by name, decimals as numbers). Its orders are TokenPay's,
 * each an Id; a test sets them by the site's order ({@code OutOrderId}). Its answers are not signed:
 * {@link Mode#BAD_SIGNATURE} answers about another OutOrderId instead. It has no close.
 */
public final class TokenPayStandIn extends CountingStandIn {
  /** An order as TokenPay keeps it: its Id, the site's order, the fiat amount as a decimal, its status' name. */
  private record Order(String id, String outOrderId, String actualAmount, String status) {}

  private final HttpServer server;
  private final ExecutorService threads = Executors.newCachedThreadPool();
  /** By Id. */
  private final Map<String, Order> orders = new ConcurrentHashMap<>();
  private final AtomicInteger requests = new AtomicInteger();

  private TokenPayStandIn() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
    server.setExecutor(threads);
    server.createContext("/Query", this::handle);
    server.start();
  }

  public static TokenPayStandIn start() {
    try {
      return new TokenPayStandIn();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The Signature TokenPay's Query takes for {@code id}: written here apart from the service's. */
  public static String signature(String id, String apiToken) {
    return Md5.hex("Id=" + id + apiToken);
  }

  @Override
  public URI url() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  @Override
  public JsonObject configure(JsonObject config) {
    return config.mergeIn(new JsonObject().put("tokenpay", new JsonObject().put("api_base", url().toString())), true);
  }

  /** Order {@code id} of {@code outOrderId}, paid {@code amount} (as TokenPay writes a decimal: "88.88", "15"). */
  @Override
  public void paid(String outOrderId, String id, String amount) {
    orders.put(id, new Order(id, outOrderId, amount, "Paid"));
  }

  /** Order {@code id} of {@code outOrderId}, for {@code amount}, not paid yet. */
  public void pending(String outOrderId, String id, String amount) {
    orders.put(id, new Order(id, outOrderId, amount, "Pending"));
  }

  /** Order {@code id} of {@code outOrderId}, for {@code amount}, expired unpaid (OrderExpiredService). */
  public void expired(String outOrderId, String id, String amount) {
    orders.put(id, new Order(id, outOrderId, amount, "Expired"));
  }

  /** TokenPay's answers carry no payment time. */
  @Override
  public void paidAt(String outTradeNo, LocalDateTime beijingTime) {}

  /** On-chain: TokenPay has no refunds. */
  @Override
  public void refunded(String outTradeNo) {
    throw new UnsupportedOperationException("TokenPay has no refunds");
  }

  /** A new Pending order of 88.88 for {@code outTradeNo}. */
  @Override
  public void waiting(String outTradeNo) {
    pending(outTradeNo, UUID.randomUUID().toString(), "88.88");
  }

  /** A new Expired order of 88.88 for {@code outTradeNo}. */
  @Override
  public void closed(String outTradeNo) {
    expired(outTradeNo, UUID.randomUUID().toString(), "88.88");
  }

  /** The status of the newest order set for {@code outTradeNo}, by name; null when none. */
  @Override
  public String state(String outTradeNo) {
    return orders.values().stream().filter(o -> o.outOrderId().equals(outTradeNo)).map(Order::status)
        .reduce((a, b) -> b).orElse(null);
  }

  /** Every request received, whatever its Id or signature. */
  public int requests() {
    return requests.get();
  }

  private void handle(HttpExchange exchange) throws IOException {
    requests.incrementAndGet();
    try (exchange) {
      if (inTrouble(exchange)) {
        return;
      }
      Map<String, String> q = form(exchange.getRequestURI().getRawQuery());
      byte[] body = answer(q.getOrDefault("Id", ""), q.get("Signature")).getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json; charset=utf-8");
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private String answer(String id, String signature) {
    if (!signature(id, TokenPayNotifications.API_TOKEN).equals(signature)) {
      refusedOne();
      return "{\"success\":false,\"message\":\"签名验证失败！\",\"data\":null}";
    }
    Order o = orders.get(id);
    if (o == null) {
      return "{\"success\":false,\"message\":\"订单不存在！\",\"data\":null}";
    }
    queried(o.outOrderId());
    String outOrderId = mode() == Mode.BAD_SIGNATURE ? o.outOrderId() + "X" : o.outOrderId();
    // the decimal as a JSON number, written by hand: a JsonObject would carry it through a double
    return "{\"success\":true,\"message\":\"订单信息获取成功！\",\"data\":{\"id\":\"" + o.id()
        + "\",\"blockTransactionId\":\"" + TokenPayNotifications.TRON_TX + "\",\"outOrderId\":\"" + outOrderId
        + "\",\"orderUserKey\":\"buyer@example.com\",\"payTime\":\"2026-12-06T16:08:39\",\"amount\":2.7581"
        + ",\"actualAmount\":" + new BigDecimal(o.actualAmount()).toPlainString() + ",\"currency\":\"USDT_TRC20\""
        + ",\"fromAddress\":\"TYYjzt6AWhe9hAg9DrhiYXEWKDksyohgQa\",\"toAddress\":\"TKGTx4pCKiKQbk8evXHTborfZn754TGViP\""
        + ",\"status\":\"" + o.status() + "\",\"passThroughInfo\":null,\"callbackNum\":0,\"callbackConfirm\":false"
        + ",\"lastNotifyTime\":null,\"notifyUrl\":\"https://shop.example.com/notify/tokenpay\",\"redirectUrl\":null"
        + ",\"isDynamicAmount\":false,\"payAmount\":2.7581,\"createTime\":\"2026-12-06T16:05:12\"}}";
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
