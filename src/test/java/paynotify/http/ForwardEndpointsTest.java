package paynotify.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.ChannelFixture;
import paynotify.testsupport.Cli;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.Http;
import paynotify.testsupport.ServiceProcess;
import paynotify.testsupport.SiteReceiver.Request;
import paynotify.testsupport.SiteReceiver;
import paynotify.testsupport.StandardWebhooks;
import paynotify.testsupport.TestService;

/**
 * Issue 29: several endpoints (forward.endpoints), each with its own events, secret and deliveries. Two real
 * receivers: one down or refusing holds nothing of the other, each ends with every event it wants delivered
 * exactly once, signed with its own secret; a run of 4xx answers disables one endpoint with an anomaly; replay
 * goes to one endpoint when asked.
 */
class ForwardEndpointsTest extends DatabaseTestBase {
  private static final ChannelFixture alipay = ChannelFixture.alipay();
  private static final String SHOP_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
  private static final String CRM_SECRET = "crm-secret-0123456789abcdef";
  private static final String TOKEN = "endpoints-admin-token-0123456789";
  private static final Duration WITHIN = Duration.ofSeconds(20);

  /** shop: payments and anomalies; crm: payments only. Retries 1 s apart, eleven attempts. */
  private static JsonObject twoEndpoints(SiteReceiver shop, SiteReceiver crm, int disableAfter4xx) {
    JsonArray schedule = new JsonArray();
    for (int i = 0; i < 10; i++) {
      schedule.add(1);
    }
    return new JsonObject().put("forward", new JsonObject()
        .put("endpoints", new JsonArray()
            .add(new JsonObject().put("name", "shop").put("url", shop.url()).put("secret", SHOP_SECRET)
                .put("events", new JsonArray().add("payment.succeeded").add("anomaly.created")))
            .add(new JsonObject().put("name", "crm").put("url", crm.url()).put("secret", CRM_SECRET)
                .put("events", new JsonArray().add("payment.succeeded"))))
        .put("timeout_ms", 1000)
        .put("retry_schedule_seconds", schedule)
        .put("disable_after_4xx", disableAfter4xx));
  }

  @Test
  void oneEndpointDownHoldsNothingOfTheOtherAndEachGetsItsEventsOnce() throws Exception {
    try (SiteReceiver shop = SiteReceiver.start(); SiteReceiver crm = SiteReceiver.start().answer(503);
        TestService service = TestService.start(db.settings(), twoEndpoints(shop, crm, 10))) {
      db.insertOrder("EP1", 1000);
      assertThat(service.send(alipay.payment("EP1", "T-EP1", 1000, 0))).matches(alipay.success());
      assertThat(service.send(alipay.payment("EP-NOBODY", "T-EP2", 500, 0))).matches(alipay.success()); // an anomaly

      // One row per endpoint that wants the type: the payment twice, the anomaly for the shop only.
      assertThat(db.column("SELECT CONCAT(type, ' ', endpoint) FROM forward_events ORDER BY type, endpoint"))
          .containsExactly("anomaly.created shop", "payment.succeeded crm", "payment.succeeded shop");
      String payment = db.string("SELECT event_id FROM forward_events WHERE type = 'payment.succeeded' LIMIT 1");
      String anomaly = db.string("SELECT event_id FROM forward_events WHERE type = 'anomaly.created'");

      // The shop takes both while the crm keeps answering 503.
      awaitState("shop", payment, "delivered");
      awaitState("shop", anomaly, "delivered");
      crm.await(r -> payment.equals(r.eventId()) && r.answered() == 503, WITHIN);
      assertThat(db.string("SELECT state FROM forward_events WHERE endpoint = 'crm'")).isEqualTo("pending");

      crm.answer(200);
      awaitState("crm", payment, "delivered");
      assertDeliveredOnce(shop, List.of(payment, anomaly), SHOP_SECRET);
      assertDeliveredOnce(crm, List.of(payment), StandardWebhooks.whsec(CRM_SECRET));
      assertThat(crm.requests()).allSatisfy(r -> assertThat(r.eventId()).isEqualTo(payment));
      // the same event to both: the same id and bytes, so a receiver behind both dedupes it
      assertThat(shop.requestsFor(payment).get(0).bodyText()).isEqualTo(crm.requestsFor(payment).get(0).bodyText());

      JsonObject health = new JsonObject(Http.get(service.port(), "/health").body()).getJsonObject("forward");
      assertThat(health.getJsonArray("endpoints").stream().map(e -> ((JsonObject) e).getString("name")).toList())
          .containsExactly("shop", "crm");
    }
  }

  @Test
  void anEndpointRefusingEventsInARowIsDisabledWithAnAnomalyAndTheOtherGoesOn() throws Exception {
    try (SiteReceiver shop = SiteReceiver.start(); SiteReceiver crm = SiteReceiver.start().answer(401);
        TestService service = TestService.start(db.settings(), twoEndpoints(shop, crm, 3))) {
      // One event refused again and again is that event's trouble, not the endpoint's: it stays enabled.
      db.insertOrder("EPR1", 1000);
      assertThat(service.send(alipay.payment("EPR1", "T-EPR1", 1000, 0))).matches(alipay.success());
      String first = eventOf("EPR1");
      long deadline = System.nanoTime() + WITHIN.toNanos();
      while (crm.requestsFor(first).size() < 4 && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertThat(crm.requestsFor(first)).hasSizeGreaterThanOrEqualTo(4)
          .allSatisfy(r -> assertThat(r.answered()).isEqualTo(401));
      assertThat(db.count("SELECT COUNT(*) FROM forward_endpoints WHERE disabled_at IS NOT NULL")).isZero();

      // Three different events refused with none accepted between: it is disabled, the shop goes on.
      for (int i = 2; i <= 3; i++) {
        db.insertOrder("EPR" + i, 1000);
        assertThat(service.send(alipay.payment("EPR" + i, "T-EPR" + i, 1000, 0))).matches(alipay.success());
      }
      awaitCount("SELECT COUNT(*) FROM anomalies WHERE kind = 'forward_endpoint_refusing' AND detail LIKE ?",
          "endpoint crm %3 events refused 4xx in a row, the last HTTP 401%");
      assertThat(db.string("SELECT disabled_reason FROM forward_endpoints WHERE name = 'crm'"))
          .startsWith("3 events refused 4xx in a row, the last HTTP 401 for event evt_");
      for (int i = 1; i <= 3; i++) {
        awaitState("shop", eventOf("EPR" + i), "delivered");
      }
      // Disabled: nothing more is sent to it, however long the schedule would go on (the round that disabled it
      // had sent its batch before writing the outcomes).
      int refused = crm.requests().size();
      for (int round = 0; round < 3; round++) {
        service.server().forwardRelay().runOnce().await();
        Thread.sleep(400);
      }
      assertThat(crm.requests()).hasSize(refused);
      assertThat(db.count("SELECT COUNT(*) FROM forward_events WHERE endpoint = 'crm' AND state = 'pending'"))
          .isEqualTo(3);
      JsonObject crmHealth = new JsonObject(Http.get(service.port(), "/health").body()).getJsonObject("forward")
          .getJsonArray("endpoints").getJsonObject(1);
      assertThat(crmHealth.getString("name")).isEqualTo("crm");
      assertThat(crmHealth.getBoolean("disabled")).isTrue();
      assertThat(crmHealth.getLong("pending")).isEqualTo(3);

      assertThat(Cli.run("forward", "enable", "--endpoint", "crn").err()).contains("no endpoint crn (configured: ");
      crm.answer(200);
      Cli.Result enable = Cli.run("forward", "enable", "--endpoint", "crm");
      assertThat(enable.exit()).as(enable.err()).isZero();
      assertThat(enable.out()).isEqualTo("enabled 1 endpoint: the events waiting are sent now\n");
      for (int i = 1; i <= 3; i++) {
        awaitState("crm", eventOf("EPR" + i), "delivered");
      }
      assertThat(crm.requests().stream().filter(r -> r.answered() == 200).map(Request::eventId).distinct().count())
          .isEqualTo(crm.requests().stream().filter(r -> r.answered() == 200).count()).isEqualTo(3);
      assertThat(shop.requests()).hasSize(3).allSatisfy(r -> assertThat(r.answered()).isEqualTo(200));
    }
  }

  @Test
  void replayGoesToTheEndpointAskedFor() throws Exception {
    int admin = ServiceProcess.freePort();
    try (SiteReceiver shop = SiteReceiver.start(); SiteReceiver crm = SiteReceiver.start();
        TestService service = TestService.start(db.settings(), twoEndpoints(shop, crm, 10)
            .put("admin", new JsonObject().put("port", admin).put("token", TOKEN)))) {
      db.insertOrder("EPP1", 700);
      assertThat(service.send(alipay.payment("EPP1", "T-EPP1", 700, 0))).matches(alipay.success());
      String id = eventOf("EPP1");
      awaitState("shop", id, "delivered");
      awaitState("crm", id, "delivered");

      Cli.Result replay = Cli.run("forward", "replay", "--event", id, "--endpoint", "crm");
      assertThat(replay.exit()).as(replay.err()).isZero();
      assertThat(replay.out()).isEqualTo("sending 1 event again: pending, due now\n");
      crm.awaitCount(2, WITHIN);
      awaitState("crm", id, "delivered");

      Http.Reply answer = Http.postWithToken(admin, "/forward/events/" + id + "/replay?endpoint=shop", TOKEN);
      assertThat(answer.status()).as(answer.body()).isEqualTo(200);
      assertThat(new JsonObject(answer.body()).getJsonArray("endpoints")).isEqualTo(new JsonArray()
          .add(new JsonObject().put("endpoint", "shop").put("replayed", true).put("state", "pending")));
      shop.awaitCount(2, WITHIN);
      awaitState("shop", id, "delivered");
      assertThat(crm.requests()).hasSize(2);
      assertThat(shop.requests()).hasSize(2);
      assertThat(shop.requests().get(1).bodyText()).isEqualTo(shop.requests().get(0).bodyText());
    }
  }

  /** Each of {@code ids} reached the receiver answered 200 exactly once, signed with {@code whsec}. */
  private static void assertDeliveredOnce(SiteReceiver receiver, List<String> ids, String whsec) {
    for (String id : ids) {
      List<Request> accepted = receiver.requestsFor(id).stream().filter(r -> r.answered() == 200).toList();
      assertThat(accepted).as("event %s accepted", id).hasSize(1);
      Request r = accepted.get(0);
      long t = Long.parseLong(r.header("webhook-timestamp"));
      assertThat(r.header("webhook-signature")).isEqualTo(StandardWebhooks.v1(whsec, id, t, r.bodyText()));
    }
  }

  private static String eventOf(String orderNo) {
    return db.string("SELECT event_id FROM forward_events WHERE order_no = ? AND type = 'payment.succeeded' LIMIT 1",
        orderNo);
  }

  private static void awaitState(String endpoint, String eventId, String state) throws InterruptedException {
    awaitCount("SELECT COUNT(*) FROM forward_events WHERE endpoint = '" + endpoint + "' AND state = '" + state
        + "' AND event_id = ?", eventId);
  }

  /** Waits until {@code sql}, a COUNT of one row at most, counts it; fails with the outbox's rows if it never does. */
  private static void awaitCount(String sql, String arg) throws InterruptedException {
    assertThat(db.countWithin(WITHIN, 1, sql, arg)).as(() -> sql + " [" + arg + "]; forward_events: " + db.column(
        "SELECT CONCAT_WS(' ', endpoint, event_id, type, state, attempts, last_error) FROM forward_events")).isOne();
  }
}
