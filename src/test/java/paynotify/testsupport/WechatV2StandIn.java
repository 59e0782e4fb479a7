package paynotify.testsupport;

import static paynotify.testsupport.WechatV2Notifications.API_KEY;
import static paynotify.testsupport.WechatV2Notifications.APP_ID;
import static paynotify.testsupport.WechatV2Notifications.MCH_ID;
import static paynotify.testsupport.WechatV2Notifications.OTHER_API_KEY;

import com.github.binarywang.wxpay.bean.result.BaseWxPayResult;
import com.github.binarywang.wxpay.bean.result.WxPayOrderCloseResult;
import com.github.binarywang.wxpay.util.SignUtils;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import paynotify.channel.wechat.WechatV2Signature;

/**
 * WeChat Pay API v2's {@code /pay/orderquery} and {@code /pay/closeorder}, played on 127.0.0.1: requests
 * are read and their sign checked by the official weixin-java-pay SDK (a bad one: return_code FAIL,
 * 签名错误, as WeChat answers), answers are signed by it with {@link WechatV2Notifications#API_KEY} in the
 * request's sign type (as WeChat does: MD5 unless the request says HMAC-SHA256). {@code /pay/downloadbill}
 * serves the bills a test sets, bare (WeChat does not sign them), gzipped when asked; a day without one is
 * WeChat's "No Bill Exist".
 */
public final class WechatV2StandIn extends CountingStandIn {
  private static final DateTimeFormatter TIME_END = DateTimeFormatter.ofPattern("yyyyMMddHHmmss");

  /** A trade as WeChat keeps it; paidAt null until it is paid. */
  private record Trade(String state, String tradeNo, String amount, LocalDateTime paidAt) {
    Trade in(String newState) {
      return new Trade(newState, tradeNo, amount, paidAt);
    }
  }

  private final HttpServer server;
  /** One thread per request: a SLOW answer holds its own only. */
  private final ExecutorService threads = Executors.newCachedThreadPool(runnable -> {
    Thread thread = new Thread(runnable, "wechat-v2-stand-in");
    thread.setDaemon(true);
    return thread;
  });
  private final Map<String, Trade> trades = new ConcurrentHashMap<>();
  private final Map<LocalDate, byte[]> bills = new ConcurrentHashMap<>();
  private final Set<LocalDate> billsNotReady = ConcurrentHashMap.newKeySet();
  private volatile String answerAppId = APP_ID;
  private volatile String answerMchId = MCH_ID;

  private WechatV2StandIn() {
    try {
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.setExecutor(threads);
    server.createContext("/pay/", this::handle);
    server.start();
  }

  /** weixin-java-pay's service for the vectors' merchant, pointed here (payBaseUrl): how the SDK proves this. */
  public com.github.binarywang.wxpay.service.WxPayService sdk() {
    com.github.binarywang.wxpay.config.WxPayConfig config = new com.github.binarywang.wxpay.config.WxPayConfig();
    config.setAppId(APP_ID);
    config.setMchId(MCH_ID);
    config.setMchKey(API_KEY);
    config.setPayBaseUrl(url().toString());
    com.github.binarywang.wxpay.service.WxPayService service =
        new com.github.binarywang.wxpay.service.impl.WxPayServiceImpl();
    service.setConfig(config);
    return service;
  }

  public static WechatV2StandIn start() {
    return new WechatV2StandIn();
  }

  @Override
  public URI url() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  @Override
  public JsonObject configure(JsonObject config) {
    return config.mergeIn(new JsonObject().put("wechat_v2", new JsonObject().put("gateway_url", url().toString())),
        true);
  }

  /** {@code amount} in fen, as total_fee ("8888"). */
  @Override
  public synchronized void paid(String outTradeNo, String tradeNo, String amount) {
    trades.put(outTradeNo, new Trade("SUCCESS", tradeNo, amount, beijingNow()));
  }

  @Override
  public synchronized void paidAt(String outTradeNo, LocalDateTime beijingTime) {
    trades.computeIfPresent(outTradeNo, (out, t) -> new Trade(t.state(), t.tradeNo(), t.amount(), beijingTime));
  }

  /** The paid trade of {@code outTradeNo} was (partly) refunded: trade_state REFUND (转入退款). */
  @Override
  public synchronized void refunded(String outTradeNo) {
    trades.computeIfPresent(outTradeNo, (out, trade) -> trade.in("REFUND"));
  }

  @Override
  public synchronized void waiting(String outTradeNo) {
    trades.put(outTradeNo, new Trade("NOTPAY", null, "8888", null));
  }

  @Override
  public synchronized void closed(String outTradeNo) {
    trades.put(outTradeNo, new Trade("CLOSED", null, "8888", null));
  }

  @Override
  public String state(String outTradeNo) {
    Trade trade = trades.get(outTradeNo);
    return trade == null ? null : trade.state();
  }

  /** {@code csv} is the ALL bill of {@code date}. */
  public void bill(LocalDate date, byte[] csv) {
    bills.put(date, csv);
  }

  /** The bill of {@code date} is not made yet: WeChat's "Bill Creating". */
  public void billNotReady(LocalDate date) {
    billsNotReady.add(date);
  }

  /** The next answers name this merchant (signed with the API key all the same): a merchant's mix-up. */
  public void answerAsMerchant(String appId, String mchId) {
    this.answerAppId = appId;
    this.answerMchId = mchId;
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow(); // wakes the SLOW answers
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      if (inTrouble(exchange)) {
        return;
      }
      Map<String, String> request = BaseWxPayResult.fromXML(
          new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8), WxPayOrderCloseResult.class)
          .toMap();
      String signType = request.getOrDefault(WechatV2Signature.SIGN_TYPE, WechatV2Signature.MD5);
      if (!SignUtils.checkSign(request, signType, API_KEY)) {
        refusedOne();
        reply(exchange, 200, WechatV2Notifications.xml(Map.of("return_code", "FAIL", "return_msg", "签名错误")));
        return;
      }
      if (exchange.getRequestURI().getPath().equals("/pay/downloadbill")) {
        downloadBill(exchange, request);
        return;
      }
      String out = request.get("out_trade_no");
      Map<String, String> answer = switch (exchange.getRequestURI().getPath()) {
        case "/pay/orderquery" -> query(out);
        case "/pay/closeorder" -> closeOrder(out);
        default -> null;
      };
      if (answer == null) {
        reply(exchange, 404, "");
        return;
      }
      reply(exchange, 200, WechatV2Notifications.xml(signed(answer, signType, mode())));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // closed while SLOW: no answer at all
    }
  }

  /** The bill, bare; or WeChat's unsigned FAIL saying why there is none. */
  private void downloadBill(HttpExchange exchange, Map<String, String> request) throws IOException {
    LocalDate date = LocalDate.parse(request.get("bill_date"), DateTimeFormatter.BASIC_ISO_DATE);
    byte[] bill = bills.get(date);
    if (billsNotReady.contains(date)) {
      reply(exchange, 200, WechatV2Notifications.xml(Map.of("return_code", "FAIL", "return_msg", "Bill Creating")));
    } else if (bill == null) {
      reply(exchange, 200, WechatV2Notifications.xml(Map.of("return_code", "FAIL", "return_msg", "No Bill Exist",
          "error_code", "20002")));
    } else if ("GZIP".equals(request.get("tar_type"))) {
      reply(exchange, "application/x-gzip", gzip(bill));
    } else {
      reply(exchange, "text/plain;charset=utf-8", bill);
    }
  }

  private Map<String, String> query(String out) {
    queried(out);
    Trade trade = trades.get(out);
    if (trade == null) {
      return businessError("ORDERNOTEXIST", "order not exist");
    }
    Map<String, String> answer = answer("SUCCESS");
    answer.put("out_trade_no", out);
    answer.put("trade_state", trade.state());
    answer.put("trade_state_desc", trade.state().equals("NOTPAY") ? "订单未支付" : "trade " + trade.state());
    answer.put("total_fee", trade.amount());
    if (trade.tradeNo() != null) {
      answer.put("transaction_id", trade.tradeNo());
      answer.put("openid", "oUpF8uMuAJO_M2pxb1Q9zNjWeS6o");
      answer.put("is_subscribe", "N");
      answer.put("trade_type", "NATIVE");
      answer.put("bank_type", "OTHERS");
      answer.put("fee_type", "CNY");
      answer.put("cash_fee", trade.amount());
      answer.put("time_end", TIME_END.format(trade.paidAt()));
    }
    return answer;
  }

  /** A waiting trade closes; any other answers the err_code WeChat gives for it. */
  private synchronized Map<String, String> closeOrder(String out) {
    closeRequested(out);
    Trade trade = trades.get(out);
    if (trade == null) {
      return businessError("ORDERNOTEXIST", "order not exist");
    }
    return switch (trade.state()) {
      case "NOTPAY" -> {
        trades.put(out, trade.in("CLOSED"));
        Map<String, String> answer = answer("SUCCESS");
        answer.put("result_msg", "OK");
        yield answer;
      }
      case "CLOSED" -> businessError("ORDERCLOSED", "订单已关闭");
      default -> businessError("ORDERPAID", "订单已支付");
    };
  }

  private Map<String, String> businessError(String code, String description) {
    Map<String, String> answer = answer("FAIL");
    answer.put("err_code", code);
    answer.put("err_code_des", description);
    return answer;
  }

  private Map<String, String> answer(String resultCode) {
    Map<String, String> answer = new LinkedHashMap<>();
    answer.put("return_code", "SUCCESS");
    answer.put("return_msg", "OK");
    answer.put("appid", answerAppId);
    answer.put("mch_id", answerMchId);
    answer.put("nonce_str", Long.toHexString(System.nanoTime()));
    answer.put("result_code", resultCode);
    return answer;
  }

  private static Map<String, String> signed(Map<String, String> answer, String signType, Mode mode) {
    String key = mode == Mode.BAD_SIGNATURE ? OTHER_API_KEY : API_KEY;
    answer.put(WechatV2Signature.SIGN, SignUtils.createSign(answer, signType, key, new String[0]));
    return answer;
  }

  private static void reply(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/xml; charset=UTF-8");
    exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    exchange.getResponseBody().write(bytes);
  }

  private static void reply(HttpExchange exchange, String contentType, byte[] file) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", contentType);
    exchange.sendResponseHeaders(200, file.length);
    exchange.getResponseBody().write(file);
  }
}
