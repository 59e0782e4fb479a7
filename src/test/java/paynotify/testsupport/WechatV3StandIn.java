package paynotify.testsupport;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import paynotify.channel.wechat.WechatV3Signature;

/**
 * WeChat Pay API v3's order API (query by out_trade_no, close) for merchant {@link WechatV3Notifications#MCH_ID}:
 * each request's {@code Authorization} checked with the merchant public key of a key pair made here, each
 * answer (errors too) signed with the vectors' platform key under {@link WechatV3Notifications#PUBLIC_KEY_ID}.
 * A Vert.x server of its own: the JDK's HttpServer rewrites header names (Wechatpay-timestamp), and the
 * SDK looks them up as WeChat spells them.
 *
 * <p>A merchant in WeChat's switch from platform certificates to the public key ({@link #switching}): each answer
 * signed with the public key only when the request's {@code Wechatpay-Serial} names its id, else with the platform
 * certificate ({@link #platformCertificate}), which {@code GET /v3/certificates} serves as WeChat does: every
 * certificate issued ({@link #rotateCertificate} issues a new one, which signs from then on), each sealed with the
 * APIv3 key, the answer signed as any other; or, for a merchant WeChat moved to the public key
 * ({@link #noCertificates}), its 404 {@code RESOURCE_NOT_EXISTS} "无可用的平台证书".
 *
 * <p>Bills: {@code GET /v3/bill/tradebill} answers (signed) the SHA1 of the plain bill and a download_url
 * here, whose GET (Authorization checked too) serves the file bare, gzipped when asked, as WeChat does.
 */
public final class WechatV3StandIn extends CountingStandIn {
  private static final String QUERY = "/v3/pay/transactions/out-trade-no/";
  private static final String TRADE_BILL = "/v3/bill/tradebill";
  private static final String DOWNLOAD = "/v3/billdownload/file";
  private static final String CERTIFICATES = "/v3/certificates";
  private static final Pattern AUTH_FIELD = Pattern.compile("(\\w+)=\"([^\"]*)\"");
  private static final long SLOW_MILLIS = 30_000;

  /** A trade as WeChat keeps it; paidAt null until it is paid. */
  private record Trade(String state, String tradeNo, long cents, LocalDateTime paidAt) {}

  private final KeyPair merchant;
  private final String serial;
  private final PrivateKey otherPlatformKey;
  /** A platform certificate WeChat issued, with its private key (WeChat's). */
  private record Issued(KeyPair keys, X509Certificate certificate) {}

  /** Every platform certificate issued, the newest (the one WeChat signs with) last. */
  private final List<Issued> issued = new CopyOnWriteArrayList<>();
  private final AtomicInteger certificateDownloads = new AtomicInteger();
  private volatile boolean noCertificates;
  private volatile boolean proxyNotFound;
  /** Each request's Wechatpay-Serial, "" for none, in the order they came. */
  private final List<String> requestSerials = new CopyOnWriteArrayList<>();
  private volatile boolean switching;
  private final Vertx vertx = Vertx.vertx();
  private final HttpServer server;
  private final Map<String, Trade> trades = new ConcurrentHashMap<>();
  private final Map<LocalDate, byte[]> bills = new ConcurrentHashMap<>();
  private final Set<LocalDate> billsNotReady = ConcurrentHashMap.newKeySet();
  /** The files behind the download_urls given, by token. */
  private final Map<String, byte[]> downloads = new ConcurrentHashMap<>();
  private final AtomicInteger billDownloads = new AtomicInteger();
  private volatile boolean tamperedBills;
  private volatile String answerMchId = WechatV3Notifications.MCH_ID;
  private volatile String answerOutTradeNo;
  private volatile String answerSerial = WechatV3Notifications.PUBLIC_KEY_ID;
  private volatile Path keyFile;

  private WechatV3StandIn() throws GeneralSecurityException {
    KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
    rsa.initialize(2048);
    merchant = rsa.generateKeyPair();
    otherPlatformKey = rsa.generateKeyPair().getPrivate();
    byte[] serialBytes = new byte[20];
    new Random().nextBytes(serialBytes);
    serialBytes[0] &= 0x7F; // a positive certificate serial, as WeChat issues them
    serial = HexFormat.of().withUpperCase().formatHex(serialBytes);
    rotateCertificate();
    server = vertx.createHttpServer()
        .requestHandler(request -> request.body().onSuccess(body -> handle(request, body.getBytes())))
        .listen(0, "127.0.0.1").await();
  }

  /**
   * wechatpay-java's configuration for the vectors' merchant with this stand-in's merchant key and serial; its
   * HTTP client ({@link #sdkHttpClient}) goes here, the SDK's host being fixed.
   */
  public com.wechat.pay.java.core.RSAPublicKeyConfig sdkConfig() {
    return new com.wechat.pay.java.core.RSAPublicKeyConfig.Builder()
        .merchantId(WechatV3Notifications.MCH_ID)
        .privateKeyFromPath(merchantKeyFile().toString())
        .merchantSerialNumber(merchantSerial())
        .publicKey(WechatV3Notifications.PUBLIC_KEY_PEM)
        .publicKeyId(WechatV3Notifications.PUBLIC_KEY_ID)
        .apiV3Key(WechatV3Notifications.APIV3_KEY)
        .build();
  }

  /** The SDK's HTTP client for {@code config}, every request rewritten by an OkHttp interceptor to come here. */
  public com.wechat.pay.java.core.http.HttpClient sdkHttpClient(com.wechat.pay.java.core.Config config) {
    return sdkHttpClientBuilder().config(config).build();
  }

  /**
   * The SDK's HTTP client builder, its OkHttp client sending every request here: what RSAAutoCertificateConfig's
   * {@code httpClientBuilder} takes, to download with its own credential and (empty) validator, as against WeChat.
   */
  public com.wechat.pay.java.core.http.DefaultHttpClientBuilder sdkHttpClientBuilder() {
    URI here = url();
    okhttp3.OkHttpClient toStandIn = new okhttp3.OkHttpClient.Builder()
        .addInterceptor(chain -> chain.proceed(chain.request().newBuilder().url(chain.request().url().newBuilder()
            .scheme("http").host(here.getHost()).port(here.getPort()).build()).build()))
        .build();
    return new com.wechat.pay.java.core.http.DefaultHttpClientBuilder().okHttpClient(toStandIn);
  }

  public static WechatV3StandIn start() {
    try {
      return new WechatV3StandIn();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot start the WeChat Pay v3 stand-in: " + e, e);
    }
  }

  @Override
  public URI url() {
    return URI.create("http://127.0.0.1:" + server.actualPort());
  }

  /** The merchant API certificate's serial (wechat_v3.merchant_serial_no). */
  public String merchantSerial() {
    return serial;
  }

  /** The merchant private key, PKCS#8 PEM, in a file of mode 600 (wechat_v3.merchant_private_key_file). */
  public synchronized Path merchantKeyFile() {
    if (keyFile == null) {
      keyFile = privateKeyFile("wechat-v3-merchant", merchant.getPrivate());
    }
    return keyFile;
  }

  @Override
  public JsonObject configure(JsonObject config) {
    return config.mergeIn(new JsonObject().put("wechat_v3", new JsonObject()
        .put("merchant_private_key_file", merchantKeyFile().toString())
        .put("merchant_serial_no", serial)
        .put("gateway_url", url().toString())), true);
  }

  @Override
  public void paid(String outTradeNo, String tradeNo, String amount) {
    trades.put(outTradeNo, new Trade("SUCCESS", tradeNo, Long.parseLong(amount), beijingNow()));
  }

  @Override
  public void paidAt(String outTradeNo, LocalDateTime beijingTime) {
    trades.computeIfPresent(outTradeNo, (k, t) -> new Trade(t.state(), t.tradeNo(), t.cents(), beijingTime));
  }

  /** The paid trade was (partly) refunded: trade_state REFUND (转入退款), its payment's fields kept. */
  @Override
  public void refunded(String outTradeNo) {
    trades.computeIfPresent(outTradeNo, (k, t) -> new Trade("REFUND", t.tradeNo(), t.cents(), t.paidAt()));
  }

  @Override
  public void waiting(String outTradeNo) {
    trades.put(outTradeNo, new Trade("NOTPAY", null, 0, null));
  }

  @Override
  public void closed(String outTradeNo) {
    trades.put(outTradeNo, new Trade("CLOSED", null, 0, null));
  }

  @Override
  public String state(String outTradeNo) {
    Trade trade = trades.get(outTradeNo);
    return trade == null ? null : trade.state();
  }

  /** Transactions answered carry this mchid (another merchant's, for a test), signed as usual. */
  public void answerMchId(String mchId) {
    answerMchId = mchId;
  }

  /** Transactions answered name this order instead of the one asked about (a mix-up, or a replayed answer). */
  public void answerOutTradeNo(String outTradeNo) {
    answerOutTradeNo = outTradeNo;
  }

  /** Answers are signed with the platform key but name this Wechatpay-Serial (one the client does not know). */
  public void answerSerial(String serialOrId) {
    answerSerial = serialOrId;
  }

  /**
   * A merchant in WeChat's switch to the public key: answers are signed with the public key only when the request's
   * {@code Wechatpay-Serial} names its id ({@link WechatV3Notifications#PUBLIC_KEY_ID}), else with the platform
   * certificate, as WeChat does ("应答使用公钥的比例是商户自己控制的，通过商户的http请求头的Wechatpay-Serial带微信支付公钥ID还是平台证书ID来判断").
   * Off (the default): every answer signed with the public key.
   */
  public void switching(boolean on) {
    switching = on;
  }

  /** The merchant's platform certificate (平台证书), the newest: used while {@link #switching}. */
  public X509Certificate platformCertificate() {
    return newest().certificate();
  }

  /** Its serial as WeChat writes it in Wechatpay-Serial: upper-case hex. */
  public String platformCertificateSerial() {
    return serial(newest().certificate());
  }

  /** The platform certificate's private key: WeChat's, to sign notifications in a test. */
  public PrivateKey platformCertificateKey() {
    return newest().keys().getPrivate();
  }

  /**
   * WeChat issues a new platform certificate (a rotation): listed by /v3/certificates beside the older ones, and
   * from now on the one answers (while {@link #switching}) are signed with.
   */
  public synchronized void rotateCertificate() {
    try {
      KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
      rsa.initialize(2048);
      KeyPair keys = rsa.generateKeyPair();
      byte[] certificateSerial = new byte[20];
      new Random().nextBytes(certificateSerial);
      certificateSerial[0] &= 0x7F; // positive, as WeChat's
      certificateSerial[0] |= 0x10; // and 40 hex digits, as WeChat writes them
      issued.add(new Issued(keys, PlatformCertificates.selfSigned(keys, new BigInteger(1, certificateSerial))));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * A merchant with no platform certificate (opened since late 2024, or moved to the public key): /v3/certificates
   * answers 404 RESOURCE_NOT_EXISTS, as WeChat does.
   */
  public void noCertificates(boolean none) {
    noCertificates = none;
  }

  /**
   * WeChat withdraws every platform certificate but the newest: /v3/certificates lists that one only, though the others
   * are still valid.
   */
  public synchronized void withdrawOlderCertificates() {
    issued.retainAll(List.of(newest()));
  }

  /**
   * A proxy (or a wrong gateway_url) in front: /v3/certificates answers a bare 404 page, unsigned, no WeChat error code;
   * still counted as a download asked.
   */
  public void proxyNotFound(boolean on) {
    proxyNotFound = on;
  }

  /**
   * A payment's notification as WeChat sends it now, signed with the newest platform certificate's key; under
   * {@code serial} (its own, or a forged one: {@link #forgedSerial}).
   */
  public Notification paidSignedWithCertificate(String orderNo, String tradeNo, long cents, String serial) {
    return WechatV3Notifications.notification(WechatV3Notifications.transaction(orderNo, tradeNo, cents),
        Instant.now().getEpochSecond(), platformCertificateKey(), serial);
  }

  /** A serial written as WeChat writes one (40 hex digits) that names no certificate. */
  public static String forgedSerial(Random random) {
    byte[] serial = new byte[20];
    random.nextBytes(serial);
    return HexFormat.of().withUpperCase().formatHex(serial);
  }

  /** How many times /v3/certificates was asked (with a valid Authorization). */
  public int certificateDownloads() {
    return certificateDownloads.get();
  }

  private Issued newest() {
    return issued.get(issued.size() - 1);
  }

  private static String serial(X509Certificate certificate) {
    return certificate.getSerialNumber().toString(16).toUpperCase(java.util.Locale.ROOT);
  }

  /** Each request's {@code Wechatpay-Serial} header so far, "" where it had none. */
  public List<String> requestSerials() {
    return List.copyOf(requestSerials);
  }

  /** {@code csv} is the ALL bill of {@code date}. */
  public void bill(LocalDate date, byte[] csv) {
    bills.put(date, csv);
  }

  /** The bill of {@code date} is not made yet: 400 STATEMENT_CREATING. */
  public void billNotReady(LocalDate date) {
    billsNotReady.add(date);
  }

  /** How many times a bill's file was downloaded. */
  public int billDownloads() {
    return billDownloads.get();
  }

  /** The files downloaded from now on differ from the bill whose SHA1 the signed answer gives (one byte). */
  public void tamperedBills(boolean tampered) {
    tamperedBills = tampered;
  }

  @Override
  public void close() {
    vertx.close().await();
    if (keyFile != null) {
      try {
        Files.deleteIfExists(keyFile);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  private void handle(HttpServerRequest request, byte[] body) {
    switch (mode()) {
      case DOWN -> request.response().setStatusCode(503).end("Service Unavailable");
      case SLOW -> vertx.setTimer(SLOW_MILLIS, t -> request.connection().close());
      default -> {
        String requested = request.getHeader(WechatV3Signature.SERIAL_HEADER);
        requestSerials.add(requested == null ? "" : requested);
        if (authorized(request, body)) {
          route(request, body);
        } else {
          refusedOne();
          answer(request, 401, error("SIGN_ERROR", "签名错误"));
        }
      }
    }
  }

  /** The merchant's signature over METHOD\nPATH?QUERY\ntimestamp\nnonce\nBODY\n, by its mchid and serial. */
  private boolean authorized(HttpServerRequest request, byte[] body) {
    String authorization = request.getHeader("Authorization");
    String prefix = WechatV3Signature.SIGNATURE_TYPE + " ";
    if (authorization == null || !authorization.startsWith(prefix)) {
      return false;
    }
    Map<String, String> fields = new HashMap<>();
    Matcher field = AUTH_FIELD.matcher(authorization.substring(prefix.length()));
    while (field.find()) {
      fields.put(field.group(1), field.group(2));
    }
    if (!WechatV3Notifications.MCH_ID.equals(fields.get("mchid")) || !serial.equals(fields.get("serial_no"))
        || !fields.containsKey("nonce_str") || !fields.containsKey("signature") || !fields.containsKey("timestamp")) {
      return false;
    }
    String message = request.method().name() + "\n" + request.uri() + "\n" + fields.get("timestamp") + "\n"
        + fields.get("nonce_str") + "\n" + new String(body, StandardCharsets.UTF_8) + "\n";
    try {
      if (Math.abs(Instant.now().getEpochSecond() - Long.parseLong(fields.get("timestamp"))) > 300) {
        return false; // WeChat refuses a request more than 5 minutes off
      }
      Signature verifier = Signature.getInstance("SHA256withRSA");
      verifier.initVerify(merchant.getPublic());
      verifier.update(message.getBytes(StandardCharsets.UTF_8));
      return verifier.verify(Base64.getDecoder().decode(fields.get("signature")));
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      return false;
    }
  }

  private void route(HttpServerRequest request, byte[] body) {
    String path = URI.create(request.uri()).getPath();
    String method = request.method().name();
    if (method.equals("GET") && path.equals(TRADE_BILL)) {
      tradeBill(request);
    } else if (method.equals("GET") && path.equals(CERTIFICATES)) {
      certificateDownloads.incrementAndGet();
      if (proxyNotFound) {
        request.response().setStatusCode(404).putHeader("Content-Type", "text/html")
            .end("<html><body><h1>404 Not Found</h1>nginx</body></html>");
      } else if (noCertificates) {
        answer(request, 404, error("RESOURCE_NOT_EXISTS", "无可用的平台证书，请在商户平台-API安全申请使用微信支付公钥。"
            + "可查看指引https://pay.weixin.qq.com/docs/merchant/products/platform-certificate/wxp-pub-key-guide.html"));
      } else {
        answer(request, 200, certificates().encode());
      }
    } else if (method.equals("GET") && path.equals(DOWNLOAD)) {
      billDownloads.incrementAndGet();
      byte[] file = downloads.get(form(request.query()).getOrDefault("token", ""));
      if (file == null) {
        answer(request, 400, error("INVALID_REQUEST", "下载地址已失效"));
      } else {
        request.response().putHeader("Content-Type", "application/octet-stream").end(Buffer.buffer(file));
      }
    } else if (!path.startsWith(QUERY)) {
      answer(request, 404, error("NOT_FOUND", "no such API"));
    } else if (method.equals("GET") && !path.endsWith("/close")) {
      String outTradeNo = path.substring(QUERY.length());
      if (!("mchid=" + WechatV3Notifications.MCH_ID).equals(request.query())) {
        answer(request, 400, error("PARAM_ERROR", "mchid 与请求头不一致"));
        return;
      }
      queried(outTradeNo);
      Trade trade = trades.get(outTradeNo);
      answer(request, trade == null ? 404 : 200, trade == null ? error("ORDER_NOT_EXIST", "订单不存在")
          : transaction(outTradeNo, trade).encode());
    } else if (method.equals("POST") && path.endsWith("/close")) {
      String outTradeNo = path.substring(QUERY.length(), path.length() - "/close".length());
      if (!WechatV3Notifications.MCH_ID.equals(mchId(body))) {
        answer(request, 400, error("PARAM_ERROR", "mchid 与请求头不一致"));
        return;
      }
      closeRequested(outTradeNo);
      close(request, outTradeNo);
    } else {
      answer(request, 405, error("INVALID_REQUEST", "method not allowed"));
    }
  }

  /** The documented answers: the SHA1 of the plain bill and where to get it, or the 400 saying why not. */
  private void tradeBill(HttpServerRequest request) {
    Map<String, String> query = form(request.query());
    LocalDate date = LocalDate.parse(query.get("bill_date"));
    byte[] bill = bills.get(date);
    if (billsNotReady.contains(date)) {
      answer(request, 400, error("STATEMENT_CREATING", "账单生成中"));
    } else if (bill == null) {
      answer(request, 400, error("NO_STATEMENT_EXIST", "账单文件不存在"));
    } else {
      String hash = sha1(bill);
      if (tamperedBills) {
        bill = bill.clone();
        bill[bill.length - 1] ^= 1;
      }
      String token = UUID.randomUUID().toString().replace("-", "");
      downloads.put(token, "GZIP".equals(query.get("tar_type")) ? gzip(bill) : bill);
      answer(request, 200, new JsonObject().put("hash_type", "SHA1").put("hash_value", hash)
          .put("download_url", url() + DOWNLOAD + "?token=" + token).encode());
    }
  }

  /**
   * The platform certificates' list, every one issued, each sealed with the APIv3 key (AEAD_AES_256_GCM,
   * associated_data "certificate", a nonce of its own).
   */
  private JsonObject certificates() {
    DateTimeFormatter rfc3339 = DateTimeFormatter.ISO_OFFSET_DATE_TIME;
    JsonArray data = new JsonArray();
    for (Issued i : issued) {
      X509Certificate certificate = i.certificate();
      String nonce = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
      String sealed = new com.wechat.pay.java.core.cipher.AeadAesCipher(
          WechatV3Notifications.APIV3_KEY.getBytes(StandardCharsets.UTF_8)).encrypt(
          "certificate".getBytes(StandardCharsets.UTF_8), nonce.getBytes(StandardCharsets.UTF_8),
          PlatformCertificates.pem(certificate).getBytes(StandardCharsets.UTF_8));
      data.add(new JsonObject()
          .put("serial_no", serial(certificate))
          .put("effective_time", certificate.getNotBefore().toInstant().atOffset(ZoneOffset.ofHours(8)).format(rfc3339))
          .put("expire_time", certificate.getNotAfter().toInstant().atOffset(ZoneOffset.ofHours(8)).format(rfc3339))
          .put("encrypt_certificate", new JsonObject().put("algorithm", "AEAD_AES_256_GCM").put("nonce", nonce)
              .put("associated_data", "certificate").put("ciphertext", sealed)));
    }
    return new JsonObject().put("data", data);
  }

  private static String sha1(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(bytes));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String mchId(byte[] body) {
    try {
      return new JsonObject(Buffer.buffer(body)).getString("mchid");
    } catch (DecodeException | ClassCastException e) {
      return null;
    }
  }

  private void close(HttpServerRequest request, String outTradeNo) {
    Trade trade = trades.get(outTradeNo);
    if (trade == null) {
      answer(request, 404, error("ORDER_NOT_EXIST", "订单不存在"));
    } else if (trade.state().equals("SUCCESS") || trade.state().equals("REFUND")) {
      answer(request, 400, error("ORDERPAID", "订单已支付"));
    } else if (trade.state().equals("CLOSED")) {
      answer(request, 400, error("ORDER_CLOSED", "订单已关闭"));
    } else {
      trades.put(outTradeNo, new Trade("CLOSED", null, 0, null));
      answer(request, 204, "");
    }
  }

  /** The Transaction of the query's answer: a paid one as its notification's resource carries it. */
  private JsonObject transaction(String outTradeNo, Trade trade) {
    JsonObject transaction = trade.tradeNo() != null
        ? WechatV3Notifications.transaction(outTradeNo, trade.tradeNo(), trade.cents())
            .put("success_time", trade.paidAt().atOffset(ZoneOffset.ofHours(8)).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME))
        : new JsonObject().put("mchid", WechatV3Notifications.MCH_ID).put("appid", WechatV3Notifications.APP_ID)
            .put("out_trade_no", outTradeNo).put("trade_state_desc", trade.state().equals("CLOSED") ? "订单已关闭" : "订单未支付")
            .put("amount", new JsonObject().put("payer_currency", "CNY"));
    if (answerOutTradeNo != null) {
      transaction.put("out_trade_no", answerOutTradeNo);
    }
    return transaction.put("trade_state", trade.state()).put("mchid", answerMchId);
  }

  private static String error(String code, String message) {
    return new JsonObject().put("code", code).put("message", message).encode();
  }

  /** {@code body} with WeChat's signature headers (all answers are signed, errors too). */
  private void answer(HttpServerRequest request, int status, String body) {
    String timestamp = Long.toString(Instant.now().getEpochSecond());
    String nonce = UUID.randomUUID().toString().replace("-", "");
    // while switching, the public key only for a request that names it; the certificate for any other
    boolean byCertificate = switching
        && !WechatV3Notifications.PUBLIC_KEY_ID.equals(request.getHeader(WechatV3Signature.SERIAL_HEADER));
    PrivateKey platformKey = mode() == Mode.BAD_SIGNATURE ? otherPlatformKey
        : byCertificate ? platformCertificateKey() : WechatV3Notifications.PRIVATE_KEY;
    var response = request.response().setStatusCode(status)
        .putHeader("Request-ID", UUID.randomUUID().toString())
        .putHeader(WechatV3Signature.TIMESTAMP_HEADER, timestamp)
        .putHeader(WechatV3Signature.NONCE_HEADER, nonce)
        .putHeader(WechatV3Signature.SERIAL_HEADER, byCertificate ? platformCertificateSerial() : answerSerial)
        .putHeader(WechatV3Signature.SIGNATURE_HEADER, sign(platformKey, timestamp + "\n" + nonce + "\n" + body + "\n"));
    if (!body.isEmpty()) {
      response.putHeader("Content-Type", "application/json");
    }
    response.end(body);
  }

  private static String sign(PrivateKey key, String message) {
    try {
      Signature signer = Signature.getInstance("SHA256withRSA");
      signer.initSign(key);
      signer.update(message.getBytes(StandardCharsets.UTF_8));
      return Base64.getEncoder().encodeToString(signer.sign());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
