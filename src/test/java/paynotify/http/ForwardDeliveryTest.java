package paynotify.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import paynotify.testsupport.AlipayNotifications;
import paynotify.testsupport.ChannelFixture;
import paynotify.testsupport.Cli;
import paynotify.testsupport.Commands;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.Notification;
import paynotify.testsupport.SiteReceiver.Request;
import paynotify.testsupport.SiteReceiver;
import paynotify.testsupport.StandardWebhooks;
import paynotify.testsupport.TestService;

/**
 * Issue 11: what the site's endpoint really receives. A real HTTP receiver stands for the site; the
 * service books notifications as ever and its relay delivers the events of the outbox (forward_events):
 * the exact request, signed as Stripe signs (checked here by a verification written independently of
 * the service's, and by PHP's hash_hmac when php is installed), one event per booked fact whatever the
 * platform repeats, redelivered with the same id and bytes while the site fails, failed with an anomaly
 * after the last try, and nothing for a booking that rolled back.
 */
class ForwardDeliveryTest extends DatabaseTestBase {
  static final String SECRET = "fwd_delivery-test-Zq7v0PzK3m";
  private static final Duration WITHIN = Duration.ofSeconds(15);
  private static final ChannelFixture alipay = ChannelFixture.alipay();

  private static SiteReceiver site;
  private static TestService service;

  @TempDir
  Path dir;

  @BeforeAll
  static void startSiteAndService() throws Exception {
    site = SiteReceiver.start();
    service = TestService.start(db.settings(), forwarding(site, null));
  }

  @AfterAll
  static void stop() {
    try {
      service.close();
    } finally {
      site.close();
    }
  }

  @BeforeEach
  void siteAnswers200() {
    site.reset();
  }

  @AfterEach
  void removeInjectedFailures() {
    db.update("DROP TRIGGER IF EXISTS fail_payment_insert");
    db.update("DROP TRIGGER IF EXISTS fail_outbox_insert");
  }

  /** forward: to {@code site}, 1 s timeout, 3 attempts 1 s apart; {@code events} null: the default (all). */
  static JsonObject forwarding(SiteReceiver site, JsonArray events) {
    JsonObject forward = new JsonObject()
        .put("url", site.url())
        .put("secret", SECRET)
        .put("timeout_ms", 1000)
        .put("retry_schedule_seconds", new JsonArray().add(1).add(1));
    if (events != null) {
      forward.put("events", events);
    }
    return new JsonObject().put("forward", forward);
  }

  // --- the request ---

  @Test
  void aPaymentIsForwardedOnceExactlyAsTheContractSays() throws Exception {
    db.insertOrder("FW1", 1000);
    assertThat(service.send(alipay.payment("FW1", "T-FW1", 1000, 0))).matches(alipay.success());

    // Written by the booking itself: there when the platform got its "success".
    assertThat(db.column("SELECT type FROM forward_events WHERE order_no = 'FW1'")).containsExactly("payment.succeeded");
    String id = eventId("FW1", "payment.succeeded");
    assertThat(id).matches("evt_[0-9a-f]{32}");
    awaitState(id, "delivered");

    List<Request> requests = site.requestsFor(id);
    assertThat(requests).hasSize(1);
    Request r = requests.get(0);
    assertThat(r.answered()).isEqualTo(200);
    assertThat(r.header(":method")).isEqualTo("POST");
    assertThat(r.header(":path")).isEqualTo(SiteReceiver.PATH);
    assertThat(r.header("Content-Type")).isEqualTo("application/json");
    assertThat(r.eventId()).isEqualTo(id);
    assertSignedNow(r);

    JsonObject event = new JsonObject(r.bodyText());
    assertThat(event.fieldNames()).containsExactlyInAnyOrder("id", "type", "livemode", "created_at", "timestamp",
        "data");
    assertThat(event.getString("timestamp")).isEqualTo(event.getString("created_at"));
    assertThat(event.getString("id")).isEqualTo(id);
    assertThat(event.getString("type")).isEqualTo("payment.succeeded");
    assertThat(event.getBoolean("livemode")).isTrue();
    assertThat(event.getString("created_at")).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\+08:00");
    JsonObject data = event.getJsonObject("data");
    assertThat(data.fieldNames()).containsExactlyInAnyOrder("order_no", "channel", "trade_no", "amount_cents", "paid_at",
        "refunded_cents", "fulfil");
    assertThat(data.getLong("refunded_cents")).isZero(); // no refund came before it: deliver
    assertThat(data.getBoolean("fulfil")).isTrue();
    assertThat(data.getString("order_no")).isEqualTo("FW1");
    assertThat(data.getString("channel")).isEqualTo("alipay");
    assertThat(data.getString("trade_no")).isEqualTo("T-FW1");
    assertThat(data.getValue("amount_cents")).isInstanceOf(Number.class);
    assertThat(data.getLong("amount_cents")).isEqualTo(1000L);
    assertThat(data.getString("paid_at")).isEqualTo("2026-11-29T10:15:09+08:00"); // the fixture's gmt_payment

    // What was sent is what the outbox holds, byte for byte; the row says delivered.
    assertThat(db.string("SELECT body FROM forward_events WHERE event_id = ?", id)).isEqualTo(r.bodyText());
    assertThat(db.string("SELECT CONCAT(state, ' ', delivered_at IS NOT NULL) FROM forward_events WHERE event_id = ?", id))
        .isEqualTo("delivered 1");
  }

  /** The check the test relies on rejects what it must: another secret, another body, a stale t. */
  @Test
  void theIndependentVerificationRejectsWhatItMust() {
    byte[] body = "{\"id\":\"evt_0\"}".getBytes(StandardCharsets.UTF_8);
    long now = System.currentTimeMillis() / 1000;
    String header = "t=" + now + ",v1=" + hmacHex(SECRET, now + "." + new String(body, StandardCharsets.UTF_8));
    assertThat(signatureVerifies(header, body, SECRET)).isTrue();
    assertThat(signatureVerifies(header, body, SECRET + "x")).isFalse();
    assertThat(signatureVerifies(header, "{\"id\":\"evt_1\"}".getBytes(StandardCharsets.UTF_8), SECRET)).isFalse();
    assertThat(signatureVerifies(header.replace("t=" + now, "t=" + (now - 1)), body, SECRET)).isFalse();
    assertThat(signatureVerifies("v1=" + header.substring(header.indexOf("v1=") + 3), body, SECRET)).isFalse();
  }

  /** The receiver of docs/forwarding.md is PHP: the same request passes PHP's hash_hmac + hash_equals. */
  @Test
  void theSignatureVerifiesInPhp() throws Exception {
    Assumptions.assumeTrue(phpInstalled(), "php is not installed");
    db.insertOrder("FWphp", 1234);
    assertThat(service.send(alipay.payment("FWphp", "T-FWphp", 1234, 0))).matches(alipay.success());
    String id = eventId("FWphp", "payment.succeeded");
    awaitState(id, "delivered");
    Request r = site.requestsFor(id).get(0);

    Path body = Files.write(dir.resolve("body.json"), r.body());
    String php = """
        $body = file_get_contents($argv[1]); $header = $argv[2]; $secret = $argv[3];
        $parts = [];
        foreach (explode(',', $header) as $kv) { [$k, $v] = explode('=', $kv, 2); $parts[$k] = $v; }
        $expected = hash_hmac('sha256', $parts['t'] . '.' . $body, $secret);
        $fresh = abs(time() - (int) $parts['t']) <= 300;
        echo (hash_equals($expected, $parts['v1']) && $fresh) ? 'valid' : 'invalid';
        """;
    assertThat(runPhp(php, body.toString(), r.header("Paynotify-Signature"), SECRET)).isEqualTo("valid");
    assertThat(runPhp(php, body.toString(), r.header("Paynotify-Signature"), "another-secret")).isEqualTo("invalid");
  }

  // --- one event per booked fact ---

  @Test
  void aDuplicateNotificationCreatesNoSecondEvent() throws Exception {
    db.insertOrder("FW2", 500);
    Notification first = alipay.payment("FW2", "T-FW2", 500, 0);
    assertThat(service.send(first)).matches(alipay.success());
    assertThat(service.send(first)).matches(alipay.success());                              // the same bytes again
    assertThat(service.send(alipay.payment("FW2", "T-FW2", 500, 1))).matches(alipay.success()); // re-signed retry
    String id = eventId("FW2", "payment.succeeded");
    awaitState(id, "delivered");
    service.server().forwardRelay().runOnce().await(); // one more round now: nothing else is due

    assertThat(db.count("SELECT COUNT(*) FROM forward_events WHERE order_no = 'FW2'")).isEqualTo(1);
    assertThat(receivedFor("FW2")).hasSize(1);
  }

  @Test
  void whileTheSiteFailsTheEventIsRedeliveredWithTheSameIdAndBytes() throws Exception {
    site.answer(500);
    db.insertOrder("FW3", 700);
    assertThat(service.send(alipay.payment("FW3", "T-FW3", 700, 0))).matches(alipay.success());
    String id = eventId("FW3", "payment.succeeded");
    site.await(r -> id.equals(r.eventId()) && r.answered() == 500, WITHIN);
    awaitCount("SELECT COUNT(*) FROM forward_events WHERE event_id = ? AND attempts >= 1 AND state = 'pending'", id);
    site.answer(200);
    awaitState(id, "delivered");

    List<Request> requests = site.requestsFor(id);
    assertThat(requests.size()).isBetween(2, 3); // 3 attempts at most; the last one answered 200
    assertThat(requests.get(0).answered()).isEqualTo(500);
    assertThat(requests.get(requests.size() - 1).answered()).isEqualTo(200);
    assertThat(requests).filteredOn(r -> r.answered() == 200).hasSize(1);
    for (Request r : requests) {
      assertThat(r.eventId()).isEqualTo(id);
      assertThat(r.body()).isEqualTo(requests.get(0).body());
      assertSignedNow(r); // signed again at each attempt, with its own t
    }
    assertThat(db.string("SELECT body FROM forward_events WHERE event_id = ?", id)).isEqualTo(requests.get(0).bodyText());
  }

  @Test
  void pastTheLastTryTheEventFailsWithAnAnomalyThatIsNotForwarded() throws Exception {
    site.answer(500);
    db.insertOrder("FW4", 900);
    assertThat(service.send(alipay.payment("FW4", "T-FW4", 900, 0))).matches(alipay.success());
    String id = eventId("FW4", "payment.succeeded");
    awaitState(id, "failed");

    // retry_schedule_seconds [1, 1]: the first try and two retries, then failed.
    assertThat(db.string("SELECT CONCAT(attempts, ' ', last_error IS NOT NULL) FROM forward_events WHERE event_id = ?", id))
        .isEqualTo("3 1");
    assertThat(site.requestsFor(id)).hasSize(3).allSatisfy(r -> assertThat(r.answered()).isEqualTo(500));
    assertThat(db.count("SELECT COUNT(*) FROM anomalies WHERE kind = 'forward_failed'")).isEqualTo(1);

    // That anomaly is for a human, not an event: the site is the one not answering.
    site.answer(200);
    assertThat(service.server().forwardRelay().runOnce().await()).isZero();
    assertThat(db.count("SELECT COUNT(*) FROM forward_events WHERE type = 'anomaly.created'")).isZero();
    assertThat(db.string("SELECT state FROM forward_events WHERE event_id = ?", id)).isEqualTo("failed");
    assertThat(site.requests()).noneMatch(r -> r.bodyText().contains("anomaly.created"));
  }

  // Standard Webhooks: 429 (and 502, 503, 504) asks to be left alone; its Retry-After is waited, not the schedule's 1 s.
  @Test
  void aSiteAnswering429IsLeftAloneForItsRetryAfter() throws Exception {
    site.answer(429).answerHeaders(Map.of("Retry-After", "3"));
    db.insertOrder("FW429", 900);
    assertThat(service.send(alipay.payment("FW429", "T-FW429", 900, 0))).matches(alipay.success());
    String id = eventId("FW429", "payment.succeeded");
    Request first = site.await(r -> id.equals(r.eventId()) && r.answered() == 429, WITHIN);
    site.reset();
    awaitState(id, "delivered");

    List<Request> requests = site.requestsFor(id);
    assertThat(requests).hasSize(1); // reset() forgot the 429 one
    assertThat(requests.get(0).arrivedAtMillis() - first.arrivedAtMillis()).isGreaterThanOrEqualTo(2_900);
    assertThat(db.string("SELECT attempts FROM forward_events WHERE event_id = ?", id)).isEqualTo("2");
  }

  // Standard Webhooks: 410 Gone means the endpoint was removed. Nothing more is sent to it, by any instance, until
  // forward enable; the event waits, and one anomaly (one alert) says so.
  @Test
  void aSiteAnswering410IsNotSentToUntilEnabled() throws Exception {
    site.answer(410);
    db.insertOrder("FW410", 900);
    assertThat(service.send(alipay.payment("FW410", "T-FW410", 900, 0))).matches(alipay.success());
    String id = eventId("FW410", "payment.succeeded");
    site.await(r -> id.equals(r.eventId()) && r.answered() == 410, WITHIN);
    awaitCount("SELECT COUNT(*) FROM forward_events WHERE event_id = ? AND attempts = 1", id); // written after
    assertThat(db.string("SELECT disabled_reason FROM forward_endpoints WHERE name = 'site'"))
        .isEqualTo("410 Gone for event " + id + " (payment.succeeded)");
    db.insertOrder("FW410b", 900);
    assertThat(service.send(alipay.payment("FW410b", "T-FW410b", 900, 0))).matches(alipay.success());
    for (int round = 0; round < 3; round++) { // past the schedule's 1 s retries: nothing is claimed
      assertThat(service.server().forwardRelay().runOnce().await()).isZero();
      Thread.sleep(400);
    }
    assertThat(site.requests()).hasSize(1);
    assertThat(db.string("SELECT state FROM forward_events WHERE event_id = ?", id)).isEqualTo("pending");
    assertThat(db.column("SELECT kind FROM anomalies")).containsExactly("forward_endpoint_gone");
    JsonObject health = new JsonObject(paynotify.testsupport.Http.get(service.port(), "/health").body());
    assertThat(health.getJsonObject("forward").getBoolean("disabled")).isTrue();

    site.answer(200);
    Cli.Result enable = Cli.run("forward", "enable");
    assertThat(enable.exit()).as(enable.err()).isZero();
    assertThat(enable.out()).startsWith("enabled");
    awaitState(id, "delivered");
    awaitState(eventId("FW410b", "payment.succeeded"), "delivered");
    assertThat(Cli.run("forward", "enable").out()).startsWith("not disabled");
  }

  // A redirect is a failed attempt, never followed: the signed event goes only where it was configured to.
  @Test
  void aRedirectIsAFailureNotFollowed() throws Exception {
    site.answer(302).answerHeaders(Map.of("Location", site.url() + "/elsewhere"));
    db.insertOrder("FW302", 900);
    assertThat(service.send(alipay.payment("FW302", "T-FW302", 900, 0))).matches(alipay.success());
    String id = eventId("FW302", "payment.succeeded");
    awaitState(id, "failed");

    assertThat(site.requestsFor(id)).hasSize(3).allSatisfy(r -> {
      assertThat(r.answered()).isEqualTo(302);
      assertThat(r.header(":path")).isEqualTo(SiteReceiver.PATH);
    });
    assertThat(db.string("SELECT last_error FROM forward_events WHERE event_id = ?", id)).contains("HTTP 302");
  }

  // --- never an event that was not committed ---

  @Test
  void aRolledBackBookingForwardsNothing() throws Exception {
    db.insertOrder("FW5", 700);
    injectFailure("fail_payment_insert", "BEFORE INSERT ON payments", "NEW.trade_no = 'T-FW5'");
    assertThat(service.send(alipay.payment("FW5", "T-FW5", 700, 0))).isEqualTo(new Reply(503, "fail"));

    assertThat(db.count("SELECT COUNT(*) FROM forward_events")).isZero();
    assertThat(service.server().forwardRelay().runOnce().await()).isZero();
    assertThat(site.requests()).isEmpty();

    // The platform's retry, once the database takes it, is booked and forwarded once.
    db.update("DROP TRIGGER fail_payment_insert");
    assertThat(service.send(alipay.payment("FW5", "T-FW5", 700, 1))).matches(alipay.success());
    awaitState(eventId("FW5", "payment.succeeded"), "delivered");
    assertThat(receivedFor("FW5")).hasSize(1);
  }

  /** The outbox row is part of the booking: when it cannot be written, nothing of the booking is. */
  @Test
  void anOutboxRowThatCannotBeWrittenRollsTheBookingBack() throws Exception {
    db.insertOrder("FW6", 700);
    injectFailure("fail_outbox_insert", "BEFORE INSERT ON forward_events", "NEW.order_no = 'FW6'");
    assertThat(service.send(alipay.payment("FW6", "T-FW6", 700, 0))).isEqualTo(new Reply(503, "fail"));

    assertThat(db.payments("T-FW6")).isZero();
    assertThat(db.orderStatus("FW6")).isEqualTo("unpaid");
    assertThat(db.count("SELECT COUNT(*) FROM idempotent_keys")).isZero();
    assertThat(db.count("SELECT COUNT(*) FROM forward_events")).isZero();
    assertThat(service.server().forwardRelay().runOnce().await()).isZero();
    assertThat(site.requests()).isEmpty();
  }

  // --- the other events ---

  @Test
  void anAmountMismatchIsAnAnomalyEventAndNoPayment() throws Exception {
    db.insertOrder("FW7", 10000);
    assertThat(service.send(alipay.payment("FW7", "T-FW7", 100, 0))).matches(alipay.success());
    assertThat(db.column("SELECT type FROM forward_events WHERE order_no = 'FW7'")).containsExactly("anomaly.created");
    String id = eventId("FW7", "anomaly.created");
    awaitState(id, "delivered");
    service.server().forwardRelay().runOnce().await();

    List<Request> received = receivedFor("FW7");
    assertThat(received).hasSize(1);
    JsonObject event = new JsonObject(received.get(0).bodyText());
    assertThat(event.getString("type")).isEqualTo("anomaly.created");
    JsonObject data = event.getJsonObject("data");
    assertThat(data.fieldNames())
        .containsExactlyInAnyOrder("kind", "detail", "action", "order_no", "channel", "trade_no", "amount_cents");
    assertThat(data.getString("kind")).isEqualTo("amount_mismatch");
    assertThat(data.getString("detail")).isNotBlank();
    assertThat(data.getString("action")).isNotBlank();
    assertThat(data.getString("order_no")).isEqualTo("FW7");
    assertThat(data.getString("channel")).isEqualTo("alipay");
    assertThat(data.getString("trade_no")).isEqualTo("T-FW7");
    assertThat(data.getLong("amount_cents")).isEqualTo(100L);
    assertSignedNow(received.get(0));
  }

  static Stream<ChannelFixture> refundChannels() {
    return ChannelFixture.sendsRefunds().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refundChannels")
  void eachRefundIsForwardedOnceWithTheTradesRefundedTotal(ChannelFixture ch) throws Exception {
    db.insertOrder("FW8", 10000);
    assertThat(service.send(ch.payment("FW8", "T-FW8", 10000, 0))).matches(ch.success());
    assertThat(service.send(ch.refund("FW8", "T-FW8", 10000, "RF-FW8-a", 3000, 3000, 0))).matches(ch.success());
    assertThat(service.send(ch.refund("FW8", "T-FW8", 10000, "RF-FW8-a", 3000, 3000, 1))).matches(ch.success());
    assertThat(service.send(ch.refund("FW8", "T-FW8", 10000, "RF-FW8-b", 7000, 10000, 0))).matches(ch.success());
    awaitAllDelivered("FW8", 3);

    assertThat(db.column("SELECT type FROM forward_events WHERE order_no = 'FW8' ORDER BY id"))
        .containsExactly("payment.succeeded", "refund.succeeded", "refund.succeeded");
    List<JsonObject> refunds = receivedFor("FW8").stream().map(r -> new JsonObject(r.bodyText()))
        .filter(e -> e.getString("type").equals("refund.succeeded")).map(e -> e.getJsonObject("data"))
        .sorted((a, b) -> a.getString("refund_no").compareTo(b.getString("refund_no"))).toList();
    assertThat(refunds).hasSize(2);
    for (JsonObject data : refunds) {
      assertThat(data.fieldNames()).containsExactlyInAnyOrder("order_no", "channel", "trade_no", "refund_no",
          "amount_cents", "refunded_total_cents", "refunded_at", "paid_the_order");
      assertThat(data.getBoolean("paid_the_order")).isTrue();
      assertThat(data.getString("order_no")).isEqualTo("FW8");
      assertThat(data.getString("channel")).isEqualTo(ch.platform());
      assertThat(data.getString("trade_no")).isEqualTo("T-FW8");
    }
    assertThat(refunds.get(0).getString("refund_no")).isEqualTo("RF-FW8-a");
    assertThat(refunds.get(0).getLong("amount_cents")).isEqualTo(3000L);
    assertThat(refunds.get(0).getLong("refunded_total_cents")).isEqualTo(3000L);
    assertThat(refunds.get(1).getString("refund_no")).isEqualTo("RF-FW8-b");
    assertThat(refunds.get(1).getLong("amount_cents")).isEqualTo(7000L);
    assertThat(refunds.get(1).getLong("refunded_total_cents")).isEqualTo(10000L);
  }

  /** A refund that waits for its payment is not told until the payment settles it. */
  @Test
  void aRefundBeforeItsPaymentIsForwardedWhenSettled() throws Exception {
    db.insertOrder("FW9", 5000);
    assertThat(service.send(alipay.refund("FW9", "T-FW9", 5000, "RF-FW9", 5000, 5000, 0))).matches(alipay.success());
    assertThat(db.count("SELECT COUNT(*) FROM forward_events WHERE type = 'refund.succeeded'")).isZero();

    assertThat(service.send(alipay.payment("FW9", "T-FW9", 5000, 0))).matches(alipay.success());
    String id = eventId("FW9", "refund.succeeded");
    awaitState(id, "delivered");
    JsonObject data = new JsonObject(site.requestsFor(id).get(0).bodyText()).getJsonObject("data");
    assertThat(data.getString("refund_no")).isEqualTo("RF-FW9");
    assertThat(data.getLong("amount_cents")).isEqualTo(5000L);
    assertThat(data.getLong("refunded_total_cents")).isEqualTo(5000L);
  }

  /**
   * M3: the refund came first and covers the payment, so the booking that moves the order paid also
   * moves it refunded; its payment.succeeded says so, and that the site must not deliver.
   */
  @Test
  void aPaymentWhoseBookingSettlesAFullRefundTellsTheSiteNotToFulfil() throws Exception {
    db.insertOrder("FW13", 5000);
    assertThat(service.send(alipay.refund("FW13", "T-FW13", 5000, "RF-FW13", 5000, 5000, 0))).matches(alipay.success());
    assertThat(service.send(alipay.payment("FW13", "T-FW13", 5000, 0))).matches(alipay.success());
    assertThat(db.orderStatus("FW13")).isEqualTo("refunded");

    String id = eventId("FW13", "payment.succeeded");
    awaitState(id, "delivered");
    JsonObject data = new JsonObject(site.requestsFor(id).get(0).bodyText()).getJsonObject("data");
    assertThat(data.getLong("amount_cents")).isEqualTo(5000L);
    assertThat(data.getLong("refunded_cents")).isEqualTo(5000L);
    assertThat(data.getBoolean("fulfil")).isFalse();
    assertThat(db.string("SELECT body FROM forward_events WHERE event_id = ?", id))
        .isEqualTo(site.requestsFor(id).get(0).bodyText());
  }

  /** A partial refund first: the payment still buys the order (fulfil), and says what was refunded. */
  @Test
  void aPaymentWhoseBookingSettlesAPartialRefundStillFulfils() throws Exception {
    db.insertOrder("FW14", 5000);
    assertThat(service.send(alipay.refund("FW14", "T-FW14", 5000, "RF-FW14", 2000, 2000, 0))).matches(alipay.success());
    assertThat(service.send(alipay.payment("FW14", "T-FW14", 5000, 0))).matches(alipay.success());

    String id = eventId("FW14", "payment.succeeded");
    awaitState(id, "delivered");
    JsonObject data = new JsonObject(site.requestsFor(id).get(0).bodyText()).getJsonObject("data");
    assertThat(data.getLong("refunded_cents")).isEqualTo(2000L);
    assertThat(data.getBoolean("fulfil")).isTrue();
  }

  /**
   * One order's events are sent one after the other: the refund settled with its payment (both
   * written by one booking, due at once) is not sent until the site has answered the payment, slow
   * as it is.
   */
  @Test
  void oneOrdersEventsArriveInOrderWhileTheFirstIsAnsweredSlowly() throws Exception {
    db.insertOrder("FW15", 5000);
    assertThat(service.send(alipay.refund("FW15", "T-FW15", 5000, "RF-FW15", 5000, 5000, 0))).matches(alipay.success());
    site.firstAnswer(200, Duration.ofMillis(700));
    assertThat(service.send(alipay.payment("FW15", "T-FW15", 5000, 0))).matches(alipay.success());
    String payment = eventId("FW15", "payment.succeeded");
    String refund = eventId("FW15", "refund.succeeded");
    awaitState(refund, "delivered");

    List<Request> payments = site.requestsFor(payment);
    assertThat(payments).hasSize(1);
    assertThat(site.requestsFor(refund)).hasSize(1);
    assertThat(site.requestsFor(refund).get(0).arrivedAtMillis()).as("the refund arrived after the payment's answer")
        .isGreaterThanOrEqualTo(payments.get(0).answeredAtMillis());
  }

  /** ... nor while the first one is being retried: an event never overtakes an earlier one of its order. */
  @Test
  void oneOrdersEventsArriveInOrderWhileTheFirstIsRetried() throws Exception {
    db.insertOrder("FW16", 5000);
    assertThat(service.send(alipay.refund("FW16", "T-FW16", 5000, "RF-FW16", 5000, 5000, 0))).matches(alipay.success());
    site.firstAnswer(500, Duration.ZERO);
    assertThat(service.send(alipay.payment("FW16", "T-FW16", 5000, 0))).matches(alipay.success());
    String payment = eventId("FW16", "payment.succeeded");
    String refund = eventId("FW16", "refund.succeeded");
    awaitState(refund, "delivered");

    List<Request> payments = site.requestsFor(payment);
    assertThat(payments).extracting(Request::answered).containsExactly(500, 200);
    assertThat(site.requestsFor(refund)).hasSize(1);
    assertThat(site.requestsFor(refund).get(0).arrivedAtMillis()).as("the refund arrived after the payment's 200")
        .isGreaterThanOrEqualTo(payments.get(1).answeredAtMillis());
  }

  /** Other orders are not held by it: due together, they are sent at the same time. */
  @Test
  void twoOrdersEventsAreSentAtTheSameTime() throws Exception {
    site.delay(Duration.ofMillis(700));
    db.update("INSERT INTO forward_events (event_id, endpoint, type, order_no, body, next_attempt_at) VALUES"
        + " ('evt_p1', 'site', 'payment.succeeded', 'FW17', '{\"data\":{\"order_no\":\"FW17\"}}', UTC_TIMESTAMP(3) - INTERVAL 1 SECOND),"
        + " ('evt_p2', 'site', 'payment.succeeded', 'FW18', '{\"data\":{\"order_no\":\"FW18\"}}', UTC_TIMESTAMP(3) - INTERVAL 1 SECOND)");
    awaitState("evt_p1", "delivered");
    awaitState("evt_p2", "delivered");
    long first = site.requestsFor("evt_p1").get(0).arrivedAtMillis();
    long second = site.requestsFor("evt_p2").get(0).arrivedAtMillis();
    assertThat(Math.abs(first - second)).as("ms between their arrivals").isLessThan(500);
  }

  /** N3: the relay reads at most a few kilobytes of the site's answer: a huge body is cut, its status counts. */
  @Test
  void aHugeAnswerIsNotReadWhole() throws Exception {
    long huge = 100L * 1024 * 1024;
    site.answerBody(huge);
    db.insertOrder("FW19", 700);
    assertThat(service.send(alipay.payment("FW19", "T-FW19", 700, 0))).matches(alipay.success());
    String id = eventId("FW19", "payment.succeeded");
    awaitState(id, "delivered");
    Request r = site.requestsFor(id).get(0);
    long deadline = System.nanoTime() + WITHIN.toNanos();
    while (r.answered() != 200 || r.bodyBytesSent() == 0) {
      assertThat(System.nanoTime()).isLessThan(deadline);
      Thread.sleep(20);
    }
    Thread.sleep(500); // what the site could still write, it has written
    System.out.printf("a 200 with a %d-byte body: %d bytes of it written before the relay closed the connection%n",
        huge, r.bodyBytesSent());
    assertThat(r.bodyBytesSent()).as("bytes of the answer taken by the relay (socket buffers included)")
        .isLessThan(16L * 1024 * 1024);
  }

  @Test
  void onlyTheConfiguredEventsAreSent() throws Exception {
    // The shared service's relay sends every type: this test runs with the filtered one alone.
    service.close();
    try (TestService filtered = TestService.start(db.settings(),
        forwarding(site, new JsonArray().add("payment.succeeded")))) {
      db.insertOrder("FWa", 10000);                                     // an amount mismatch: anomaly.created
      assertThat(filtered.send(alipay.payment("FWa", "T-FWa", 100, 0))).matches(alipay.success());
      db.insertOrder("FWb", 2000);                                      // a payment, then its refund
      assertThat(filtered.send(alipay.payment("FWb", "T-FWb", 2000, 0))).matches(alipay.success());
      assertThat(filtered.send(alipay.refund("FWb", "T-FWb", 2000, "RF-FWb", 500, 500, 0))).matches(alipay.success());

      awaitState(eventId("FWb", "payment.succeeded"), "delivered");
      filtered.server().forwardRelay().runOnce().await();
      filtered.server().forwardRelay().runOnce().await();
      assertThat(site.requests()).extracting(r -> new JsonObject(r.bodyText()).getString("type"))
          .containsExactly("payment.succeeded");
      assertThat(db.count("SELECT COUNT(*) FROM forward_events WHERE state = 'pending'")).isZero();
    } finally {
      service = TestService.start(db.settings(), forwarding(site, null));
    }
  }

  @Test
  void aClosedOrderIsForwardedWhenPaynotifyClosedIt() throws Exception {
    service.close();
    try (TestService closing = TestService.start(db.settings(), forwarding(site, null)
        .put("booking", new JsonObject().put("trade_closed_closes_order", true)))) {
      db.insertOrder("FWc", 100);
      Map<String, String> params = AlipayNotifications.payment("FWc", "T-FWc", "1.00");
      params.put("trade_status", "TRADE_CLOSED");
      assertThat(closing.postAlipay(AlipayNotifications.signedBody(params)))
          .isEqualTo(new Reply(200, "success"));
      assertThat(db.orderStatus("FWc")).isEqualTo("closed");
      String id = eventId("FWc", "order.closed");
      awaitState(id, "delivered");
      JsonObject data = new JsonObject(site.requestsFor(id).get(0).bodyText()).getJsonObject("data");
      assertThat(data.fieldNames()).containsExactlyInAnyOrder("order_no", "channel", "trade_no");
      assertThat(data.getString("order_no")).isEqualTo("FWc");
      assertThat(data.getString("channel")).isEqualTo("alipay");
      assertThat(data.getString("trade_no")).isEqualTo("T-FWc");
    } finally {
      service = TestService.start(db.settings(), forwarding(site, null));
    }
  }

  // --- helpers ---

  /** The id of the one event of {@code type} for the order (fails if there is not exactly one). */
  /** A refund still waiting for its payment after the retention: the hourly check's anomaly is told too, once. */
  @Test
  void aRefundFlaggedByTheHourlyCheckIsAnAnomalyEvent() throws Exception {
    assertThat(service.send(alipay.refund("FW10", "T-FW10", 5000, "RF-FW10", 5000, 5000, 0)))
        .matches(alipay.success());
    db.update("UPDATE refunds SET created_at = NOW(3) - INTERVAL 8 DAY WHERE trade_no = 'T-FW10'");
    assertThat(service.server().pendingRefunds().runOnce().await().flagged()).isEqualTo(1);
    service.server().pendingRefunds().runOnce().await(); // again: nothing more to tell

    String id = eventId("FW10", "anomaly.created");
    awaitState(id, "delivered");
    assertThat(receivedFor("FW10")).hasSize(1);
    JsonObject data = new JsonObject(receivedFor("FW10").get(0).bodyText()).getJsonObject("data");
    assertThat(data.getString("kind")).isEqualTo("refund_without_payment");
    assertThat(data.getString("action")).contains("repair book");
  }

  /**
   * The refund of a second payment says the refunded trade did not pay the order (the site keeps what
   * it delivered); a payment found already marked paid by its own trade is told, so the site fulfils it.
   */
  @Test
  void aSecondPaymentsRefundSaysItDidNotPayTheOrder() throws Exception {
    db.insertOrder("FW11", 1000);
    assertThat(service.send(alipay.payment("FW11", "T-FW11-a", 1000, 0))).matches(alipay.success());
    assertThat(service.send(alipay.payment("FW11", "T-FW11-b", 1000, 0))).matches(alipay.success());
    assertThat(service.send(alipay.refund("FW11", "T-FW11-b", 1000, "RF-FW11", 1000, 1000, 0)))
        .matches(alipay.success());
    String id = eventId("FW11", "refund.succeeded");
    awaitState(id, "delivered");
    JsonObject data = new JsonObject(site.requestsFor(id).get(0).bodyText()).getJsonObject("data");
    assertThat(data.getString("trade_no")).isEqualTo("T-FW11-b");
    assertThat(data.getBoolean("paid_the_order")).isFalse();
  }

  @Test
  void anOrderMarkedPaidByItsOwnTradeElsewhereIsToldToo() throws Exception {
    db.insertOrder("FW12", 1000);
    db.update("UPDATE orders SET status = 'paid', channel = 'alipay', trade_no = 'T-FW12' WHERE order_no = 'FW12'");
    assertThat(service.send(alipay.payment("FW12", "T-FW12", 1000, 0))).matches(alipay.success());
    awaitState(eventId("FW12", "payment.succeeded"), "delivered");
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
  }

  /** /health says what waits and what failed, for the site owner's monitoring. */
  @Test
  void healthCountsPendingAndFailedEvents() throws Exception {
    db.update("INSERT INTO forward_events (event_id, endpoint, type, body, state, next_attempt_at) VALUES"
        + " ('evt_h1', 'site', 'payment.succeeded', '{}', 'failed', NOW()), ('evt_h2', 'site', 'payment.succeeded', '{}', 'failed', NOW()),"
        + " ('evt_h3', 'site', 'payment.succeeded', '{}', 'pending', NOW() + INTERVAL 1 DAY)");
    JsonObject health = new JsonObject(paynotify.testsupport.Http.get(service.port(), "/health").body());
    assertThat(health.getJsonObject("forward")).isEqualTo(new JsonObject().put("pending", 1).put("failed", 2)
        .put("disabled", false).put("endpoints", new JsonArray().add(new JsonObject().put("name", "site")
            .put("pending", 1).put("failed", 2).put("disabled", false).putNull("disabled_reason")
            .put("configured", true))));
  }

  static String eventId(String orderNo, String type) {
    List<String> ids = db.column("SELECT event_id FROM forward_events WHERE order_no = ? AND type = ?", orderNo, type);
    assertThat(ids).as("%s events for order %s", type, orderNo).hasSize(1);
    return ids.get(0);
  }

  static void awaitState(String eventId, String state) throws InterruptedException {
    awaitCount("SELECT COUNT(*) FROM forward_events WHERE event_id = ? AND state = '" + state + "'", eventId);
  }

  /** Waits until {@code sql} (a COUNT with one parameter) counts at least one row. */
  static void awaitCount(String sql, String arg) throws InterruptedException {
    long deadline = System.nanoTime() + WITHIN.toNanos();
    while (db.count(sql, arg) < 1) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + WITHIN + ": " + sql + " [" + arg + "]; forward_events: "
            + db.column("SELECT CONCAT_WS(' ', event_id, type, state, attempts, last_error) FROM forward_events")
            + "; received: " + site.requests());
      }
      Thread.sleep(20);
    }
  }

  private static void awaitAllDelivered(String orderNo, int events) throws InterruptedException {
    long deadline = System.nanoTime() + WITHIN.toNanos();
    while (db.count("SELECT COUNT(*) FROM forward_events WHERE order_no = ? AND state = 'delivered'", orderNo) < events) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(events + " events of " + orderNo + " not delivered within " + WITHIN + ": "
            + db.column("SELECT CONCAT_WS(' ', type, state, attempts, last_error) FROM forward_events"));
      }
      Thread.sleep(20);
    }
  }

  /** What the site received about {@code orderNo}, by the order number inside the body. */
  static List<Request> receivedFor(String orderNo) {
    return site.requests().stream()
        .filter(r -> orderNo.equals(new JsonObject(r.bodyText()).getJsonObject("data").getString("order_no")))
        .toList();
  }

  private static void injectFailure(String name, String when, String condition) {
    db.update("CREATE TRIGGER " + name + " " + when + " FOR EACH ROW BEGIN IF " + condition
        + " THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'injected failure'; END IF; END");
  }

  /** Signed with the secret, and t is the time of this attempt (not the event's creation). */
  /** Both signatures: paynotify's own (Stripe's scheme) and Standard Webhooks', of the same attempt. */
  static void assertSignedNow(Request r) {
    String header = r.header("Paynotify-Signature");
    assertThat(header).matches("t=\\d+,v1=[0-9a-f]{64}");
    assertThat(signatureVerifies(header, r.body(), SECRET)).as("signature %s of %s", header, r.bodyText()).isTrue();
    long t = Long.parseLong(header.substring(2, header.indexOf(',')));
    assertThat(t).isBetween(r.arrivedAtMillis() / 1000 - 5, r.arrivedAtMillis() / 1000 + 1);

    assertThat(r.header("webhook-id")).isEqualTo(r.eventId());
    assertThat(r.header("webhook-timestamp")).isEqualTo(Long.toString(t));
    assertThat(r.header("webhook-signature"))
        .isEqualTo(StandardWebhooks.v1(StandardWebhooks.whsec(SECRET), r.eventId(), t, r.bodyText()));
  }

  /**
   * The site's check, written here without anything of the service: HMAC-SHA256 over
   * {@code t + "." + raw body} with the shared secret, hex, compared in constant time.
   */
  static boolean signatureVerifies(String header, byte[] body, String secret) {
    String t = null;
    String v1 = null;
    for (String part : header.split(",")) {
      String[] kv = part.split("=", 2);
      if (kv.length == 2 && kv[0].equals("t")) {
        t = kv[1];
      } else if (kv.length == 2 && kv[0].equals("v1")) {
        v1 = kv[1];
      }
    }
    if (t == null || v1 == null) {
      return false;
    }
    byte[] prefix = (t + ".").getBytes(StandardCharsets.US_ASCII);
    byte[] signed = new byte[prefix.length + body.length];
    System.arraycopy(prefix, 0, signed, 0, prefix.length);
    System.arraycopy(body, 0, signed, prefix.length, body.length);
    String expected = hmacHex(secret, signed);
    return MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII), v1.getBytes(StandardCharsets.US_ASCII));
  }

  private static String hmacHex(String secret, String message) {
    return hmacHex(secret, message.getBytes(StandardCharsets.UTF_8));
  }

  private static String hmacHex(String secret, byte[] message) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return HexFormat.of().formatHex(mac.doFinal(message));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static boolean phpInstalled() {
    return Commands.output("php", "-v") != null;
  }

  private static String runPhp(String code, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("php", "-r", code, "--"));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
    return out;
  }
}
