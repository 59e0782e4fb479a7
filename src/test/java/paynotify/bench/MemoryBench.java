package paynotify.bench;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import paynotify.bench.NotifyBench.Generator;
import paynotify.bench.NotifyBench.Result;
import paynotify.config.AppConfig.DatabaseSettings;
import paynotify.setup.EmbeddedDatabase;
import paynotify.setup.migrate.Jdbc;
import paynotify.testsupport.AlipayNotifications;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.Notification;
import paynotify.testsupport.ServiceProcess;
import paynotify.testsupport.TestDatabase;

/**
 * The memory and cold-path benchmark (run by scripts/bench-memory.sh, not a test). For each set of
 * JVM options given (one service process each, started by scripts/start.sh with them as JAVA_OPTS;
 * "default" leaves start.sh's own), back to back on one embedded MariaDB: the CPU the service spends
 * to start, per notification over the first {@code cold} Alipay first deliveries after start, and
 * per notification once warm (the last of three rounds of {@code n / 3}); throughput; and its
 * memory under that load at concurrency C: peak PSS (sampled from /proc/PID/smaps_rollup), peak
 * RSS, threads, GC time. For finding where the memory goes it writes, next to the service's log, its
 * smaps, heap, metaspace and class loaders after the load, and jcmd's native memory summary when
 * the options hold -XX:NativeMemoryTracking.
 */
public final class MemoryBench {
  private static final String DEFAULT = "default";
  private static final int WARM_ROUNDS = 3;

  public static void main(String[] args) throws Exception {
    int n = 9000;
    int c = 32;
    int cold = 1000;
    int repeat = 1;
    Path work = Path.of("target/bench-memory");
    List<String> variants = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--n" -> n = Integer.parseInt(args[++i]);
        case "--c" -> c = Integer.parseInt(args[++i]);
        case "--cold" -> cold = Integer.parseInt(args[++i]);
        case "--repeat" -> repeat = Integer.parseInt(args[++i]);
        case "--dir" -> work = Path.of(args[++i]);
        default -> variants.add(args[i]);
      }
    }
    if (variants.isEmpty()) {
      variants.add(DEFAULT);
    }
    System.out.printf("paynotify memory bench: per start %d cold + %d warm Alipay first deliveries, C=%d;"
        + " %d option set(s) x %d%n", cold, n, c, variants.size(), repeat);
    try (EmbeddedDatabase mariadb = EmbeddedDatabase.start(work.resolve("mariadb"), TestDatabase.NAME)) {
      DatabaseSettings db = TestDatabase.settings("127.0.0.1", mariadb.port(), "");
      TestDatabase.createFresh(db);
      Generator generator = Generator.of("alipay");
      Vertx vertx = Vertx.vertx();
      try {
        HttpClient client = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true),
            new PoolOptions().setHttp1MaxSize(c));
        // Runs alternate between the option sets, so that drift on a noisy machine hits all alike.
        int run = 0;
        for (int r = 0; r < repeat; r++) {
          for (String opts : variants) {
            String prefix = "M" + run + "_";
            createOrders(db, prefix, cold + n);
            List<Notification> all = generator.notifications(prefix, cold + n, 1, 0);
            Path dir = Files.createDirectories(work.resolve("run" + run));
            System.out.printf("%nrun %d, JAVA_OPTS: %s%n", run, opts);
            new Run(dir, opts, client, c).measure(db, all.subList(0, cold), all.subList(cold, all.size()));
            run++;
          }
        }
      } finally {
        vertx.close().await();
      }
    }
  }

  /** {@code count} unpaid orders {@code prefix}0.. with NotifyBench's amounts, in one statement. */
  private static void createOrders(DatabaseSettings db, String prefix, int count) throws Exception {
    try (Connection conn = Jdbc.open(db);
        var ps = conn.prepareStatement("INSERT INTO orders (order_no, amount_cents) SELECT CONCAT(?, seq),"
            + " 100 + seq % 10000 FROM seq_0_to_" + (count - 1))) {
      ps.setString(1, prefix);
      ps.executeUpdate();
    }
  }

  /** One service process, from start to SIGTERM. */
  private record Run(Path dir, String opts, HttpClient client, int c) {
    void measure(DatabaseSettings db, List<Notification> cold, List<Notification> warm) throws Exception {
      long started = System.nanoTime();
      Process service = start(db);
      try {
        int port = awaitReady(service);
        long pid = service.pid();
        double startMs = (System.nanoTime() - started) / 1e6;
        double startCpu = cpuMs(pid);
        PssSampler pss = PssSampler.start(pid);
        Predicate<Reply> success = Generator.of("alipay").success();
        Result first = NotifyBench.fire(client, port, null, cold, c, success);
        double coldCpu = cpuMs(pid) - startCpu;
        double gcBefore = gcSeconds(pid);
        List<Result> rounds = new ArrayList<>();
        List<Double> cpus = new ArrayList<>();
        int size = warm.size() / WARM_ROUNDS;
        for (int r = 0; r < WARM_ROUNDS; r++) {
          double cpu = cpuMs(pid);
          rounds.add(NotifyBench.fire(client, port, null, warm.subList(r * size, (r + 1) * size), c, success));
          cpus.add((cpuMs(pid) - cpu) / size);
        }
        double gcWarm = gcSeconds(pid) - gcBefore;
        double wallWarm = rounds.stream().mapToLong(Result::nanos).sum() / 1e9;
        long peakPss = pss.stop();
        int ok = first.ok() + rounds.stream().mapToInt(Result::ok).sum();
        Result last = rounds.get(WARM_ROUNDS - 1);

        System.out.printf("  start (to database ready): %.0f ms wall, %.0f ms CPU; threads after load %d%n",
            startMs, startCpu, status(pid, "Threads:"));
        System.out.printf("  cold, first %d: %.0f/s, CPU %.3f ms per notification%n", cold.size(),
            first.perSecond(), coldCpu / cold.size());
        System.out.printf("  warm rounds of %d: %s /s; CPU per notification %s ms (last: after %d)%n", size,
            String.join(" ", rounds.stream().map(x -> String.format("%.0f", x.perSecond())).toList()),
            String.join(" ", cpus.stream().map(x -> String.format("%.3f", x)).toList()), cold.size() + 2 * size);
        System.out.printf("  warm: GC %.2f s of %.1f s (%.1f %%); last round p99 %.1f ms%n", gcWarm, wallWarm,
            100 * gcWarm / wallWarm, last.percentileMs(0.99));
        System.out.printf("  memory under load: peak PSS %d MiB, peak RSS %d MiB, PSS after %d MiB%n",
            peakPss / 1024, status(pid, "VmHWM:") / 1024, pss(pid) / 1024);
        System.out.printf("  SUMMARY cold_cpu_ms=%.3f warm_cpu_ms=%.3f warm_per_s=%.0f peak_pss_mib=%d%n",
            coldCpu / cold.size(), cpus.get(WARM_ROUNDS - 1), last.perSecond(), peakPss / 1024);
        if (opts.contains("NativeMemoryTracking")) {
          Files.writeString(dir.resolve("nmt.txt"), jcmd(pid, "VM.native_memory", "summary"));
        }
        Files.writeString(dir.resolve("jvm.txt"), jcmd(pid, "GC.heap_info") + jcmd(pid, "VM.metaspace")
            + jcmd(pid, "VM.classloader_stats") + jcmd(pid, "GC.class_histogram"));
        Files.copy(Path.of("/proc/" + pid + "/smaps"), dir.resolve("smaps.txt"));
        if (ok != cold.size() + warm.size()) {
          throw new IllegalStateException("only " + ok + " notifications booked; see " + dir.resolve("service.log"));
        }
      } finally {
        service.destroy();
        service.waitFor(30, TimeUnit.SECONDS);
      }
    }

    private Process start(DatabaseSettings db) throws IOException {
      Path key = Files.writeString(dir.resolve("alipay_public_key.pem"), AlipayNotifications.PUBLIC_KEY_PEM);
      Path config = Files.writeString(dir.resolve("bench.yaml"), String.join("\n",
          "http:", "  port: 0", "admin:", "  port: " + ServiceProcess.freePort(),
          "database:", "  host: 127.0.0.1", "  port: " + db.port(), "  name: " + db.name(), "  user: root",
          "alipay:", "  app_id: \"" + AlipayNotifications.APP_ID + "\"",
          "  seller_id: \"" + AlipayNotifications.SELLER_ID + "\"", "  public_key_file: " + key.toAbsolutePath(), ""));
      ProcessBuilder pb = new ProcessBuilder("scripts/start.sh", "--config", config.toAbsolutePath().toString());
      // Leading NAME=value words are the environment (as in a shell), e.g. glibc's MALLOC_ARENA_MAX.
      String jvm = opts;
      while (jvm.matches("[A-Z_]+=\\S*(\\s.*)?")) {
        String[] word = jvm.split("\\s+", 2);
        pb.environment().put(word[0].substring(0, word[0].indexOf('=')), word[0].substring(word[0].indexOf('=') + 1));
        jvm = word.length > 1 ? word[1] : "";
      }
      if (jvm.isEmpty() || jvm.equals(DEFAULT)) {
        pb.environment().remove("JAVA_OPTS");
      } else {
        pb.environment().put("JAVA_OPTS", jvm);
      }
      return pb.redirectErrorStream(true).redirectOutput(dir.resolve("service.log").toFile()).start();
    }

    /** The port, once the service has logged that it listens and that its database is ready (it answers 503 before). */
    private int awaitReady(Process service) throws Exception {
      String listening = "listening on http://127.0.0.1:";
      for (int i = 0; i < 3000; i++) {
        if (!service.isAlive()) {
          throw new IllegalStateException("service exited; see " + dir.resolve("service.log"));
        }
        String log = Files.readString(dir.resolve("service.log"));
        int at = log.indexOf(listening);
        if (at >= 0 && log.contains(" ready (")) {
          return Integer.parseInt(log.substring(at + listening.length()).split("[^0-9]")[0]);
        }
        Thread.sleep(10);
      }
      throw new IllegalStateException("service not ready within 30 s; see " + dir.resolve("service.log"));
    }
  }

  /** The largest PSS seen, read every 50 ms while load runs. */
  private record PssSampler(Thread thread, AtomicLong peakKb) {
    static PssSampler start(long pid) {
      AtomicLong peak = new AtomicLong();
      Thread t = new Thread(() -> {
        while (!Thread.currentThread().isInterrupted()) {
          peak.accumulateAndGet(pss(pid), Math::max);
          try {
            Thread.sleep(50);
          } catch (InterruptedException e) {
            return;
          }
        }
      }, "pss-sampler");
      t.start();
      return new PssSampler(t, peak);
    }

    long stop() throws InterruptedException {
      thread.interrupt();
      thread.join();
      return peakKb.get();
    }
  }

  private static long pss(long pid) {
    return field(Path.of("/proc/" + pid + "/smaps_rollup"), "Pss:");
  }

  private static long status(long pid, String name) {
    return field(Path.of("/proc/" + pid + "/status"), name);
  }

  private static long field(Path file, String name) {
    try {
      for (String line : Files.readAllLines(file)) {
        if (line.startsWith(name)) {
          return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
    } catch (IOException gone) {
      // the process ended
    }
    return 0;
  }

  private static double cpuMs(long pid) {
    return ProcessHandle.of(pid).flatMap(p -> p.info().totalCpuDuration()).map(d -> d.toNanos() / 1e6)
        .orElse(Double.NaN);
  }

  /** Young plus full collection time so far (jstat's GCT column). */
  private static double gcSeconds(long pid) throws Exception {
    List<String> lines = run("jstat", "-gc", Long.toString(pid)).lines().toList();
    List<String> header = List.of(lines.get(0).trim().split("\\s+"));
    return Double.parseDouble(lines.get(1).trim().split("\\s+")[header.indexOf("GCT")]);
  }

  private static String jcmd(long pid, String... command) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("jcmd", Long.toString(pid)));
    cmd.addAll(List.of(command));
    return run(cmd.toArray(String[]::new));
  }

  private static String run(String... command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor();
    return out;
  }
}
