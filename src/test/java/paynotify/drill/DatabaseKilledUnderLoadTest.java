package paynotify.drill;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import paynotify.testsupport.AlipayNotifications;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.KillableMariaDb;
import paynotify.testsupport.ServiceProcess;
import paynotify.testsupport.TestDatabase;
import paynotify.testsupport.TestService;

/**
 * Issue 41, point 4: MariaDB killed (SIGKILL) under a load of signed Alipay notifications, then started
 * again. The requests in flight at the kill are answered failure at once (not after the 10 s request
 * timeout), the pools read empty at rest in /metrics, and once the platform's retries are through every
 * order is paid exactly once. On main: 4 requests hung ~9.9 s, in use 4 and 525 pending at rest.
 */
@Tag("drill")
class DatabaseKilledUnderLoadTest {
  private static final String TOKEN = "drill-admin-token";
  private static final int ORDERS = 600;
  private static final int CONCURRENT = 32; // more than the booking pool's 8: some wait for a connection
  /**
   * The request timeout is 10 s: an answer well within it was not the timeout's (154 ms for 32 in flight here; 5 s leaves a
   * busy 2-core CI room).
   */
  private static final long ANSWERED_WITHIN_MS = 5000;
  private static final long LOAD_STARTS_WITHIN_MS = 60_000;
  private static final long AT_REST_WITHIN_MS = 5000;
  private static final String[] POOLS = {"booking", "committed-reads", "notify-log", "status"};
  private static final HttpClient CLIENT = HttpClient.newHttpClient();

  /** One notification's deliveries: when the first was sent and answered, and whether it was booked. */
  private static final class Delivery {
    final String orderNo;
    final Map<String, String> params;
    volatile long sentAt;
    volatile long answeredAt;
    volatile boolean success;

    Delivery(String orderNo, Map<String, String> params) {
      this.orderNo = orderNo;
      this.params = params;
    }
  }

  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES) // install, signing, load, restart, retries: ~1 min here
  void requestsInFlightAreAnsweredAtOnceAndPoolsRestEmpty() throws Exception {
    // Whatever bypasses logback lands here: Vert.x prints a dead connection's failure with printStackTrace when the
    // connection has no exception handler (bare "java.net.SocketException: Connection reset", no time, no logger).
    PrintStream stderr = System.err;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    System.setErr(new PrintStream(printed, true, StandardCharsets.UTF_8));
    try {
      killUnderLoad();
    } finally {
      System.setErr(stderr);
    }
    assertThat(printed.toString(StandardCharsets.UTF_8)).as("printed on stderr, not logged").doesNotContain("Exception");
  }

  private void killUnderLoad() throws Exception {
    try (KillableMariaDb server = KillableMariaDb.onDisk()) {
      TestDatabase db = server.database();
      List<Delivery> deliveries = new ArrayList<>();
      List<String> bodies = new ArrayList<>();
      db.update("INSERT INTO orders (order_no, amount_cents) SELECT CONCAT('K', seq), 1000 FROM seq_0_to_"
          + (ORDERS - 1));
      for (int i = 0; i < ORDERS; i++) {
        String orderNo = "K" + i;
        Delivery d = new Delivery(orderNo, AlipayNotifications.payment(orderNo, "T-K" + i, "10.00"));
        deliveries.add(d);
        bodies.add(AlipayNotifications.signedBody(d.params)); // signed before the load: RSA is slow
      }
      try (TestService service = TestService.start(server.settings(), new JsonObject()
          .put("admin", new JsonObject().put("port", ServiceProcess.freePort()).put("token", TOKEN)))) {
        ConcurrentLinkedQueue<Integer> next = new ConcurrentLinkedQueue<>();
        for (int i = 0; i < ORDERS; i++) {
          next.add(i);
        }
        AtomicInteger answered = new AtomicInteger();
        List<CompletableFuture<Void>> workers = new ArrayList<>();
        for (int w = 0; w < CONCURRENT; w++) {
          workers.add(deliverAll(service, next, deliveries, bodies, answered));
        }
        long loadDeadline = System.nanoTime() + LOAD_STARTS_WITHIN_MS * 1_000_000;
        while (answered.get() < ORDERS / 4) {
          assertThat(System.nanoTime()).as("%d of %d answers within %d ms: the load did not run", answered.get(),
              ORDERS / 4, LOAD_STARTS_WITHIN_MS).isLessThan(loadDeadline);
          Thread.sleep(5);
        }
        server.kill();
        long killedAt = System.nanoTime();
        CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).join();
        server.start();

        long inFlight = deliveries.stream().filter(d -> d.sentAt < killedAt && d.answeredAt > killedAt).count();
        long slowest = deliveries.stream().filter(d -> d.sentAt < killedAt && d.answeredAt > killedAt)
            .mapToLong(d -> (d.answeredAt - killedAt) / 1_000_000).max().orElse(0);
        System.out.printf("killed after %d answers: %d requests in flight, the last answered %d ms after the kill%n",
            ORDERS / 4, inFlight, slowest);
        assertThat(inFlight).as("requests in flight at the kill").isPositive();
        assertThat(slowest).as("ms from the kill to the last in-flight answer").isLessThan(ANSWERED_WITHIN_MS);

        retryUntilBooked(service, deliveries);

        String metrics = atRest(service);
        System.out.println("at rest: " + metrics.lines().filter(l -> l.startsWith("paynotify_db_pool")).toList());
        for (String pool : POOLS) {
          String labels = "{pool=\"" + pool + "\"}";
          assertThat(value(metrics, "paynotify_db_pool_in_use" + labels)).as(pool + " in use at rest").isZero();
          assertThat(value(metrics, "paynotify_db_pool_waiting" + labels)).as(pool + " waiting at rest").isZero();
        }
        // Vert.x's own figures of the SQL pools, wrong after failed connections, are not published
        assertThat(metrics).doesNotContainPattern("vertx_pool_(in_use|queue_pending)\\{[^}]*pool_type=\"sql\"");
      }
      assertThat(db.count("SELECT COUNT(*) FROM payments")).as("payments: one per order").isEqualTo(ORDERS);
      assertThat(db.count("SELECT COUNT(*) FROM (SELECT order_no FROM payments GROUP BY order_no"
          + " HAVING COUNT(*) > 1) doubled")).as("orders paid twice").isZero();
      assertThat(db.count("SELECT COUNT(*) FROM orders WHERE status <> 'paid'")).as("orders left unpaid").isZero();
    }
  }

  /** A platform's sender: the next notification once the last was answered; records the first delivery. */
  private static CompletableFuture<Void> deliverAll(TestService service, ConcurrentLinkedQueue<Integer> next,
      List<Delivery> deliveries, List<String> bodies, AtomicInteger answered) {
    Integer i = next.poll();
    if (i == null) {
      return CompletableFuture.completedFuture(null);
    }
    Delivery d = deliveries.get(i);
    d.sentAt = System.nanoTime();
    return service.postAlipayAsync(bodies.get(i)).handle((reply, error) -> {
      d.answeredAt = System.nanoTime();
      d.success = succeeded(reply);
      answered.incrementAndGet();
      return null;
    }).thenCompose(ignored -> deliverAll(service, next, deliveries, bodies, answered));
  }

  /**
   * Whether Alipay takes the reply as success: no reply (a reset connection, a timeout: null) is a failure answer,
   * sent again as Alipay would, not the end of the test.
   */
  private static boolean succeeded(Reply reply) {
    return reply != null && "success".equals(reply.body());
  }

  /** Alipay's retries: each notification not answered success is sent again (new notify_id) until it is. */
  private static void retryUntilBooked(TestService service, List<Delivery> deliveries) throws InterruptedException {
    for (int round = 1; round <= 5; round++) {
      List<Delivery> failed = deliveries.stream().filter(d -> !d.success).toList();
      if (failed.isEmpty()) {
        return;
      }
      for (Delivery d : failed) {
        d.success = service.postAlipayAsync(AlipayNotifications.signedBody(AlipayNotifications.retry(d.params, round)))
            .handle((reply, error) -> succeeded(reply)).join();
      }
      Thread.sleep(500);
    }
    assertThat(deliveries.stream().filter(d -> !d.success).map(d -> d.orderNo)).as("never booked").isEmpty();
  }

  /**
   * /metrics once every pool reads 0 in use and 0 waiting, polled for up to {@link #AT_REST_WITHIN_MS} (the last
   * log batches may still be writing): the last scrape, whatever it read, for the assertions.
   */
  private static String atRest(TestService service) throws Exception {
    long deadline = System.nanoTime() + AT_REST_WITHIN_MS * 1_000_000;
    String metrics = scrape(service);
    while (!allZero(metrics) && System.nanoTime() < deadline) {
      Thread.sleep(100);
      metrics = scrape(service);
    }
    return metrics;
  }

  private static boolean allZero(String metrics) {
    for (String pool : POOLS) {
      String labels = "{pool=\"" + pool + "\"}";
      if (value(metrics, "paynotify_db_pool_in_use" + labels) != 0
          || value(metrics, "paynotify_db_pool_waiting" + labels) != 0) {
        return false;
      }
    }
    return true;
  }

  private static String scrape(TestService service) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.server().adminPort()
        + "/metrics")).header("Authorization", "Bearer " + TOKEN).build();
    HttpResponse<String> r = CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    return r.body();
  }

  private static long value(String metrics, String series) {
    Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " ([0-9.eE+-]+)$").matcher(metrics);
    assertThat(m.find()).as("series %s in /metrics", series).isTrue();
    return (long) Double.parseDouble(m.group(1));
  }
}
