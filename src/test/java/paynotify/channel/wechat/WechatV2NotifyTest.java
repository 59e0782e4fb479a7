package paynotify.channel.wechat;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.vertx.core.json.JsonObject;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.Notification;
import paynotify.testsupport.ServiceTestBase;
import paynotify.testsupport.TestService;
import paynotify.testsupport.Vectors;
import paynotify.testsupport.WechatV2Notifications;

/** POST /notify/wechat/v2 over HTTP on the real database: vectors, refunds, hostile XML. */
class WechatV2NotifyTest extends ServiceTestBase {
  private static final String XML = "text/xml; charset=UTF-8";

  /** The vectors for a merchant on the default sign_type, MD5 (the HMAC-SHA256 one is below). */
  static Stream<JsonObject> cases() {
    return Vectors.cases(WechatV2Notifications.VECTORS).stream().filter(c -> !isHmac(c));
  }

  private static boolean isHmac(JsonObject vector) {
    return WechatV2Signature.HMAC_SHA256.equals(vector.getJsonObject("debug", new JsonObject()).getString("sign_type"));
  }

  @ParameterizedTest(name = "{index} {0}")
  @MethodSource("cases")
  void serviceAcceptsExactlyTheValidVectors(JsonObject c) {
    JsonObject n = c.getJsonObject("expect").getJsonObject("normalized");
    if (n != null) {
      db.insertOrder(n.getString("order_no"), n.getLong("total_amount_cents", n.getLong("amount_cents")));
    }
    Reply reply = service.send(Notification.post(WechatV2Notifications.PATH, XML,
        c.getJsonObject("request").getString("body")));

    if (!c.getJsonObject("expect").getBoolean("valid")) {
      assertThat(reply.status()).isBetween(400, 499);
      assertThat(reply.body()).contains("<return_code><![CDATA[FAIL]]>");
      assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
      return;
    }
    switch (n.getString("event_kind")) {
      case "payment" -> {
        assertThat(reply.body()).contains("<return_code><![CDATA[SUCCESS]]>");
        assertThat(db.string("SELECT CONCAT(channel, ' ', order_no, ' ', amount_cents) FROM payments WHERE trade_no = ?",
            n.getString("trade_no"))).isEqualTo("wechat " + n.getString("order_no") + " " + n.getLong("amount_cents"));
      }
      case "refund" -> { // verified by decryption; its payment is not booked here, so it waits for it
        assertThat(reply.body()).contains("<return_code><![CDATA[SUCCESS]]>");
        assertThat(db.string("SELECT CONCAT(channel, ' ', refund_no, ' ', amount_cents, ' ', status) FROM refunds"))
            .isEqualTo("wechat " + n.getString("refund_no") + " " + n.getLong("amount_cents") + " pending");
      }
      default -> {
        assertThat(reply.body()).contains("<return_code><![CDATA[SUCCESS]]>");
        assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
        assertThat(db.orderStatus(n.getString("order_no"))).isEqualTo("unpaid");
      }
    }
  }

  @Test
  void externalEntityIsNeverFetched() throws Exception {
    AtomicInteger fetched = new AtomicInteger();
    HttpServer evil = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    evil.createContext("/", exchange -> {
      fetched.incrementAndGet();
      exchange.sendResponseHeaders(200, -1);
      exchange.close();
    });
    evil.start();
    try {
      String url = "http://127.0.0.1:" + evil.getAddress().getPort() + "/evil.dtd";
      String body = "<?xml version=\"1.0\"?><!DOCTYPE xml SYSTEM \"" + url + "\">"
          + "<xml><return_code>SUCCESS</return_code></xml>";
      String entity = "<?xml version=\"1.0\"?><!DOCTYPE xml [<!ENTITY % remote SYSTEM \"" + url + "\"> %remote;]>"
          + "<xml><return_code>SUCCESS</return_code></xml>";
      for (String xml : new String[] {body, entity}) {
        Reply reply = service.send(Notification.post(WechatV2Notifications.PATH, XML, xml));
        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.body()).contains("FAIL");
      }
      Thread.sleep(200);
      assertThat(fetched).hasValue(0);
    } finally {
      evil.stop(0);
    }
  }

  @Test
  void localFileEntityIsNotRead(@TempDir Path dir) throws Exception {
    Path secret = dir.resolve("secret.txt");
    Files.writeString(secret, "TOPSECRET");
    String xml = "<?xml version=\"1.0\"?><!DOCTYPE xml [<!ENTITY x SYSTEM \"" + secret.toUri() + "\">]>"
        + "<xml><return_code>SUCCESS</return_code><attach>&x;</attach></xml>";
    Reply reply = service.send(Notification.post(WechatV2Notifications.PATH, XML, xml));
    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply.body()).doesNotContain("TOPSECRET");
    service.awaitLogRecorded();
    assertThat(db.string("SELECT detail FROM notify_log")).contains("XML_DOCTYPE").doesNotContain("TOPSECRET");
  }

  @Test
  void billionLaughsIsRefusedWithoutExpanding() {
    StringBuilder dtd = new StringBuilder("<!DOCTYPE xml [<!ENTITY l0 \"lol\">");
    for (int i = 1; i <= 10; i++) {
      dtd.append("<!ENTITY l").append(i).append(" \"").append(("&l" + (i - 1) + ";").repeat(10)).append("\">");
    }
    String xml = "<?xml version=\"1.0\"?>" + dtd + "]><xml><attach>&l10;</attach></xml>";
    long start = System.nanoTime();
    Reply reply = service.send(Notification.post(WechatV2Notifications.PATH, XML, xml));
    assertThat(reply.status()).isEqualTo(400);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
  }

  @Test
  void unsignedPaymentIsRejected() {
    db.insertOrder("W1", 100);
    Reply reply = service.send(Notification.post(WechatV2Notifications.PATH, XML,
        WechatV2Notifications.xml(WechatV2Notifications.payment("W1", "T-W1", 100, 0))));
    assertThat(reply.status()).isEqualTo(401);
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
  }

  @Test
  void failedPaymentIsAcknowledgedAndBooksNothing() {
    db.insertOrder("W2", 100);
    var params = WechatV2Notifications.payment("W2", "T-W2", 100, 0);
    params.put("result_code", "FAIL");
    params.put("err_code", "ORDERPAID");
    assertThat(service.send(WechatV2Notifications.signed(params)).body()).contains("SUCCESS");
    assertThat(db.orderStatus("W2")).isEqualTo("unpaid");
    assertThat(db.string("SELECT outcome FROM notify_log")).isEqualTo("ignored");
  }

  /**
   * wechat_v2.sign_type is the merchant's, never the request's: for an HMAC-SHA256 merchant a valid
   * MD5 sign made with the same API key is refused, declared or not; the HMAC vector is accepted.
   */
  @Test
  void hmacMerchantRejectsMd5AndAcceptsHmac() {
    JsonObject vector = Vectors.cases(WechatV2Notifications.VECTORS).stream().filter(WechatV2NotifyTest::isHmac)
        .findFirst().orElseThrow();
    JsonObject n = vector.getJsonObject("expect").getJsonObject("normalized");
    db.insertOrder(n.getString("order_no"), n.getLong("amount_cents"));
    db.insertOrder("W3", 100);
    var declaredMd5 = WechatV2Notifications.payment("W3", "T-W3", 100, 1);
    declaredMd5.put(WechatV2Signature.SIGN_TYPE, WechatV2Signature.MD5);
    try (TestService hmac = TestService.start(db.settings(),
        new JsonObject().put("wechat_v2", new JsonObject().put("sign_type", "HMAC-SHA256")))) {
      Reply md5 = hmac.send(WechatV2Notifications.signed(WechatV2Notifications.payment("W3", "T-W3", 100, 0)));
      assertThat(md5.status()).isEqualTo(401);
      assertThat(hmac.send(WechatV2Notifications.signed(declaredMd5)).status()).isEqualTo(401);
      Reply accepted = hmac.send(Notification.post(WechatV2Notifications.PATH, XML,
          vector.getJsonObject("request").getString("body")));
      assertThat(accepted.body()).contains("<return_code><![CDATA[SUCCESS]]>");
    }
    assertThat(db.column("SELECT trade_no FROM payments")).containsExactly(n.getString("trade_no"));
    assertThat(db.column("SELECT detail FROM notify_log WHERE outcome = 'rejected' ORDER BY id")).containsExactly(
        "BAD_SIGNATURE: sign does not verify with the configured API key (wechat_v2.api_key_file)"
            + " and wechat_v2.sign_type (HMAC-SHA256)",
        "BAD_SIGNATURE: sign_type 'MD5' is not the configured wechat_v2.sign_type (HMAC-SHA256)");
  }

  @Test
  void md5MerchantRejectsHmac() {
    db.insertOrder("W5", 100);
    Reply reply = service.send(WechatV2Notifications.signed(WechatV2Notifications.payment("W5", "T-W5", 100, 0),
        WechatV2Notifications.API_KEY, WechatV2Signature.HMAC_SHA256));
    assertThat(reply.status()).isEqualTo(401);
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    service.awaitLogRecorded();
    assertThat(db.string("SELECT detail FROM notify_log"))
        .isEqualTo("BAD_SIGNATURE: sign_type 'HMAC-SHA256' is not the configured wechat_v2.sign_type (MD5)");
  }
  /** Review N1: attach holding &<a notify field>= could be re-split under the same sign: refused, nothing booked. */
  @Test
  void attachThatCouldBeReSplitIsRefused() {
    db.insertOrder("W6", 100);
    var params = WechatV2Notifications.payment("W6", "T-W6", 100, 0);
    params.put("attach", "x&total_fee=1&transaction_id=T-W7");
    assertThat(service.send(WechatV2Notifications.signed(params)).status()).isEqualTo(400);
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    assertThat(db.orderStatus("W6")).isEqualTo("unpaid");
    service.awaitLogRecorded();
    assertThat(db.string("SELECT detail FROM notify_log")).startsWith("MALFORMED: attach holds '&total_fee='");
  }

  @Test
  void attachWithAnAmpersandOfItsOwnStillBooks() {
    db.insertOrder("W7", 100);
    var params = WechatV2Notifications.payment("W7", "T-W7", 100, 0);
    params.put("attach", "Tea & Cake&uid=7");
    assertThat(service.send(WechatV2Notifications.signed(params)).body()).contains("SUCCESS");
    assertThat(db.orderStatus("W7")).isEqualTo("paid");
  }
}
