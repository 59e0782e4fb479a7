package paynotify.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import paynotify.store.KeyPurge;
import paynotify.testsupport.ChannelFixture;
import paynotify.testsupport.GaleraCluster;
import paynotify.testsupport.GaleraTestBase;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.Http;
import paynotify.testsupport.Notification;
import paynotify.testsupport.ServiceProcess;
import paynotify.testsupport.TestDatabase;
import paynotify.testsupport.TestService;

/**
 * Three paynotify processes, one on each node of a three-node Galera cluster: the configuration
 * docs/database.md's "More than one machine" describes. Replies are what a platform sees: success only after a
 * commit, anything else (503) is retried.
 */
class GaleraInstancesTest extends GaleraTestBase {
  private static final ChannelFixture alipay = ChannelFixture.alipay();
  private static final List<ServiceProcess> instances = new ArrayList<>();
  private static TestDatabase db;

  @BeforeAll
  static void startInstances(@TempDir Path dir) throws Exception {
    db = cluster.database(1);
    for (int n = 1; n <= GaleraCluster.NODES; n++) {
      instances.add(ServiceProcess.start(cluster.node(n), new JsonObject(),
          Files.createDirectories(dir.resolve("node" + n))));
    }
    for (ServiceProcess instance : instances) {
      instance.awaitHealth(200, Duration.ofSeconds(120));
    }
  }

  @AfterAll
  static void stopInstances() {
    instances.forEach(ServiceProcess::close);
  }

  @BeforeEach
  void emptyTables() {
    db.reset();
  }

  @Test
  void twentyFourCopiesSplitAcrossThreeInstancesBookOnce() throws Exception {
    int rounds = 10;
    int copies = 24;
    int successes = 0;
    for (int round = 0; round < rounds; round++) {
      String order = "GS" + round;
      String trade = "T-GS-" + round;
      db.insertOrder(order, 8888);
      List<CompletableFuture<Reply>> replies = new ArrayList<>();
      for (int i = 0; i < copies; i++) {
        replies.add(Http.sendAsync(instances.get(i % 3).port(), alipay.payment(order, trade, 8888, i)));
      }
      for (CompletableFuture<Reply> reply : replies) {
        Reply r = reply.join();
        assertThat(r).as("a success, or a failure the platform retries").matches(x -> alipay.success().test(x)
            || x.status() == 503 && x.body().equals("fail"));
        successes += alipay.success().test(r) ? 1 : 0;
      }
      assertThat(db.payments(trade)).as("payments of %s", trade).isEqualTo(1);
      assertThat(db.orderStatus(order)).isEqualTo("paid");
      assertThat(db.countWithin(Duration.ofSeconds(5), 1, "SELECT COUNT(*) FROM notify_log WHERE idem_key = ?"
          + " AND outcome = 'processed'", "alipay:pay:" + trade)).as("bookings of %s", trade).isEqualTo(1);
    }
    System.out.printf("storms on three instances, three nodes: %d rounds of %d copies, %d answered success,"
        + " %d a retryable failure; 1 payment each%n", rounds, copies, successes, rounds * copies - successes);
    assertThat(successes).as("copies answered success").isGreaterThanOrEqualTo(rounds);
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
  }

  @Test
  void aRefundOnOneNodeRacingItsPaymentOnAnotherEndsSettled() throws Exception {
    int rounds = 20;
    for (int round = 0; round < rounds; round++) {
      String order = "GR" + round;
      String trade = "T-GR-" + round;
      db.insertOrder(order, 5000);
      Notification payment = alipay.payment(order, trade, 5000, 0);
      Notification refund = alipay.refund(order, trade, 5000, "RF" + round, 5000, 5000, 0);
      // Both orders of arrival: the refund first on even rounds, the payment first on odd ones.
      boolean refundFirst = round % 2 == 0;
      CompletableFuture<Reply> first = Http.sendAsync(instances.get(0).port(), refundFirst ? refund : payment);
      CompletableFuture<Reply> second = Http.sendAsync(instances.get(1).port(), refundFirst ? payment : refund);
      untilSuccess(0, refundFirst ? refund : payment, first.join());
      untilSuccess(1, refundFirst ? payment : refund, second.join());
      assertThat(db.string("SELECT status FROM refunds WHERE trade_no = ?", trade)).as("refund of %s (%s first)",
          trade, refundFirst ? "refund" : "payment").isEqualTo("settled");
      assertThat(db.orderStatus(order)).as("order %s", order).isEqualTo("refunded");
    }
  }

  @Test
  void thePurgeOnOneNodeWhileBookingsRunOnTheOthers() throws Exception {
    int expired = 5000;
    db.update("INSERT INTO idempotent_keys (idem_key, fingerprint, created_at) SELECT CONCAT('alipay:pay:old-', seq),"
        + " REPEAT('a', 64), NOW(3) - INTERVAL 8 DAY FROM seq_1_to_" + expired);
    db.update("INSERT INTO notify_log (channel, outcome, body_bytes, raw_body, received_at) SELECT 'alipay',"
        + " 'processed', 2048, REPEAT('x', 2048), NOW(3) - INTERVAL 31 DAY FROM seq_1_to_" + expired);
    int payments = 300;
    db.update("INSERT INTO orders (order_no, amount_cents) SELECT CONCAT('GP', seq), 100 + seq FROM seq_0_to_"
        + (payments - 1));
    List<Reply> replies = new ArrayList<>();
    ExecutorService load = Executors.newFixedThreadPool(4);
    AtomicInteger next = new AtomicInteger();
    for (int t = 0; t < 4; t++) {
      int instance = 1 + t % 2; // nodes 2 and 3
      load.submit(() -> {
        for (int i = next.getAndIncrement(); i < payments; i = next.getAndIncrement()) {
          Reply r = Http.send(instances.get(instance).port(), alipay.payment("GP" + i, "T-GP-" + i, 100 + i, 0));
          synchronized (replies) {
            replies.add(r);
          }
        }
        return null;
      });
    }
    load.shutdown();
    int runs = 0;
    long deleted = 0;
    // The purge and the refund check on node 1, in a process of their own, again and again while the others book.
    try (TestService node1 = TestService.start(cluster.node(1), new JsonObject())) {
      while (!load.isTerminated() || runs == 0) {
        KeyPurge.Report report = node1.server().purge().runOnce().await();
        node1.server().pendingRefunds().runOnce().await();
        deleted += report.keysDeleted() + report.logRowsDeleted();
        runs++;
      }
    }
    System.out.printf("purge on node 1 (%d runs, %d rows deleted in batches of %d) while nodes 2 and 3 booked %d"
        + " payments%n", runs, deleted, KeyPurge.MAX_BATCH, payments);
    assertThat(replies).hasSize(payments).allMatch(alipay.success());
    assertThat(deleted).isEqualTo(2L * expired);
    assertThat(db.count("SELECT COUNT(*) FROM payments WHERE trade_no LIKE 'T-GP-%'")).isEqualTo(payments);
    assertThat(db.count("SELECT COUNT(*) FROM idempotent_keys WHERE idem_key LIKE 'alipay:pay:T-GP-%'"))
        .isEqualTo(payments);
    assertThat(db.countWithin(Duration.ofSeconds(5), payments,
        "SELECT COUNT(*) FROM notify_log WHERE idem_key LIKE 'alipay:pay:T-GP-%'")).isEqualTo(payments);
  }

  /** What one notification of the load got: its trade, which instance, when it was sent, the reply. */
  private record Attempt(int order, int instance, long sentAtNanos, long answeredAtNanos, boolean success, int status) {}

  @Test
  void aNodeKilledUnderLoadLosesNothingAndDoublesNothing() throws Exception {
    int orders = 3000;
    db.update("INSERT INTO orders (order_no, amount_cents) SELECT CONCAT('GK', seq), 100 + seq FROM seq_0_to_"
        + (orders - 1));
    List<Attempt> attempts = new ArrayList<>();
    AtomicInteger next = new AtomicInteger();
    AtomicBoolean stop = new AtomicBoolean();
    // Two senders for each instance, as a platform sends to each address on its own: one instance that
    // answers slowly holds up only its own.
    int sendersEach = 2;
    ExecutorService load = Executors.newFixedThreadPool(sendersEach * GaleraCluster.NODES);
    for (int t = 0; t < sendersEach * GaleraCluster.NODES; t++) {
      int instance = t % GaleraCluster.NODES;
      load.submit(() -> {
        for (int i = next.getAndIncrement(); i < orders && !stop.get(); i = next.getAndIncrement()) {
          long sent = System.nanoTime();
          Reply r = Http.send(instances.get(instance).port(), killLoad(i));
          synchronized (attempts) {
            attempts.add(new Attempt(i, instance, sent, System.nanoTime(), alipay.success().test(r), r.status()));
          }
          Thread.sleep(20);
        }
        return null;
      });
    }
    Thread.sleep(3000);
    long killed = System.nanoTime();
    cluster.kill(3);
    long down = System.nanoTime();
    // Longer than the cluster takes to declare node 3 gone (evs.suspect_timeout, 5 s): until then the
    // others' commits wait, since the group cannot deliver without it.
    Thread.sleep(10_000);
    long restart = System.nanoTime();
    long logBefore = Files.size(errorLog(3));
    cluster.start(3); // returns once node 3 has caught up by IST and is synced
    long rejoined = System.nanoTime();
    Duration healthy = instances.get(2).awaitHealth(200, Duration.ofSeconds(60));
    Thread.sleep(3000);
    stop.set(true);
    load.shutdown();
    assertThat(load.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
    String rejoin = Files.readString(errorLog(3)).substring((int) logBefore);
    // From its own position (a full state transfer starts from an unknown one, all zeros), by IST.
    assertThat(rejoin).as("node 3 rejoined by incremental state transfer").contains("IST received")
        .doesNotContain("Local state: 00000000-0000-0000-0000-000000000000");

    List<Attempt> whileDown = attempts.stream()
        .filter(a -> a.instance() == 2 && a.sentAtNanos() > down && a.answeredAtNanos() < restart).toList();
    assertThat(whileDown).as("notifications to the instance on node 3 while it was down").isNotEmpty()
        .allSatisfy(a -> assertThat(a.status()).isEqualTo(503));
    long othersWhileDown = attempts.stream().filter(a -> a.instance() != 2 && a.sentAtNanos() > down
        && a.answeredAtNanos() < restart && a.success()).count();
    assertThat(othersWhileDown).as("bookings by the other instances while node 3 was down").isPositive();

    // Answered success: booked, once. Nothing answered success may be missing, and nothing is there twice.
    Map<Integer, Boolean> answered = new ConcurrentHashMap<>();
    Map<Integer, Integer> sentTo = new ConcurrentHashMap<>();
    attempts.forEach(a -> {
      answered.merge(a.order(), a.success(), Boolean::logicalOr);
      sentTo.put(a.order(), a.instance());
    });
    long lostAfterSuccess = answered.entrySet().stream().filter(Map.Entry::getValue)
        .filter(e -> db.payments(trade(e.getKey())) != 1).count();
    assertThat(lostAfterSuccess).as("answered success but not booked once").isZero();

    // The platform retries the others until they succeed.
    int retries = 0;
    for (Map.Entry<Integer, Boolean> e : answered.entrySet()) {
      if (!e.getValue()) {
        int instance = sentTo.get(e.getKey());
        untilSuccess(instance, killLoad(e.getKey()), Http.send(instances.get(instance).port(), killLoad(e.getKey())));
        retries++;
      }
    }
    long sent = answered.size();
    long booked = db.count("SELECT COUNT(*) FROM payments WHERE trade_no LIKE 'T-GK-%'");
    // The instances write notify_log after their replies: their rows so far, before a double is looked for
    // (those queued by the instance whose node died may be dropped, counted: then this waits its 5 s).
    db.countWithin(Duration.ofSeconds(5), booked,
        "SELECT COUNT(*) FROM notify_log WHERE idem_key LIKE 'alipay:pay:T-GK-%' AND outcome = 'processed'");
    long doubled = db.count("SELECT COUNT(*) FROM (SELECT idem_key FROM notify_log WHERE idem_key LIKE 'alipay:pay:T-GK-%'"
        + " AND outcome = 'processed' GROUP BY idem_key HAVING COUNT(*) > 1) d")
        + db.count("SELECT COUNT(*) FROM anomalies");
    long paid = db.count("SELECT COUNT(*) FROM orders WHERE order_no LIKE 'GK%' AND status = 'paid'");
    long failures = attempts.stream().filter(a -> !a.success()).count();
    long failuresOfNode3 = attempts.stream().filter(a -> !a.success() && a.instance() == 2).count();
    long othersLongestWait = attempts.stream().filter(a -> a.instance() != 2)
        .mapToLong(a -> (a.answeredAtNanos() - a.sentAtNanos()) / 1_000_000).max().orElse(0);
    System.out.printf("node 3 killed under load: %d attempts to 3 instances (%d notifications), %d not success"
            + " (%d of them 503 from the instance on node 3, %d while it was down), %d retried to success;"
            + " lost %d, doubled %d; the other instances' longest reply %d ms (their commits wait until the cluster"
            + " has declared node 3 gone); kill %d ms, down %d ms, rejoin by IST %d ms, instance healthy %d ms later%n",
        attempts.size(), sent, failures, failuresOfNode3, whileDown.size(), retries, sent - booked, doubled,
        othersLongestWait,
        (down - killed) / 1_000_000, (restart - down) / 1_000_000, (rejoined - restart) / 1_000_000,
        healthy.toMillis());
    assertThat(booked).as("payments booked: every notification sent, once").isEqualTo(sent);
    assertThat(paid).as("orders paid").isEqualTo(sent);
    assertThat(doubled).as("doubled bookings").isZero();
  }

  private static String trade(int i) {
    return "T-GK-" + i;
  }

  private static Notification killLoad(int i) throws Exception {
    return alipay.payment("GK" + i, trade(i), 100 + i, 0);
  }

  private static Path errorLog(int node) {
    return Path.of("target/galera/node" + node + "/error.log");
  }

  /** Sends {@code n} to instance {@code i} again, as the platform would, until it answers success. */
  private static Reply untilSuccess(int i, Notification n, Reply reply) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    Reply r = reply;
    while (!alipay.success().test(r)) {
      assertThat(System.nanoTime()).as("success within 60 s; last reply %s", r).isLessThan(deadline);
      Thread.sleep(200);
      r = Http.send(instances.get(i).port(), n);
    }
    return r;
  }
}
