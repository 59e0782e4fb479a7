package paynotify.drill;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import paynotify.testsupport.ChannelFixture;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.Http;
import paynotify.testsupport.Notification;

/**
 * Signed Alipay payments delivered at least once, as Alipay delivers them: a new order's notification every
 * {@code 1/rate} s, and each one answered anything but success sent again (re-signed, as Alipay re-sends with a
 * new notify_id) after {@link #RETRY_AFTER}, until success or {@link #GIVE_UP_AFTER}. Alipay waits minutes between
 * tries; the drill's seconds keep the drill short and the retries part of the load.
 */
final class AtLeastOnceLoad implements AutoCloseable {
  static final Duration RETRY_AFTER = Duration.ofMillis(500);
  static final Duration GIVE_UP_AFTER = Duration.ofSeconds(90);
  static final long CENTS = 990;

  /** One order's delivery: how many tries, when it was first answered success (0: not yet), the statuses seen. */
  static final class Delivery {
    final long firstSentNanos = System.nanoTime();
    volatile int tries;
    volatile long successNanos;
    volatile boolean gaveUp;
    final Map<Integer, Integer> statuses = new ConcurrentHashMap<>();
  }

  private static final ChannelFixture ALIPAY = ChannelFixture.alipay();

  private final int port;
  private final String prefix;
  private final int orders;
  // One thread signs and sends (the signer's notify_id sequence is not thread-safe); replies come back on the
  // HTTP client's threads and only schedule.
  private final ScheduledExecutorService sender = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "drill-sender");
    t.setDaemon(true);
    return t;
  });
  private final Map<Integer, Delivery> deliveries = new ConcurrentHashMap<>();
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicLong longestAnswerNanos = new AtomicLong();
  /** When the drill began the trouble (System.nanoTime; {@link #markTrouble}), MAX_VALUE before. */
  private volatile long troubleNanos = Long.MAX_VALUE;
  private final AtomicLong firstFailureNanos = new AtomicLong();

  private AtLeastOnceLoad(int port, String prefix, int orders) {
    this.port = port;
    this.prefix = prefix;
    this.orders = orders;
  }

  /**
   * Starts sending the payments of orders {@code prefix0..prefix(orders-1)} (they must exist, unpaid, at
   * {@link #CENTS}) at {@code perSecond}.
   */
  static AtLeastOnceLoad start(int port, String prefix, int orders, int perSecond) {
    AtLeastOnceLoad load = new AtLeastOnceLoad(port, prefix, orders);
    AtomicInteger next = new AtomicInteger();
    long everyMicros = 1_000_000L / perSecond;
    load.sender.scheduleAtFixedRate(() -> {
      int i = next.getAndIncrement();
      if (i < orders) {
        Delivery d = new Delivery();
        load.deliveries.put(i, d);
        load.send(i, d);
      }
    }, 0, everyMicros, TimeUnit.MICROSECONDS);
    return load;
  }

  static String trade(String prefix, int i) {
    return "T-" + prefix + i;
  }

  /** A LIKE pattern for every trade of the load of {@code prefix}. */
  static String trades(String prefix) {
    return "T-" + prefix + "%";
  }

  private void send(int i, Delivery d) {
    try {
      Notification notification = ALIPAY.payment(prefix + i, trade(prefix, i), CENTS, d.tries);
      d.tries++;
      inFlight.incrementAndGet();
      long sentAt = System.nanoTime();
      Http.sendAsync(port, notification).whenComplete((reply, error) -> {
        inFlight.decrementAndGet();
        longestAnswerNanos.accumulateAndGet(System.nanoTime() - sentAt, Math::max);
        answered(i, d, reply == null ? new Reply(-1, String.valueOf(error)) : reply);
      });
    } catch (Exception e) {
      answered(i, d, new Reply(-1, e.toString()));
    }
  }

  private void answered(int i, Delivery d, Reply reply) {
    d.statuses.merge(reply.status(), 1, Integer::sum);
    if (ALIPAY.success().test(reply)) {
      d.successNanos = System.nanoTime();
      return;
    }
    long now = System.nanoTime();
    // the episode's start: a failure answer once the drill began the trouble; not one of a load that overran the
    // service before it, nor a reset or a timeout (-1: no answer from the service)
    if (reply.status() != -1 && now >= troubleNanos) {
      firstFailureNanos.compareAndSet(0, now);
    }
    if (System.nanoTime() - d.firstSentNanos > GIVE_UP_AFTER.toNanos()) {
      d.gaveUp = true;
    } else {
      sender.schedule(() -> send(i, d), RETRY_AFTER.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  /**
   * Marks now as when the drill began the trouble (right before it fills the disk or sets read_only): returns it
   * (System.nanoTime). {@link #awaitFirstFailure} counts from here.
   */
  long markTrouble() {
    troubleNanos = System.nanoTime();
    return troubleNanos;
  }

  /**
   * Waits for the first answer that was not success since {@link #markTrouble} (the database's first refusal, as the
   * platform sees it), {@code within} at most: when it came (System.nanoTime), 0 when none did.
   */
  long awaitFirstFailure(Duration within) throws InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    while (firstFailureNanos.get() == 0 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    return firstFailureNanos.get();
  }

  /** Waits until every order was sent and each is answered success or given up, {@code within} at most. */
  boolean awaitDelivered(Duration within) throws InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    while (System.nanoTime() < deadline) {
      if (deliveries.size() == orders && inFlight.get() == 0
          && deliveries.values().stream().allMatch(d -> d.successNanos != 0 || d.gaveUp)) {
        return true;
      }
      Thread.sleep(100);
    }
    return false;
  }

  /** The trades answered success at least once (each must have its payment row). */
  List<String> answeredSuccess() {
    return deliveries.entrySet().stream().filter(e -> e.getValue().successNanos != 0)
        .map(e -> trade(prefix, e.getKey())).toList();
  }

  int sent() {
    return deliveries.size();
  }

  /** All tries so far, first ones and retries. */
  int tries() {
    return deliveries.values().stream().mapToInt(d -> d.tries).sum();
  }

  /** Tries answered anything but success (each sent again, as Alipay would). */
  int failureAnswers() {
    return deliveries.values().stream().mapToInt(d -> d.statuses.entrySet().stream()
        .mapToInt(Map.Entry::getValue).sum()).sum() - answeredSuccess().size();
  }

  long gaveUp() {
    return deliveries.values().stream().filter(d -> d.gaveUp).count();
  }

  /** How many answers of each HTTP status (-1: no answer, the connection failed). */
  Map<Integer, Integer> statuses() {
    Map<Integer, Integer> all = new TreeMap<>();
    deliveries.values().forEach(d -> d.statuses.forEach((s, n) -> all.merge(s, n, Integer::sum)));
    return all;
  }

  /** The longest a try waited for its answer (a request hung until the request timeout shows here). */
  Duration longestAnswer() {
    return Duration.ofNanos(longestAnswerNanos.get());
  }

  @Override
  public void close() {
    sender.shutdownNow();
  }
}
