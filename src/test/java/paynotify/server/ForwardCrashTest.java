package paynotify.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import paynotify.testsupport.ChannelFixture;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.Http;
import paynotify.testsupport.ServiceProcess;
import paynotify.testsupport.SiteReceiver.Request;
import paynotify.testsupport.SiteReceiver;

/**
 * Issue 11: a committed event survives kill -9. Real processes on one database, a real receiver:
 * the first process books a payment and is killed with SIGKILL (no shutdown hook, nothing flushed),
 * a second one is started, and the site gets the event, with the id and the bytes the first one
 * would have sent.
 *
 * <p>Where the kill falls. Between the booking's COMMIT and the site's 2xx, what a dead process can
 * leave in forward_events is one of: (a) the row pending and never claimed; (b) pending, claimed (a
 * lease committed), and the request not sent or not answered; (c) pending after a failed attempt.
 * The exact instant "after COMMIT, before the claim" cannot be hit from outside without a hook in the
 * relay, and nothing distinguishes it in the database from (a). So: {@link #aSendCutByKill9IsDeliveredAfterTheLease}
 * makes (b) certain (the site holds the request, the kill lands while it is in flight, and the next
 * process must wait out the lease); {@link #killedAsSoonAsThePlatformHasItsSuccess} kills the process
 * the moment the platform has been answered, while nothing listens at the site's address (so whatever
 * the relay managed, nothing reached the site): that leaves (a), (b) or (c), whichever the relay's
 * timing gives, and the test says which; in every one the event must be delivered exactly once, by the
 * next process.
 */
class ForwardCrashTest extends DatabaseTestBase {
  private static final String SECRET = "fwd_crash-test-4f1c9a";
  private static final int TIMEOUT_MS = 1000;
  /** 2 x timeout_ms + 1 s, as the contract sets the lease. */
  private static final long LEASE_MS = 2L * TIMEOUT_MS + 1000;
  private static final Duration START = Duration.ofSeconds(60);
  private static final ChannelFixture alipay = ChannelFixture.alipay();
  /** "Now" in the time the service's sessions write (time_zone +08:00), whatever the test session's zone. */

  @TempDir
  Path dir;

  static JsonObject forwarding(String url) {
    return new JsonObject().put("forward", new JsonObject()
        .put("url", url)
        .put("secret", SECRET)
        .put("timeout_ms", TIMEOUT_MS)
        .put("retry_schedule_seconds", new JsonArray().add(1).add(1).add(1).add(1)));
  }

  @Test
  void aSendCutByKill9IsDeliveredAfterTheLease() throws Exception {
    db.insertOrder("CR1", 1000);
    try (SiteReceiver site = SiteReceiver.start()) {
      site.hang();
      Request cut;
      String id;
      long leaseEndsAtMillis;
      try (ServiceProcess first = ServiceProcess.start(db.settings(), forwarding(site.url()), sub("first"))) {
        first.awaitHealth(200, START);
        assertThat(Http.send(first.port(), alipay.payment("CR1", "T-CR1", 1000, 0))).matches(alipay.success());
        cut = site.await(r -> true, Duration.ofSeconds(15));
        id = cut.eventId();
        // The lease was committed before the request left: it is visible while the site holds it.
        List<String> row = db.column("SELECT CONCAT_WS(' ', state, lease_owner IS NOT NULL,"
            + " TIMESTAMPDIFF(MICROSECOND, UTC_TIMESTAMP(3), lease_until) DIV 1000)" // leases are UTC
            + " FROM forward_events");
        assertThat(row).hasSize(1);
        String[] f = row.get(0).split(" ");
        assertThat(f[0] + " " + f[1]).as("state, leased").isEqualTo("pending 1");
        long remaining = Long.parseLong(f[2]);
        leaseEndsAtMillis = System.currentTimeMillis() + remaining;
        assertThat(remaining).as("lease left (ms) of 2 x timeout_ms + 1 s").isBetween(LEASE_MS / 2, LEASE_MS + 200);

        first.kill9(); // while the request is in flight
      }
      assertThat(db.string("SELECT state FROM forward_events WHERE event_id = ?", id)).isEqualTo("pending");
      assertThat(db.payments("T-CR1")).isEqualTo(1);
      assertThat(db.orderStatus("CR1")).isEqualTo("paid");

      site.answer(200); // the held request (its sender is gone) is dropped unanswered
      try (ServiceProcess second = ServiceProcess.start(db.settings(), forwarding(site.url()), sub("second"))) {
        second.awaitHealth(200, START);
        Request delivered = site.await(r -> r.answered() == 200, Duration.ofSeconds(30));
        assertThat(delivered.eventId()).isEqualTo(id);
        assertThat(delivered.body()).as("the same bytes as the cut request").isEqualTo(cut.body());
        assertThat(delivered.arrivedAtMillis()).as("not before the dead process's lease ran out")
            .isGreaterThanOrEqualTo(leaseEndsAtMillis - 100);
        awaitDelivered(id);
        second.terminate();
        second.exitCode(Duration.ofSeconds(30));
      }
      assertThat(site.requests()).allSatisfy(r -> assertThat(r.eventId()).isEqualTo(id));
      assertThat(site.requests()).filteredOn(r -> r.answered() == 200).hasSize(1);
      assertThat(db.count("SELECT COUNT(*) FROM forward_events")).isEqualTo(1);
    }
  }

  @Test
  void killedAsSoonAsThePlatformHasItsSuccess() throws Exception {
    db.insertOrder("CR2", 2000);
    int sitePort = ServiceProcess.freePort(); // nothing listens there yet: connections are refused
    String url = "http://127.0.0.1:" + sitePort + SiteReceiver.PATH;
    try (ServiceProcess first = ServiceProcess.start(db.settings(), forwarding(url), sub("first"))) {
      first.awaitHealth(200, START);
      assertThat(Http.send(first.port(), alipay.payment("CR2", "T-CR2", 2000, 0))).matches(alipay.success());
      first.kill9();
    }
    List<String> leftBehind = db.column("SELECT CONCAT_WS(' ', event_id, state, attempts,"
        + " IF(lease_owner IS NULL, 'unleased', 'leased')) FROM forward_events");
    System.out.println("kill -9 right after the platform's success left: " + leftBehind);
    assertThat(leftBehind).hasSize(1);
    String[] f = leftBehind.get(0).split(" ");
    String id = f[0];
    assertThat(f[1]).isEqualTo("pending");
    String body = db.string("SELECT body FROM forward_events WHERE event_id = ?", id);

    try (SiteReceiver site = SiteReceiver.start(sitePort);
        ServiceProcess second = ServiceProcess.start(db.settings(), forwarding(url), sub("second"))) {
      second.awaitHealth(200, START);
      awaitDelivered(id);
      assertThat(site.requests()).hasSize(1);
      Request delivered = site.requests().get(0);
      assertThat(delivered.eventId()).isEqualTo(id);
      assertThat(delivered.answered()).isEqualTo(200);
      assertThat(delivered.bodyText()).isEqualTo(body);
      assertThat(new JsonObject(delivered.bodyText()).getJsonObject("data").getString("trade_no")).isEqualTo("T-CR2");
      second.terminate();
      second.exitCode(Duration.ofSeconds(30));
    }
  }

  private Path sub(String name) throws Exception {
    return Files.createDirectories(dir.resolve(name));
  }

  private static void awaitDelivered(String id) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!"delivered".equals(db.string("SELECT state FROM forward_events WHERE event_id = ?", id))) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("event " + id + " not delivered within 30 s: "
            + db.column("SELECT CONCAT_WS(' ', state, attempts, lease_owner, lease_until, last_error) FROM forward_events"));
      }
      Thread.sleep(50);
    }
  }
}
