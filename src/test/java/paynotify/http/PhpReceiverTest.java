package paynotify.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.PhpReceiver;
import paynotify.testsupport.SiteTable;
import paynotify.testsupport.StandardWebhooks;
import paynotify.testsupport.TestDatabase;

/**
 * The PHP receiver of docs/forwarding.md, run by php against dujiaoka's tables, fed events with the headers
 * paynotify sends, signed here from the specs ({@link StandardWebhooks}; the old Paynotify-Signature written
 * the simplest way): it does the work once per webhook-id, answers 200 only after its commit, and refuses
 * what webhook-signature does not sign now with the secret.
 */
class PhpReceiverTest extends DatabaseTestBase {
  private static final String SECRET = "3f1c9a7e5b2d4c6e8f0a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f5a6";
  private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static TestDatabase site;
  private static SiteTable orders;
  private static PhpReceiver receiver;

  @BeforeAll
  static void startTheReceiverOnADujiaokaSite() {
    assumeTrue(PhpReceiver.available(), "php with pdo_mysql is not installed: the receiver of docs/forwarding.md is not run");
    site = db.scratch(TestDatabase.NAME + "_php_site");
    orders = SiteTable.dujiaoka(site).as(site, "orders"); // the receiver's statement names dujiaoka's own table
    orders.create();
    site.update(PhpReceiver.siteTable());
    receiver = PhpReceiver.start(site.settings(), SECRET);
  }

  @AfterAll
  static void stop() {
    if (receiver != null) {
      receiver.close();
      site.drop();
    }
  }

  @BeforeEach
  void aPaidOrder() {
    site.update("DELETE FROM paynotify_events");
    orders.empty();
    orders.insertOrder("O1", 1000);
    orders.setStatus("O1", 2); // paynotify moved it 1 -> 2; the receiver delivers it
  }

  private static String payment(String id) {
    return payment(id, 0);
  }

  /** payment.succeeded as paynotify writes it, after {@code refundedCents} refunded before it (of 1000). */
  private static String payment(String id, long refundedCents) {
    return "{\"id\":\"" + id + "\",\"type\":\"payment.succeeded\",\"livemode\":true,"
        + "\"created_at\":\"2026-11-30T20:01:02+08:00\","
        + "\"data\":{\"order_no\":\"O1\",\"channel\":\"alipay\",\"trade_no\":\"2026113022001447051234567890\","
        + "\"amount_cents\":1000,\"paid_at\":\"2026-11-30T20:01:01+08:00\",\"refunded_cents\":" + refundedCents
        + ",\"fulfil\":" + (refundedCents < 1000) + "}}";
  }

  /** The old Paynotify-Signature's v1: hex HMAC-SHA256(secret, "<t>.<raw body>"). */
  private static String stripeV1(String secret, long t, String body) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    return HexFormat.of().formatHex(mac.doFinal((t + "." + body).getBytes(StandardCharsets.UTF_8)));
  }

  /** A webhook-signature entry for {@code secret} as paynotify keys it. */
  private static String v1(String secret, String id, long t, String body) {
    return StandardWebhooks.v1(StandardWebhooks.whsec(secret), id, t, body);
  }

  private static long now() {
    return System.currentTimeMillis() / 1000;
  }

  /** The event's id: {"id":"evt_ and 32 hex digits. */
  private static String id(String body) {
    return body.substring(7, 43);
  }

  private static Map<String, String> webhookHeaders(String id, long t, String signature) {
    return Map.of("webhook-id", id, "webhook-timestamp", Long.toString(t), "webhook-signature", signature);
  }

  /** What paynotify sends with {@code body} at {@code t}: both schemes' headers, signed with the secret. */
  private static Map<String, String> signed(long t, String body) throws Exception {
    Map<String, String> headers = new HashMap<>(webhookHeaders(id(body), t, v1(SECRET, id(body), t, body)));
    headers.put("Paynotify-Event-Id", id(body));
    headers.put("Paynotify-Signature", "t=" + t + ",v1=" + stripeV1(SECRET, t, body));
    return headers;
  }

  private static Reply post(String body, Map<String, String> headers) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(receiver.url()))
        .timeout(Duration.ofSeconds(30))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body));
    headers.forEach(request::header);
    HttpResponse<String> r = CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
    return new Reply(r.statusCode(), r.body().strip());
  }

  private static long handled() {
    return site.count("SELECT COUNT(*) FROM paynotify_events");
  }

  @Test
  void aSignedEventIsHandledOnceAndADuplicateIdDoesNothing() throws Exception {
    String body = payment("evt_00000000000000000000000000000001");
    assertThat(post(body, signed(now(), body))).as(receiver.log()).isEqualTo(new Reply(200, "ok"));
    assertThat(handled()).isEqualTo(1);
    assertThat(site.string("SELECT body FROM paynotify_events")).isEqualTo(body);
    assertThat(orders.status("O1")).isEqualTo("4"); // delivered, in the transaction that recorded the id

    orders.setStatus("O1", 2); // were the work done again, it would show
    Reply again = post(body, signed(now(), body)); // a redelivery: the same id, signed anew
    assertThat(again.status()).isEqualTo(200);
    assertThat(again.body()).startsWith("duplicate");
    assertThat(handled()).isEqualTo(1);
    assertThat(orders.status("O1")).isEqualTo("2");
  }

  @Test
  void whatIsNotSignedWithTheSecretIsRefusedAndRecordsNothing() throws Exception {
    String body = payment("evt_00000000000000000000000000000002");
    String id = id(body);
    long t = now();
    assertThat(post(body, webhookHeaders(id, t, v1("another secret", id, t, body))).status()).isEqualTo(400);
    assertThat(post(body.replace("1000", "1"), signed(t, body)).status()).isEqualTo(400); // the body changed
    assertThat(post(body, webhookHeaders(id, t, v1(SECRET, id, t + 1, body))).status()).isEqualTo(400); // another t
    String other = "evt_0000000000000000000000000000000f"; // signed, but not the body's id
    assertThat(post(body, webhookHeaders(other, t, v1(SECRET, other, t, body))).status()).isEqualTo(400);
    assertThat(post(body, Map.of()).status()).isEqualTo(400);
    assertThat(post(body, webhookHeaders(id, t, v1(SECRET, id, t, body).replace("v1,", "v2,"))).status())
        .isEqualTo(400);
    assertThat(handled()).isZero();
    assertThat(orders.status("O1")).isEqualTo("2");

    // a valid v1 beside a stale one (a secret being rotated) is enough
    assertThat(post(body, webhookHeaders(id, t, v1("old secret", id, t, body) + " " + v1(SECRET, id, t, body))))
        .isEqualTo(new Reply(200, "ok"));
    assertThat(handled()).isEqualTo(1);
  }

  /** The old Paynotify-Signature, right, does not let through a delivery whose webhook-signature is wrong. */
  @Test
  void aWrongWebhookSignatureIsRefusedWhateverTheOldHeaderSays() throws Exception {
    String body = payment("evt_0000000000000000000000000000000b");
    long t = now();
    Map<String, String> headers = new HashMap<>(signed(t, body));
    headers.put("webhook-signature", v1("another secret", id(body), t, body));
    assertThat(post(body, headers).status()).isEqualTo(400);
    assertThat(handled()).isZero();
    assertThat(orders.status("O1")).isEqualTo("2");
  }

  /** Out of order: the order's refund told before its payment; the late payment delivers nothing. */
  @Test
  void anOrderRefundedBeforeItsDeliveryIsNeverDelivered() throws Exception {
    String refund = "{\"id\":\"evt_00000000000000000000000000000005\",\"type\":\"refund.succeeded\","
        + "\"created_at\":\"2026-11-30T20:05:00+08:00\",\"data\":{\"order_no\":\"O1\",\"channel\":\"alipay\","
        + "\"trade_no\":\"2026113022001447051234567890\",\"refund_no\":\"R1\",\"amount_cents\":1000,"
        + "\"refunded_total_cents\":1000,\"refunded_at\":null,\"paid_the_order\":true}}";
    assertThat(post(refund, signed(now(), refund))).isEqualTo(new Reply(200, "ok"));
    assertThat(orders.status("O1")).isEqualTo("6");

    String payment = payment("evt_00000000000000000000000000000006");
    assertThat(post(payment, signed(now(), payment))).isEqualTo(new Reply(200, "ok"));
    assertThat(orders.status("O1")).isEqualTo("6");
  }

  /**
   * M3: a payment whose booking also settled a refund of all of it (the refund came first) says
   * fulfil false: nothing is delivered, the order is left to its refund.succeeded (next) and a human.
   */
  @Test
  void aPaymentToldNotToFulfilDeliversNothing() throws Exception {
    String payment = payment("evt_00000000000000000000000000000008", 1000);
    assertThat(post(payment, signed(now(), payment))).isEqualTo(new Reply(200, "ok"));
    assertThat(handled()).isEqualTo(1);
    assertThat(orders.status("O1")).isEqualTo("2");

    String partly = payment("evt_00000000000000000000000000000009", 300); // partly refunded: still bought
    assertThat(post(partly, signed(now(), partly))).isEqualTo(new Reply(200, "ok"));
    assertThat(orders.status("O1")).isEqualTo("4");
  }

  /** A platform's test money (livemode false) delivers nothing on a live site, however paid. */
  @Test
  void aTestMoneyPaymentDeliversNothing() throws Exception {
    String payment = payment("evt_0000000000000000000000000000000a").replace("\"livemode\":true", "\"livemode\":false");
    assertThat(post(payment, signed(now(), payment))).isEqualTo(new Reply(200, "ok"));
    assertThat(handled()).isEqualTo(1);
    assertThat(orders.status("O1")).isEqualTo("2");
  }

  /** A second payment refunded leaves the order alone. */
  @Test
  void aSecondPaymentsRefundLeavesTheOrderAlone() throws Exception {
    String refund = "{\"id\":\"evt_00000000000000000000000000000007\",\"type\":\"refund.succeeded\","
        + "\"created_at\":\"2026-11-30T20:05:00+08:00\",\"data\":{\"order_no\":\"O1\",\"channel\":\"alipay\","
        + "\"trade_no\":\"T-second\",\"refund_no\":\"R2\",\"amount_cents\":1000,"
        + "\"refunded_total_cents\":1000,\"refunded_at\":null,\"paid_the_order\":false}}";
    assertThat(post(refund, signed(now(), refund))).isEqualTo(new Reply(200, "ok"));
    assertThat(orders.status("O1")).isEqualTo("2");
  }

  @Test
  void aSignatureOlderThanFiveMinutesOrFarAheadIsRefused() throws Exception {
    String body = payment("evt_00000000000000000000000000000003");
    // 310, not 301: php's time() may read a second later than now() here, and 301 ahead is then 300.
    assertThat(post(body, signed(now() - 310, body)).status()).isEqualTo(400);
    assertThat(post(body, signed(now() + 310, body)).status()).isEqualTo(400);
    assertThat(handled()).isZero();
    assertThat(post(body, signed(now() - 240, body))).isEqualTo(new Reply(200, "ok"));
  }

  /**
   * Issue 22: the receiver counts as started once php itself answers on its port; something else
   * listening there (a port taken between choosing it and php's bind) is not taken for it.
   */
  @Test
  void aPortHeldByAnotherProgramIsNotTakenForTheReceiver() throws Exception {
    try (ServerSocket other = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      assertThatThrownBy(() -> PhpReceiver.start(site.settings(), SECRET, other.getLocalPort()).close())
          .isInstanceOf(IllegalStateException.class).hasMessageContaining("php -S");
    }
  }

  @Test
  void aFailureAnswers500AndLeavesNothingSoTheRetryDoesTheWork() throws Exception {
    String body = payment("evt_00000000000000000000000000000004");
    site.update("RENAME TABLE orders TO orders_away"); // the work fails after the id was inserted
    try {
      assertThat(post(body, signed(now(), body)).status()).isEqualTo(500);
      assertThat(handled()).isZero(); // the id rolled back with it
    } finally {
      site.update("RENAME TABLE orders_away TO orders");
    }
    assertThat(post(body, signed(now(), body))).isEqualTo(new Reply(200, "ok"));
    assertThat(handled()).isEqualTo(1);
    assertThat(orders.status("O1")).isEqualTo("4");
  }
}
