package paynotify.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import paynotify.config.AppConfig.DatabaseSettings;
import paynotify.testsupport.ChannelFixture;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.SiteReceiver.Request;
import paynotify.testsupport.SiteReceiver;
import paynotify.testsupport.TestService;

/**
 * Issue 11: several instances on one database. Each has its own relay polling the same outbox; a
 * slow site (every answer takes 150 ms) makes their rounds overlap. Every event is delivered, and
 * never sent by two instances at the same moment: the receiver counts the requests in flight for each
 * event id. With no lease running out (a send takes far less than 2 x timeout_ms + 1 s), each event is
 * sent exactly once. A lease that did run out (an instance that died holding it) is taken over.
 */
class ForwardInstancesTest extends DatabaseTestBase {
  private static final int PAYMENTS = 40;
  private static final String SECRET = "fwd_instances-test-77ab";
  private static final ChannelFixture alipay = ChannelFixture.alipay();
  private static final String NOW = "UTC_TIMESTAMP(3)"; // the relay's one clock for due times and leases

  private static JsonObject forwarding(SiteReceiver site) {
    return new JsonObject().put("forward", new JsonObject()
        .put("url", site.url())
        .put("secret", SECRET)
        .put("timeout_ms", 1000)
        .put("retry_schedule_seconds", new JsonArray().add(1).add(1)));
  }

  @Test
  void twoInstancesDeliverEveryEventOnceAndNeverTwiceAtOnce() throws Exception {
    for (int i = 0; i < PAYMENTS; i++) {
      db.insertOrder("FI" + i, 100 + i);
    }
    try (SiteReceiver site = SiteReceiver.start();
        TestService a = TestService.start(db.settings(), forwarding(site));
        TestService b = TestService.start(db.settings(), forwarding(site))) {
      site.delay(Duration.ofMillis(150));
      List<CompletableFuture<Reply>> replies = new ArrayList<>();
      for (int i = 0; i < PAYMENTS; i++) {
        TestService to = i % 2 == 0 ? a : b;
        replies.add(to.sendAsync(alipay.payment("FI" + i, String.format("T-FI%03d", i), 100 + i, 0)));
      }
      assertThat(replies).allSatisfy(r -> assertThat(r.join()).matches(alipay.success()));
      long start = System.nanoTime();
      awaitDelivered(PAYMENTS, Duration.ofSeconds(30));
      System.out.printf("%d events delivered by two instances to a site answering in 150 ms: %d ms%n",
          PAYMENTS, (System.nanoTime() - start) / 1_000_000);
      // One more round on each: nothing is left to send.
      assertThat(a.server().forwardRelay().runOnce().await()).isZero();
      assertThat(b.server().forwardRelay().runOnce().await()).isZero();

      List<String> ids = db.column("SELECT event_id FROM forward_events");
      assertThat(ids).hasSize(PAYMENTS).doesNotHaveDuplicates();
      assertThat(site.maxInFlightForOneEvent()).as("requests for one event at the same moment").isEqualTo(1);
      Map<String, Integer> sends = new TreeMap<>();
      for (Request r : site.requests()) {
        sends.merge(r.eventId(), 1, Integer::sum);
      }
      assertThat(sends.keySet()).containsExactlyInAnyOrderElementsOf(ids);
      assertThat(sends).as("sends per event id").allSatisfy((id, n) -> assertThat(n).isEqualTo(1));
      assertThat(site.requests()).allSatisfy(r -> assertThat(r.answered()).isEqualTo(200));
    }
  }

  /**
   * An event leased by an instance that is gone: not sent while the lease runs, then taken over and
   * sent as stored (the body column, byte for byte; the id in the header).
   */
  @Test
  void anExpiredLeaseIsTakenOverAndALiveOneIsRespected() throws Exception {
    String id = "evt_0123456789abcdef0123456789abcdef";
    String body = "{\"id\":\"" + id + "\",\"type\":\"payment.succeeded\",\"created_at\":\"2026-11-30T20:01:02+08:00\","
        + "\"data\":{\"order_no\":\"FL1\",\"channel\":\"alipay\",\"trade_no\":\"T-FL1\",\"amount_cents\":100,"
        + "\"paid_at\":\"2026-11-29T10:15:09+08:00\"}}";
    db.update("INSERT INTO forward_events (event_id, endpoint, type, order_no, body, state, attempts, next_attempt_at,"
        + " lease_owner, lease_until) VALUES (?, 'site', 'payment.succeeded', 'FL1', ?, 'pending', 0,"
        + " " + NOW + " - INTERVAL 1 SECOND, 'an-instance-killed-meanwhile', " + NOW
        + " + INTERVAL 2 SECOND)", id, body);
    try (SiteReceiver site = SiteReceiver.start(); TestService survivor = TestService.start(db.settings(), forwarding(site))) {
      assertThat(survivor.server().forwardRelay().runOnce().await()).as("attempted under a live lease").isZero();
      assertThat(site.requests()).isEmpty();

      Request sent = site.await(r -> true, Duration.ofSeconds(10));
      assertThat(sent.eventId()).isEqualTo(id);
      assertThat(sent.bodyText()).isEqualTo(body);
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (!"delivered".equals(db.string("SELECT state FROM forward_events WHERE event_id = ?", id))) {
        assertThat(System.nanoTime()).as("delivered within 10 s").isLessThan(deadline);
        Thread.sleep(20);
      }
      assertThat(site.requests()).hasSize(1);
    }
  }

  /**
   * N4: leases and due times are kept in UTC, so instances need not share database.time_zone. The
   * first instance (sessions in UTC) sends to a slow site; the second (sessions in Beijing time, 8
   * hours ahead) must see that lease as held, not as expired hours ago.
   */
  @Test
  void instancesInOtherTimeZonesRespectEachOthersLease() throws Exception {
    db.insertOrder("FZ1", 100);
    try (SiteReceiver site = SiteReceiver.start();
        TestService utc = TestService.start(inZone("+00:00"), forwarding(site).put("forward",
            forwarding(site).getJsonObject("forward").put("timeout_ms", 3000)))) {
      site.delay(Duration.ofMillis(2500));
      assertThat(utc.send(alipay.payment("FZ1", "T-FZ1", 100, 0))).matches(alipay.success());
      Request first = site.await(r -> true, Duration.ofSeconds(10));
      try (TestService beijing = TestService.start(inZone("+08:00"), forwarding(site))) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!"delivered".equals(db.string("SELECT state FROM forward_events WHERE event_id = ?", first.eventId()))) {
          assertThat(System.nanoTime()).as("delivered within 10 s").isLessThan(deadline);
          Thread.sleep(20);
        }
        assertThat(beijing.server().forwardRelay().runOnce().await()).isZero();
        assertThat(site.requests()).as("sent by one instance, once").hasSize(1);
      }
    }
  }

  /**
   * M3 across instances: while another instance's claim has an order's older event locked (not yet
   * leased), its later event is not taken either: one order's events are never sent side by side.
   */
  @Test
  void anOrdersLaterEventWaitsWhileAnotherClaimHoldsTheOlderOne() throws Exception {
    db.update("INSERT INTO forward_events (event_id, endpoint, type, order_no, body, next_attempt_at) VALUES"
        + " ('evt_older', 'site', 'payment.succeeded', 'FO1', '{}', " + NOW + " - INTERVAL 1 SECOND),"
        + " ('evt_later', 'site', 'refund.succeeded', 'FO1', '{}', " + NOW + " - INTERVAL 1 SECOND)");
    try (SiteReceiver site = SiteReceiver.start(); Connection claim = db.connect()) {
      claim.setAutoCommit(false);
      try (Statement lock = claim.createStatement()) {
        lock.executeQuery("SELECT id FROM forward_events WHERE event_id = 'evt_older' FOR UPDATE").close();
      }
      try (TestService other = TestService.start(db.settings(), forwarding(site))) {
        assertThat(other.server().forwardRelay().runOnce().await()).isZero();
        Thread.sleep(1000); // its own rounds too
        assertThat(site.requests()).isEmpty();
        claim.rollback(); // the claim gave up: the events go, in order
        Request later = site.await(r -> "evt_later".equals(r.eventId()), Duration.ofSeconds(10));
        assertThat(later.arrivedAtMillis()).isGreaterThanOrEqualTo(site.requestsFor("evt_older").get(0).answeredAtMillis());
      }
    }
  }

  private static DatabaseSettings inZone(String zone) {
    DatabaseSettings s = db.settings();
    return new DatabaseSettings(s.host(), s.port(), s.name(), s.user(), s.password(), s.poolSize(), s.maxWaitQueue(),
        s.connectTimeout(), s.lockWaitSeconds(), s.embeddedDir(), s.security(), zone);
  }

  private static void awaitDelivered(int events, Duration within) throws InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    while (db.count("SELECT COUNT(*) FROM forward_events WHERE state = 'delivered'") < events) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not all delivered within " + within + ": "
            + db.column("SELECT CONCAT_WS(' ', state, COUNT(*)) FROM forward_events GROUP BY state"));
      }
      Thread.sleep(20);
    }
  }
}
