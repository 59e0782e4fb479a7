package paynotify.drill;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import paynotify.testsupport.Http;

/**
 * /health asked every {@link #EVERY_MILLIS} ms through a drill, as a load balancer or a monitor asks it: what
 * it answered, and when.
 */
final class HealthSamples implements AutoCloseable {
  static final long EVERY_MILLIS = 200;

  /** One answer: when it was asked (System.nanoTime), its status and body (-1 and the error: no answer). */
  record Sample(long atNanos, int status, String body) {
    @Override
    public String toString() {
      return status + " " + body.strip();
    }
  }

  private final List<Sample> samples = new CopyOnWriteArrayList<>();
  private final ScheduledExecutorService asker = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "drill-health");
    t.setDaemon(true);
    return t;
  });

  private HealthSamples(int port) {
    asker.scheduleWithFixedDelay(() -> {
      long at = System.nanoTime();
      try {
        Http.Reply reply = Http.get(port, "/health");
        samples.add(new Sample(at, reply.status(), reply.body()));
      } catch (Exception e) {
        samples.add(new Sample(at, -1, e.toString()));
      }
    }, 0, EVERY_MILLIS, TimeUnit.MILLISECONDS);
  }

  static HealthSamples start(int port) {
    return new HealthSamples(port);
  }

  /** The answers asked for between the two times (System.nanoTime), in order. */
  List<Sample> between(long fromNanos, long toNanos) {
    return samples.stream().filter(s -> s.atNanos() >= fromNanos && s.atNanos() <= toNanos).toList();
  }

  /** The first answer with {@code status} asked for after {@code fromNanos}, null when none. */
  Sample first(int status, long fromNanos) {
    return samples.stream().filter(s -> s.status() == status && s.atNanos() >= fromNanos).findFirst().orElse(null);
  }

  @Override
  public void close() {
    asker.shutdownNow();
  }
}
