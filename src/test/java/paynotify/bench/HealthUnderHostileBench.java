package paynotify.bench;

import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import paynotify.testsupport.HostileBodies;
import paynotify.testsupport.ServiceProcess;
import paynotify.testsupport.TestDatabase;

/**
 * How long /health waits while {@code --clients} clients send hostile form bodies of {@code --size}
 * bytes (every shape of {@link HostileBodies}, to Alipay's and epay's endpoints) as fast as they are
 * answered, http.max_body_bytes raised to let them in: the single event loop's stall, as a
 * notification would feel it. The service is a process of its own with start.sh's JVM settings (C1,
 * serial GC), on the embedded test MariaDB. Run by scripts/bench-health.sh. Not a test: one noisy
 * machine, wall-clock times.
 */
public final class HealthUnderHostileBench {
  private HealthUnderHostileBench() {}

  /** Arguments: [--clients 8] [--size 65536] [--seconds 20]. */
  public static void main(String[] args) throws Exception {
    int clients = option(args, "--clients", 8);
    int size = option(args, "--size", 65_536);
    int seconds = option(args, "--seconds", 20);
    Path dir = Files.createDirectories(Path.of("target", "bench-health"));
    JsonObject config = new JsonObject().put("http", new JsonObject().put("max_body_bytes", Math.max(size, 16_384)));
    try (ServiceProcess service = ServiceProcess.start(TestDatabase.get().settings(), config, dir,
        List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"))) {
      service.awaitHealth(200, Duration.ofSeconds(60));
      HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      List<byte[]> bodies = new ArrayList<>(HostileBodies.shapes(size).values());
      String[] paths = {"/notify/alipay", "/notify/epay"};
      AtomicBoolean running = new AtomicBoolean(true);
      AtomicLong sent = new AtomicLong();
      List<Thread> flood = new ArrayList<>();
      for (int c = 0; c < clients; c++) {
        int client = c;
        Thread t = new Thread(() -> {
          for (int i = client; running.get(); i++) {
            HttpRequest post = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.port()
                    + paths[i % paths.length])).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofByteArray(bodies.get(i % bodies.size()))).build();
            try {
              http.send(post, HttpResponse.BodyHandlers.discarding());
              sent.incrementAndGet();
            } catch (Exception e) {
              // a refused connection counts for nothing; the loop goes on
            }
          }
        });
        t.start();
        flood.add(t);
      }
      HttpRequest health = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.port() + "/health"))
          .build();
      List<Long> waits = new ArrayList<>();
      long end = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
      Thread.sleep(1000); // the flood under way
      while (System.nanoTime() < end) {
        long start = System.nanoTime();
        http.send(health, HttpResponse.BodyHandlers.discarding());
        waits.add(System.nanoTime() - start);
        Thread.sleep(20);
      }
      running.set(false);
      for (Thread t : flood) {
        t.join();
      }
      long[] ms = waits.stream().mapToLong(Long::longValue).sorted().toArray();
      System.out.printf("%d clients, %d-byte hostile bodies: %,d refused in %d s (%,d/s); /health over %d probes:"
              + " median %.1f ms, p99 %.1f ms, worst %.1f ms%n", clients, size, sent.get(), seconds,
          sent.get() / seconds, ms.length, ms[ms.length / 2] / 1e6, ms[(int) (ms.length * 0.99)] / 1e6,
          ms[ms.length - 1] / 1e6);
      System.out.println("  service log tail: " + Arrays.toString(service.log().lines()
          .filter(l -> l.contains("not answered")).limit(3).toArray()));
    }
    System.exit(0); // the configuration's stand-in PayPal verifier would keep the JVM up
  }

  private static int option(String[] args, String name, int fallback) {
    for (int i = 0; i + 1 < args.length; i++) {
      if (args[i].equals(name)) {
        return Integer.parseInt(args[i + 1]);
      }
    }
    return fallback;
  }
}
