package paynotify.testsupport;

import com.alipay.api.AlipayApiException;
import com.alipay.api.internal.util.AlipaySignature;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.cert.X509Certificate;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Alipay's OpenAPI gateway ({@code gateway.do}) for {@code alipay.trade.query} and {@code alipay.trade.close},
 * played on 127.0.0.1: every request's {@code sign} is checked with the application's public key by
 * alipay-sdk-java's own {@code rsaCheckV2}, and every answer is signed by its {@code rsaSign} with the
 * vectors' Alipay test key, over the exact text of the {@code ..._response} object. Proved right by
 * {@code AlipayGatewaySdkTest}: the SDK's {@code DefaultAlipayClient} pointed here accepts what it answers. In
 * certificate mode ({@link #certificateMode}) it checks the SNs and names the certificate that signed, as Alipay
 * does: proved by the SDK's certificate client in {@code AlipayCertModeSdkTest}.
 */
public final class AlipayStandIn extends CountingStandIn {
  private static final DateTimeFormatter DASHED = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

  /** A trade as Alipay keeps it; paidAt null until it is paid. */
  private record Trade(String status, String tradeNo, String amount, LocalDateTime paidAt) {}

  private final HttpServer server;
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final KeyPair appKey;
  private final Map<String, Trade> trades = new ConcurrentHashMap<>();
  private final Map<String, Trade> payOnClose = new ConcurrentHashMap<>();
  private final Map<String, byte[]> bills = new ConcurrentHashMap<>();
  private final Map<String, String> billNames = new ConcurrentHashMap<>();
  private final AtomicInteger billDownloads = new AtomicInteger();
  private final AtomicInteger certDownloads = new AtomicInteger();
  private volatile Path keyFile;
  /** Certificate mode's files (公钥证书模式); null in public-key mode. */
  private volatile AlipayCertificateFiles certificates;
  private volatile Path certDir;

  private AlipayStandIn(KeyPair appKey) throws IOException {
    this.appKey = appKey;
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
    server.setExecutor(threads);
    server.createContext("/gateway.do", this::handle);
    server.createContext("/downloadBillFile.resource", this::download);
    server.start();
  }

  /** A stand-in with an application key pair of its own (the private half for the service, see {@link #configure}). */
  public static AlipayStandIn start() {
    try {
      KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
      rsa.initialize(2048);
      return new AlipayStandIn(rsa.generateKeyPair());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public URI url() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/gateway.do");
  }

  /** The application's private key (PKCS#8 PEM) in a file of mode 600, as the service requires. */
  public synchronized Path appKeyFile() {
    if (keyFile == null) {
      keyFile = privateKeyFile("alipay-app-key", appKey.getPrivate());
    }
    return keyFile;
  }

  /**
   * From now on Alipay in certificate mode (公钥证书模式), as for an application whose 接口加签方式 is 证书: each request
   * must carry the app_cert_sn and alipay_root_cert_sn of these files, each answer names the alipay_cert_sn of the
   * certificate that signed it, and alipay.open.app.alipaycert.download gives Alipay's certificates by SN.
   */
  public synchronized AlipayCertificateFiles certificateMode() {
    if (certificates == null) {
      certificates = AlipayCertificateFiles.of(appKey);
    }
    return certificates;
  }

  /** How many times alipay.open.app.alipaycert.download was asked. */
  public int certDownloads() {
    return certDownloads.get();
  }

  @Override
  public JsonObject configure(JsonObject config) {
    JsonObject alipay = new JsonObject()
        .put("app_private_key_file", appKeyFile().toString())
        .put("gateway_url", url().toString());
    if (certificates != null) {
      AlipayCertificateFiles.Files3 files = certificates.write(certDir());
      alipay.put("app_cert_file", files.appCert().toString()).put("alipay_cert_file", files.alipayCert().toString())
          .put("alipay_root_cert_file", files.rootCert().toString());
      alipay.putNull("public_key"); // one mode or the other: null, so that it also clears a merged default
    }
    return config.mergeIn(new JsonObject().put("alipay", alipay), true);
  }

  private synchronized Path certDir() {
    try {
      if (certDir == null) {
        certDir = Files.createTempDirectory("alipay-certs");
      }
      return certDir;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void paid(String outTradeNo, String tradeNo, String amount) {
    trades.put(outTradeNo, new Trade("TRADE_SUCCESS", tradeNo, amount, beijingNow()));
  }

  @Override
  public void paidAt(String outTradeNo, LocalDateTime beijingTime) {
    trades.computeIfPresent(outTradeNo, (k, t) -> new Trade(t.status(), t.tradeNo(), t.amount(), beijingTime));
  }

  /** Refunded in full: TRADE_CLOSED, its send_pay_date kept (a partial refund keeps TRADE_SUCCESS). */
  @Override
  public void refunded(String outTradeNo) {
    trades.computeIfPresent(outTradeNo, (k, t) -> new Trade("TRADE_CLOSED", t.tradeNo(), t.amount(), t.paidAt()));
  }

  /** Paid, and past its refund period (or not refundable): TRADE_FINISHED. */
  public void finished(String outTradeNo, String tradeNo, String amount) {
    trades.put(outTradeNo, new Trade("TRADE_FINISHED", tradeNo, amount, beijingNow()));
  }

  /** The trades bill of {@code date} is the zip {@code file} (served under its own name). */
  public void bill(LocalDate date, Path file) {
    try {
      bills.put(date.toString(), Files.readAllBytes(file));
      billNames.put(date.toString(), file.getFileName().toString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Waiting until a close request comes: the buyer pays just then, so the close is refused (a race). */
  public void paidWhenClosed(String outTradeNo, String tradeNo, String amount) {
    waiting(outTradeNo);
    payOnClose.put(outTradeNo, new Trade("TRADE_SUCCESS", tradeNo, amount, beijingNow()));
  }

  @Override
  public void waiting(String outTradeNo) {
    trades.put(outTradeNo, new Trade("WAIT_BUYER_PAY", "2026120422001499" + Math.abs(outTradeNo.hashCode()), "88.88",
        null));
  }

  @Override
  public void closed(String outTradeNo) {
    trades.compute(outTradeNo, (k, t) -> new Trade("TRADE_CLOSED",
        t == null ? "2026120422001498" + Math.abs(outTradeNo.hashCode()) : t.tradeNo(), t == null ? "88.88" : t.amount(),
        null));
  }

  @Override
  public String state(String outTradeNo) {
    Trade t = trades.get(outTradeNo);
    return t == null ? null : t.status();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      if (inTrouble(exchange)) {
        return;
      }
      Map<String, String> params = new HashMap<>(form(exchange.getRequestURI().getRawQuery()));
      params.putAll(form(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
      String method = params.getOrDefault("method", "");
      String node = method.replace('.', '_') + "_response";
      String certRefusal = certRefusal(params);
      if (certRefusal != null) {
        refusedOne();
        reply(exchange, certRefusal.getBytes(StandardCharsets.UTF_8));
        return;
      }
      JsonObject answer = verified(params) ? answer(method, new JsonObject(params.getOrDefault("biz_content", "{}")))
          : error("40002", "Invalid Arguments", "isv.invalid-signature", "验签出错，建议检查签名字符串或签名私钥与应用公钥是否匹配");
      reply(exchange, signed(node, answer.encode()).getBytes(StandardCharsets.UTF_8));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void reply(HttpExchange exchange, byte[] body) throws IOException {
    exchange.getResponseHeaders().add("Content-Type", "text/html;charset=utf-8");
    exchange.sendResponseHeaders(200, body.length);
    exchange.getResponseBody().write(body);
  }

  /**
   * In certificate mode, Alipay's gateway refuses a request without the two SNs, or with SNs other than the
   * application's certificate's and the root file's (an error_response, unsigned); null when they are right.
   */
  private String certRefusal(Map<String, String> params) {
    AlipayCertificateFiles certs = certificates;
    if (certs == null) {
      return null;
    }
    String app = params.get("app_cert_sn");
    String root = params.get("alipay_root_cert_sn");
    JsonObject error = app == null || app.isEmpty()
        ? error("40001", "Missing Required Arguments", "isv.missing-app-cert-sn", "缺少应用公钥证书序列号")
        : root == null || root.isEmpty()
            ? error("40001", "Missing Required Arguments", "isv.missing-alipay-root-cert-sn", "缺少支付宝根证书序列号")
            : !app.equals(AlipayCertificateFiles.sn(certs.appCert()))
                ? error("40002", "Invalid Arguments", "isv.app-cert-sn-mismatch", "应用公钥证书序列号不匹配")
                : !root.equals(certs.rootSn())
                    ? error("40002", "Invalid Arguments", "isv.alipay-root-cert-sn-mismatch", "支付宝根证书序列号不匹配")
                    : null;
    return error == null ? null : new JsonObject().put("error_response", error).encode();
  }

  /** How many times a bill's zip was downloaded. */
  public int billDownloads() {
    return billDownloads.get();
  }

  /** The bill's zip, by the fileId its download URL names (the URL is Alipay's own signature on it). */
  private void download(HttpExchange exchange) throws IOException {
    try (exchange) {
      byte[] zip = bills.get(form(exchange.getRequestURI().getRawQuery()).getOrDefault("fileId", ""));
      billDownloads.incrementAndGet();
      if (zip == null) {
        exchange.sendResponseHeaders(404, -1);
        return;
      }
      exchange.getResponseHeaders().add("Content-Type", "application/oct-stream");
      exchange.sendResponseHeaders(200, zip.length);
      exchange.getResponseBody().write(zip);
    }
  }

  /** The sign over all parameters but {@code sign}, with the application's public key (the one uploaded). */
  private boolean verified(Map<String, String> params) {
    try {
      if (AlipaySignature.rsaCheckV2(params, Base64.getEncoder().encodeToString(appKey.getPublic().getEncoded()),
          "utf-8", "RSA2") && AlipayNotifications.APP_ID.equals(params.get("app_id"))) {
        return true;
      }
    } catch (AlipayApiException e) {
      // refused below, as Alipay does
    }
    refusedOne();
    return false;
  }

  private JsonObject answer(String method, JsonObject biz) {
    String outTradeNo = biz.getString("out_trade_no", "");
    Trade trade = trades.get(outTradeNo);
    switch (method) {
      case "alipay.trade.query" -> {
        queried(outTradeNo);
        if (trade == null) {
          return error("40004", "Business Failed", "ACQ.TRADE_NOT_EXIST", "交易不存在");
        }
        JsonObject found = success().put("trade_no", trade.tradeNo()).put("out_trade_no", outTradeNo)
            .put("buyer_logon_id", "159****5620").put("trade_status", trade.status())
            .put("total_amount", trade.amount()).put("buyer_user_id", "2088101117955611");
        // send_pay_date (本次交易打款给卖家的时间): only a trade that was paid has one, refunded since or not
        return trade.paidAt() != null
            ? found.put("buyer_pay_amount", trade.amount()).put("send_pay_date", DASHED.format(trade.paidAt())) : found;
      }
      case "alipay.trade.close" -> {
        closeRequested(outTradeNo);
        Trade paying = payOnClose.remove(outTradeNo);
        if (paying != null) {
          trades.put(outTradeNo, paying);
          return error("40004", "Business Failed", "ACQ.TRADE_STATUS_ERROR", "交易状态不合法");
        }
        if (trade == null) {
          return error("40004", "Business Failed", "ACQ.TRADE_NOT_EXIST", "交易不存在");
        }
        if (!trade.status().equals("WAIT_BUYER_PAY") && !trade.status().equals("TRADE_CLOSED")) {
          return error("40004", "Business Failed", "ACQ.TRADE_STATUS_ERROR", "交易状态不合法");
        }
        trades.put(outTradeNo, new Trade("TRADE_CLOSED", trade.tradeNo(), trade.amount(), trade.paidAt()));
        return success().put("trade_no", trade.tradeNo()).put("out_trade_no", outTradeNo);
      }
      case "alipay.data.dataservice.bill.downloadurl.query" -> {
        String date = biz.getString("bill_date", "");
        if (!bills.containsKey(date) || !"trade".equals(biz.getString("bill_type"))) {
          return error("40004", "Business Failed", "isp.bill_not_exist", "账单不存在");
        }
        return success().put("bill_download_url", url().resolve("/downloadBillFile.resource") + "?bizType=trade"
            + "&fileType=csv.zip&bizDates=" + date.replace("-", "") + "&downloadFileName=" + billNames.get(date)
            + "&fileId=" + date);
      }
      case "alipay.open.app.alipaycert.download" -> {
        certDownloads.incrementAndGet();
        X509Certificate cert = certificates == null ? null
            : certificates.bySn(biz.getString("alipay_cert_sn", ""));
        if (cert == null) {
          return error("40004", "Business Failed", "CERT_NOT_EXIST", "证书不存在");
        }
        return success().put("alipay_cert_content", Base64.getEncoder().encodeToString(
            PlatformCertificates.pem(cert).getBytes(StandardCharsets.US_ASCII)));
      }
      default -> {
        return error("40004", "Business Failed", "isv.invalid-method", "不存在的方法名");
      }
    }
  }

  private static JsonObject success() {
    return new JsonObject().put("code", "10000").put("msg", "Success");
  }

  private static JsonObject error(String code, String msg, String subCode, String subMsg) {
    return new JsonObject().put("code", code).put("msg", msg).put("sub_code", subCode).put("sub_msg", subMsg);
  }

  /**
   * {@code {"<node>":<content>,"sign":"..."}}, signed by the SDK with Alipay's key (another one in BAD_SIGNATURE); in
   * certificate mode with the current certificate's key, whose SN it names ({@code "alipay_cert_sn"}).
   */
  private String signed(String node, String content) {
    AlipayCertificateFiles certs = certificates;
    String key = mode() == Mode.BAD_SIGNATURE ? AlipayNotifications.OTHER_PRIVATE_KEY : certs == null
        ? AlipayNotifications.PRIVATE_KEY : Base64.getEncoder().encodeToString(certs.alipayKey().getPrivate().getEncoded());
    String certSn = certs == null ? "" : ",\"alipay_cert_sn\":\"" + AlipayCertificateFiles.sn(certs.alipayCert()) + "\"";
    try {
      return "{\"" + node + "\":" + content + certSn + ",\"sign\":\"" + AlipaySignature.rsaSign(content, key, "utf-8", "RSA2")
          + "\"}";
    } catch (AlipayApiException e) {
      throw new IllegalStateException(e);
    }
  }


  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
    if (keyFile != null) {
      try {
        Files.deleteIfExists(keyFile);
      } catch (IOException e) {
        // a temp file: deleteOnExit tries again
      }
    }
  }
}
