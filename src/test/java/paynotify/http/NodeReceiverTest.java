package paynotify.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.ChannelFixture;
import paynotify.testsupport.Cli;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.NodeReceiver;
import paynotify.testsupport.StandardWebhooks;
import paynotify.testsupport.TestService;

/**
 * The Node receiver of docs/forwarding.md, verifying with the npm library standardwebhooks what the real
 * service sends: a payment's event is verified and handled once, and the deliveries of a service keyed
 * with another secret are refused with 400.
 */
class NodeReceiverTest extends DatabaseTestBase {
  private static final String SECRET = "5d2f8a0c4e6b1d3f7a9c0e2b4d6f8a1c";
  private static final ChannelFixture ALIPAY = ChannelFixture.alipay();
  private static final Duration WITHIN = Duration.ofSeconds(30);
  private static final HttpClient CLIENT = HttpClient.newHttpClient();
  private static NodeReceiver receiver;

  @BeforeAll
  static void startTheReceiver() {
    assumeTrue(NodeReceiver.available(), "node and npm are not installed: the receiver of docs/forwarding.md is not run");
    NodeReceiver.install();
    receiver = NodeReceiver.start(SECRET);
  }

  @AfterAll
  static void stop() {
    if (receiver != null) {
      receiver.close();
    }
  }

  /** The service forwarding to the receiver, signing with {@code secret}: its first retry a second later. */
  private static TestService serviceSigningWith(String secret) {
    return TestService.start(db.settings(), new JsonObject().put("forward", new JsonObject()
        .put("url", receiver.url()).put("secret", secret).put("timeout_ms", 2000)
        .put("retry_schedule_seconds", new JsonArray().add(1).add(60))));
  }

  private static String eventId(String orderNo) {
    return db.string("SELECT event_id FROM forward_events WHERE order_no = ?", orderNo);
  }

  /** Event {@code id}'s row as the relay left it: what a failed wait shows. */
  private static String row(String id) {
    return db.string("SELECT CONCAT_WS(' | ', state, attempts, next_attempt_at, UTC_TIMESTAMP(3), delivered_at,"
        + " NOW(3), lease_owner, lease_until, last_error) FROM forward_events WHERE event_id = ?", id);
  }

  /** Whether event {@code id} comes to match {@code condition} (SQL on forward_events) within 30 s (a loaded CI machine). */
  private static boolean eventComesTo(String id, String condition) throws InterruptedException {
    return db.countWithin(WITHIN, 1, "SELECT COUNT(*) FROM forward_events WHERE event_id = ? AND " + condition, id) == 1;
  }

  @Test
  void aForwardedPaymentIsVerifiedAndHandledOnce() throws Exception {
    db.insertOrder("N1", 1000);
    try (TestService service = serviceSigningWith(SECRET)) {
      assertThat(service.send(ALIPAY.payment("N1", "T-N1", 1000, 0))).matches(ALIPAY.success());
      String id = eventId("N1");
      assertThat(eventComesTo(id, "state = 'delivered'")).as(receiver.log()).isTrue();
      assertThat(receiver.log()).containsOnlyOnce("paynotify-hook: handled payment.succeeded " + id);

      // The same event again (its 200 lost on the way back), signed anew: answered, not handled twice.
      String body = db.string("SELECT body FROM forward_events WHERE event_id = ?", id);
      long now = System.currentTimeMillis() / 1000;
      HttpResponse<String> again = CLIENT.send(HttpRequest.newBuilder(URI.create(receiver.url()))
          .header("webhook-id", id).header("webhook-timestamp", Long.toString(now))
          .header("webhook-signature", StandardWebhooks.v1(StandardWebhooks.whsec(SECRET), id, now, body))
          .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(again.statusCode()).isEqualTo(200);
      assertThat(receiver.log()).containsOnlyOnce("handled payment.succeeded " + id);

      // forward replay: the service sends it again, signed anew; the library verifies it, the id dedupes it.
      String delivered = db.string("SELECT delivered_at FROM forward_events WHERE event_id = ?", id);
      Cli.Result replay = Cli.run("forward", "replay", "--event", id);
      assertThat(replay.exit()).as(replay.err()).isZero();
      assertThat(eventComesTo(id, "state = 'delivered' AND delivered_at > '" + delivered + "'"))
          .as("replayed %s (%s), delivered at %s before; the row now: %s; the receiver's log: %s", id, replay.out(),
              delivered, row(id), receiver.log())
          .isTrue();
      assertThat(receiver.log()).containsOnlyOnce("handled payment.succeeded " + id);
      System.out.printf("Node receiver (npm standardwebhooks): %s delivered at %s, replayed by `forward replay`"
          + " and delivered again at %s: both verified and answered 200, the work done once; its log:%n%s%n", id,
          delivered, db.string("SELECT delivered_at FROM forward_events WHERE event_id = ?", id), receiver.log());
    }
  }

  @Test
  void aDeliverySignedWithAnotherSecretIsRefused() throws Exception {
    db.insertOrder("N2", 1000);
    try (TestService forger = serviceSigningWith("another secret, not the site's")) {
      assertThat(forger.send(ALIPAY.payment("N2", "T-N2", 1000, 0))).matches(ALIPAY.success());
      String id = eventId("N2");
      assertThat(eventComesTo(id, "attempts >= 1")).isTrue();
      assertThat(db.string("SELECT state FROM forward_events WHERE event_id = ?", id)).isEqualTo("pending");
      assertThat(db.string("SELECT last_error FROM forward_events WHERE event_id = ?", id)).contains("HTTP 400");
      assertThat(receiver.log()).doesNotContain(id);
    }
  }
}
