package paynotify.testsupport;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * An epay-style aggregator's {@code api.php?act=order} (彩虹易支付), played on 127.0.0.1: pid and key checked
 * as its api.php does (a wrong key: {@code {"code":-3,"msg":"KEY校验失败"}}), answers as it writes them. Its
 * answers are not signed: {@link Mode#BAD_SIGNATURE} answers about another merchant instead. It has no close.
 */
public final class EpayStandIn extends CountingStandIn {
  private static final DateTimeFormatter DASHED = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

  /** A trade as epay keeps it; paidAt (its endtime) null until it is paid. */
  private record Trade(int status, String tradeNo, String money, LocalDateTime paidAt) {}

  private final HttpServer server;
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final Map<String, Trade> trades = new ConcurrentHashMap<>();

  private EpayStandIn() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
    server.setExecutor(threads);
    server.createContext("/api.php", this::handle);
    server.start();
  }

  public static EpayStandIn start() {
    try {
      return new EpayStandIn();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public URI url() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
  }

  @Override
  public JsonObject configure(JsonObject config) {
    return config.mergeIn(new JsonObject().put("epay", new JsonObject().put("gateway_url", url().toString())), true);
  }

  /** {@code amount} in yuan, as epay writes money ("88.88"). */
  @Override
  public void paid(String outTradeNo, String tradeNo, String amount) {
    trades.put(outTradeNo, new Trade(1, tradeNo, amount, beijingNow()));
  }

  @Override
  public void paidAt(String outTradeNo, LocalDateTime beijingTime) {
    trades.computeIfPresent(outTradeNo, (k, t) -> new Trade(t.status(), t.tradeNo(), t.money(), beijingTime));
  }

  /** The paid trade refunded: status 2, its endtime kept. */
  @Override
  public void refunded(String outTradeNo) {
    trades.computeIfPresent(outTradeNo, (k, t) -> new Trade(2, t.tradeNo(), t.money(), t.paidAt()));
  }

  @Override
  public void waiting(String outTradeNo) {
    trades.put(outTradeNo, new Trade(0, "2026120412000" + Math.abs(outTradeNo.hashCode()), "88.88", null));
  }

  /** Refunded (status 2): epay has no closed trades, a refunded one will not be paid. */
  @Override
  public void closed(String outTradeNo) {
    trades.put(outTradeNo, new Trade(2, "2026120412001" + Math.abs(outTradeNo.hashCode()), "88.88", beijingNow()));
  }

  @Override
  public String state(String outTradeNo) {
    Trade t = trades.get(outTradeNo);
    return t == null ? null : "status=" + t.status();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      if (inTrouble(exchange)) {
        return;
      }
      Map<String, String> q = form(exchange.getRequestURI().getRawQuery());
      byte[] body = answer(q).encode().getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json; charset=utf-8");
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private JsonObject answer(Map<String, String> q) {
    if (!"order".equals(q.get("act"))) {
      return new JsonObject().put("code", -5).put("msg", "No Act!");
    }
    if (!EpayNotifications.PID.equals(q.get("pid")) || !EpayNotifications.KEY.equals(q.get("key"))) {
      refusedOne();
      return new JsonObject().put("code", -3).put("msg", "KEY校验失败");
    }
    String outTradeNo = q.getOrDefault("out_trade_no", "");
    queried(outTradeNo);
    Trade t = trades.get(outTradeNo);
    if (t == null) {
      return new JsonObject().put("code", -1).put("msg", "订单号不存在");
    }
    String pid = mode() == Mode.BAD_SIGNATURE ? "9999" : EpayNotifications.PID;
    return new JsonObject().put("code", 1).put("msg", "succ").put("trade_no", t.tradeNo())
        .put("out_trade_no", outTradeNo).put("api_trade_no", "").put("type", "alipay").put("pid", Integer.parseInt(pid))
        .put("addtime", DASHED.format(t.paidAt() == null ? beijingNow() : t.paidAt().minusSeconds(7)))
        .put("endtime", t.paidAt() == null ? null : DASHED.format(t.paidAt()))
        .put("name", "Pro plan").put("money", t.money()).put("param", "").put("buyer", "").put("status", t.status());
  }


  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
