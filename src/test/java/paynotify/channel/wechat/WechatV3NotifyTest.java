package paynotify.channel.wechat;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.Notification;
import paynotify.testsupport.PlatformCertificates;
import paynotify.testsupport.ServiceTestBase;
import paynotify.testsupport.TestService;
import paynotify.testsupport.Vectors;
import paynotify.testsupport.WechatV3Notifications;

/** POST /notify/wechat/v3 over HTTP on the real database (timestamp window off, the default). */
class WechatV3NotifyTest extends ServiceTestBase {
  static final String TRADE = "4200000000202611290000009999";

  static Stream<JsonObject> cases() {
    return Vectors.cases(WechatV3Notifications.VECTORS).stream();
  }

  static Notification vector(JsonObject c) {
    JsonObject r = c.getJsonObject("request");
    java.util.Map<String, String> headers = new java.util.LinkedHashMap<>();
    r.getJsonObject("headers").forEach(h -> headers.put(h.getKey(), (String) h.getValue()));
    return new Notification("POST", WechatV3Notifications.PATH, headers,
        r.getString("body").getBytes(java.nio.charset.StandardCharsets.UTF_8), null);
  }

  /** With the window off, stale_timestamp is accepted (as the SDK does); the window test is below. */
  @ParameterizedTest(name = "{index} {0}")
  @MethodSource("cases")
  void serviceAcceptsTheValidVectors(JsonObject c) {
    JsonObject expect = c.getJsonObject("expect");
    boolean valid = expect.getBoolean("valid") || c.getString("name").equals("stale_timestamp");
    JsonObject plain = new JsonObject(c.getJsonObject("debug").getString("resource_plaintext"));
    String orderNo = plain.getString("out_trade_no");
    db.insertOrder(orderNo, plain.getJsonObject("amount").getLong("total"));

    Reply reply = service.send(vector(c));
    if (!valid) {
      assertThat(reply.status()).isBetween(400, 499);
      assertThat(new JsonObject(reply.body()).getString("code")).isEqualTo("FAIL");
      assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
      assertThat(db.orderStatus(orderNo)).isEqualTo("unpaid");
    } else if (plain.containsKey("refund_id")) { // its payment is not booked here: the refund waits for it
      assertThat(reply.status()).isEqualTo(204);
      assertThat(db.string("SELECT CONCAT(refund_no, ' ', amount_cents, ' ', status) FROM refunds"))
          .isEqualTo(plain.getString("refund_id") + " " + plain.getJsonObject("amount").getLong("refund") + " pending");
    } else {
      assertThat(reply.status()).isEqualTo(204);
      assertThat(db.orderStatus(orderNo)).isEqualTo("paid");
      assertThat(db.string("SELECT CONCAT(channel, ' ', trade_no) FROM payments"))
          .isEqualTo("wechat " + plain.getString("transaction_id"));
    }
  }

  @Test
  void retryCarryingTheOriginalOldTimestampIsBookedOnce() {
    db.insertOrder("V1", 700);
    long anHourAgo = System.currentTimeMillis() / 1000 - 3600;
    JsonObject tx = WechatV3Notifications.transaction("V1", TRADE, 700);
    Notification first = WechatV3Notifications.notification(tx, anHourAgo, WechatV3Notifications.PRIVATE_KEY,
        WechatV3Notifications.PUBLIC_KEY_ID);
    Notification retry = WechatV3Notifications.notification(tx, anHourAgo, WechatV3Notifications.PRIVATE_KEY,
        WechatV3Notifications.PUBLIC_KEY_ID);

    assertThat(service.send(first).status()).isEqualTo(204);
    assertThat(service.send(retry).status()).isEqualTo(204);
    assertThat(db.payments(TRADE)).isEqualTo(1);
    assertThat(db.outcomes("wechat:pay:" + TRADE)).isEqualTo("processed,duplicate");
  }

  @Test
  void withTheWindowOnAnOldTimestampIsRejected() {
    db.insertOrder("V2", 700);
    long anHourAgo = System.currentTimeMillis() / 1000 - 3600;
    try (TestService windowed = TestService.start(db.settings(),
        new JsonObject().put("wechat_v3", new JsonObject().put("timestamp_window_seconds", 300)))) {
      Reply old = windowed.send(WechatV3Notifications.notification(WechatV3Notifications.transaction("V2", TRADE, 700),
          anHourAgo, WechatV3Notifications.PRIVATE_KEY, WechatV3Notifications.PUBLIC_KEY_ID));
      assertThat(old.status()).isEqualTo(401);
      assertThat(db.payments(TRADE)).isZero();

      assertThat(windowed.send(WechatV3Notifications.payment("V2", TRADE, 700)).status()).isEqualTo(204);
    }
    assertThat(db.payments(TRADE)).isEqualTo(1);
  }

  @Test
  void signatureProbeIsRefused() {
    db.insertOrder("V3", 700);
    Notification probe = WechatV3Notifications.withHeader(WechatV3Notifications.payment("V3", TRADE, 700),
        WechatV3Signature.SIGNATURE_HEADER, "WECHATPAY/SIGNTEST/" + Base64.getEncoder().encodeToString(new byte[64]));
    Reply reply = service.send(probe);
    assertThat(reply.status()).isEqualTo(401);
    assertThat(new JsonObject(reply.body()).getString("code")).isEqualTo("FAIL");
    assertThat(db.payments(TRADE)).isZero();
  }

  @Test
  void tamperedCiphertextIsRejectedEvenWithAValidSignature() {
    db.insertOrder("V4", 700);
    Notification genuine = WechatV3Notifications.payment("V4", TRADE, 700);
    JsonObject body = new JsonObject(new String(genuine.body(), java.nio.charset.StandardCharsets.UTF_8));
    byte[] cipher = Base64.getDecoder().decode(body.getJsonObject("resource").getString("ciphertext"));
    cipher[3] ^= 1;
    body.getJsonObject("resource").put("ciphertext", Base64.getEncoder().encodeToString(cipher));
    Notification resigned = WechatV3Notifications.signedBody(body.encode(), System.currentTimeMillis() / 1000,
        WechatV3Notifications.PRIVATE_KEY, WechatV3Notifications.PUBLIC_KEY_ID);

    Reply reply = service.send(resigned);
    assertThat(reply.status()).isEqualTo(400);
    assertThat(db.payments(TRADE)).isZero();
    service.awaitLogRecorded();
    assertThat(db.string("SELECT detail FROM notify_log")).startsWith("DECRYPT_FAILED");
  }

  @Test
  void unknownSerialIsRefused() {
    Notification n = WechatV3Notifications.withHeader(WechatV3Notifications.payment("V5", TRADE, 700),
        WechatV3Signature.SERIAL_HEADER, "PUB_KEY_ID_0119000123452024010100000000000001");
    assertThat(service.send(n).status()).isEqualTo(401);
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
  }

  @Test
  void severalPlatformKeysAreAcceptedAtOnce() throws Exception {
    KeyPair second = KeyPairGenerator.getInstance("RSA").generateKeyPair();
    String secondPem = "-----BEGIN PUBLIC KEY-----\n"
        + Base64.getMimeEncoder().encodeToString(second.getPublic().getEncoded()) + "\n-----END PUBLIC KEY-----\n";
    JsonArray keys = new JsonArray()
        .add(new JsonObject().put("id", WechatV3Notifications.PUBLIC_KEY_ID).put("key", WechatV3Notifications.PUBLIC_KEY_PEM))
        .add(new JsonObject().put("id", "PUB_KEY_ID_SECOND").put("key", secondPem));
    db.insertOrder("V6", 100);
    db.insertOrder("V7", 100);
    try (TestService both = TestService.start(db.settings(),
        new JsonObject().put("wechat_v3", new JsonObject().put("platform_keys", keys)))) {
      assertThat(both.send(WechatV3Notifications.payment("V6", "4200000000202611290000000006", 100)).status())
          .isEqualTo(204);
      assertThat(both.send(WechatV3Notifications.notification(
          WechatV3Notifications.transaction("V7", "4200000000202611290000000007", 100),
          System.currentTimeMillis() / 1000, second.getPrivate(), "PUB_KEY_ID_SECOND")).status()).isEqualTo(204);
    }
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isEqualTo(2);
  }

  /** A platform certificate (made here by the JDK's keytool) is named by its serial, as WeChat sends it. */
  @Test
  void platformCertificateIsKnownByItsSerial(@TempDir Path dir) throws Exception {
    Path store = dir.resolve("platform.p12");
    Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
        "-genkeypair", "-alias", "wechatpay", "-keyalg", "RSA", "-keysize", "2048", "-validity", "3650",
        "-dname", "CN=Tenpay.com Root CA test", "-storetype", "PKCS12", "-keystore", store.toString(),
        "-storepass", "changeit").redirectErrorStream(true).start();
    assertThat(keytool.waitFor()).isZero();
    KeyStore keys = KeyStore.getInstance("PKCS12");
    try (var in = Files.newInputStream(store)) {
      keys.load(in, "changeit".toCharArray());
    }
    X509Certificate cert = (X509Certificate) keys.getCertificate("wechatpay");
    String serial = cert.getSerialNumber().toString(16).toUpperCase();
    PrivateKey certKey = (PrivateKey) keys.getKey("wechatpay", "changeit".toCharArray());
    assertThat(sendSignedByCertificate(dir, cert, certKey, serial, "V8", "4200000000202611290000000008"))
        .isEqualTo(204);
  }

  /**
   * WeChat writes a serial as upper-case hex of its bytes, so one whose first byte is below 0x10
   * starts with '0' (BigInteger.toString(16) drops it). wechatpay-java looks certificates up by the
   * serial's value ({@code new BigInteger(header, 16)}): so do we, in any case, with leading zeros or not.
   */
  @Test
  void certificateSerialWithALeadingZeroIsKnown(@TempDir Path dir) throws Exception {
    BigInteger serial = new BigInteger("0A5F0E7D1C2B3A49586776859403B2A1C0D9E8F7", 16);
    KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
    rsa.initialize(2048);
    KeyPair pair = rsa.generateKeyPair();
    X509Certificate cert = PlatformCertificates.selfSigned(pair, serial);
    assertThat(serial.toString(16)).hasSize(39); // what used to name it: without its leading zero
    String header = "0A5F0E7D1C2B3A49586776859403B2A1C0D9E8F7"; // as the Wechatpay-Serial header carries it

    assertThat(sendSignedByCertificate(dir, cert, pair.getPrivate(), header, "V9", "4200000000202611290000000009"))
        .isEqualTo(204);
    assertThat(sendSignedByCertificate(dir, cert, pair.getPrivate(), header.toLowerCase(), "V10",
        "4200000000202611290000000010")).isEqualTo(204);
  }

  /** Starts a service knowing {@code cert} by its serial only (no id) and sends it one payment signed by {@code key}. */
  private static int sendSignedByCertificate(Path dir, X509Certificate cert, PrivateKey key, String serialHeader,
      String orderNo, String tradeNo) throws Exception {
    Path pem = Files.writeString(dir.resolve("cert.pem"), PlatformCertificates.pem(cert));
    db.insertOrder(orderNo, 100);
    JsonArray platformKeys = new JsonArray()
        .add(new JsonObject().put("id", WechatV3Notifications.PUBLIC_KEY_ID).put("key", WechatV3Notifications.PUBLIC_KEY_PEM))
        .add(new JsonObject().put("key_file", pem.toString()));
    int status;
    try (TestService withCert = TestService.start(db.settings(),
        new JsonObject().put("wechat_v3", new JsonObject().put("platform_keys", platformKeys)))) {
      status = withCert.send(WechatV3Notifications.notification(WechatV3Notifications.transaction(orderNo, tradeNo, 100),
          System.currentTimeMillis() / 1000, key, serialHeader)).status();
    }
    assertThat(db.payments(tradeNo)).isEqualTo(status == 204 ? 1 : 0);
    return status;
  }
}
