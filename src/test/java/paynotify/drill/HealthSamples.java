package paynotify.drill;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * /health asked every {@link #EVERY_MILLIS} ms through a drill, as a load balancer or a monitor asks it: what
 * it answered, and when it was asked. Each ask starts on time whatever the ones before it do (one that hangs under
 * the load does not delay the next), on a client of its own (not the load's, whose connections and threads are busy).
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

  private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5)).build();
  /** In the order answered: read sorted by when asked. */
  private final List<Sample> samples = new CopyOnWriteArrayList<>();
  private final ScheduledExecutorService asker = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "drill-health");
    t.setDaemon(true);
    return t;
  });

  private HealthSamples(int port) {
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health"))
        .timeout(Duration.ofSeconds(30)).GET().build();
    asker.scheduleAtFixedRate(() -> ask(request), 0, EVERY_MILLIS, TimeUnit.MILLISECONDS);
  }

  /** Asks now, without waiting for the answer: it is recorded when it comes, with when it was asked. */
  private void ask(HttpRequest request) {
    long at = System.nanoTime();
    client.sendAsync(request, HttpResponse.BodyHandlers.ofString()).whenComplete((reply, error) -> samples.add(
        reply == null ? new Sample(at, -1, String.valueOf(error)) : new Sample(at, reply.statusCode(), reply.body())));
  }

  static HealthSamples start(int port) {
    return new HealthSamples(port);
  }

  /** The answers asked for between the two times (System.nanoTime), in the order asked. */
  List<Sample> between(long fromNanos, long toNanos) {
    return samples.stream().filter(s -> s.atNanos() >= fromNanos && s.atNanos() <= toNanos)
        .sorted(Comparator.comparingLong(Sample::atNanos)).toList();
  }

  /** The first answer with {@code status} asked for after {@code fromNanos}, null when none. */
  Sample first(int status, long fromNanos) {
    return samples.stream().filter(s -> s.status() == status && s.atNanos() >= fromNanos)
        .min(Comparator.comparingLong(Sample::atNanos)).orElse(null);
  }

  @Override
  public void close() {
    asker.shutdownNow();
  }
}
