package paynotify.bench;

import com.alipay.api.internal.util.AlipaySignature;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.DoubleSupplier;
import java.util.function.Predicate;
import java.util.stream.IntStream;
import paynotify.channel.Money;
import paynotify.config.AppConfig.DatabaseSettings;
import paynotify.setup.EmbeddedDatabase;
import paynotify.setup.migrate.Jdbc;
import paynotify.store.SqlQueries;
import paynotify.testsupport.AlipayNotifications;
import paynotify.testsupport.ChannelFixture;
import paynotify.testsupport.EpayNotifications;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.Notification;
import paynotify.testsupport.ServiceProcess;
import paynotify.testsupport.TestDatabase;
import paynotify.testsupport.WechatV2Notifications;
import paynotify.testsupport.WechatV3Notifications;

/**
 * The notify benchmark (run by scripts/bench.sh, not a test). In one run, on one embedded
 * MariaDB: first deliveries and duplicates through the service (a separate JVM started by
 * scripts/start.sh with its JVM options), and the same three-statement transaction straight over
 * JDBC at the same concurrency (the ceiling). Prints throughputs, latencies, ratios and the
 * service's peak RSS.
 */
public final class NotifyBench {
  private static final String FORM = "application/x-www-form-urlencoded; charset=utf-8";
  /** The ceiling's order update: the one a notify.php runs (the service's is OrdersTable's, on a mapped table). */
  static final String MARK_ORDER_PAID = "UPDATE orders SET status = 'paid', paid_at = ?, channel = ?,"
      + " trade_no = ? WHERE order_no = ? AND status = 'unpaid' AND amount_cents = ?";

  public static void main(String[] args) throws Exception {
    Map<String, String> opt = options(args);
    int n = Integer.parseInt(opt.getOrDefault("n", "20000"));
    int c = Integer.parseInt(opt.getOrDefault("c", "64"));
    int m = Integer.parseInt(opt.getOrDefault("m", "1000"));
    int k = Integer.parseInt(opt.getOrDefault("k", "10"));
    int warmup = Integer.parseInt(opt.getOrDefault("warmup", "20000"));
    Path work = Path.of(opt.getOrDefault("dir", "target/bench"));
    String channel = opt.getOrDefault("channel", "alipay");
    // --forward on: the service forwards every payment to a site in this JVM, which answers at once in
    // some rounds and never in the others (each attempt then times out): does booking notice?
    boolean forward = opt.getOrDefault("forward", "off").equals("on");
    // --alerts on: a WeCom robot in this JVM as the alert target (the watch looks every 10 s; nothing to tell)
    boolean alerts = opt.getOrDefault("alerts", "off").equals("on");
    // --admin off: no admin listener, no metrics kept (the default is on, as shipped); --pool N: database.pool_size;
    // --instances N: http.instances
    boolean admin = !opt.getOrDefault("admin", "on").equals("off");
    // --php: the seed's PHP callback (shared/anchors/php-callback) in the same rounds, on the same server
    boolean php = opt.containsKey("php") && !opt.get("php").equals("off");
    if (php && !channel.equals("alipay")) {
      throw new IllegalArgumentException("--php: the PHP callback books Alipay notifications only");
    }
    // --server HOST:PORT: a running MariaDB/MySQL (root, no password) instead of a fresh embedded one;
    // --php needs it (the PHP callback runs on the machine's server), 127.0.0.1:3306 by default.
    String server = opt.getOrDefault("server", php ? "127.0.0.1:3306" : null);

    System.out.printf("paynotify bench: channel %s, N=%d first deliveries, M=%d x K=%d duplicates, concurrency C=%d,"
        + " warm-up %d, database %s%s%n", channel, n, m, k, c, warmup, server == null ? "embedded MariaDB" : server,
        php ? ", PHP callback" : "");
    try (EmbeddedDatabase mariadb = server == null ? EmbeddedDatabase.start(work.resolve("mariadb"), TestDatabase.NAME)
        : null) {
      DatabaseSettings db = server == null ? TestDatabase.settings("127.0.0.1", mariadb.port(), "")
          : new DatabaseSettings(server.split(":")[0], Integer.parseInt(server.split(":")[1]), "paynotify_bench",
              "root", "", 8, 1000, Duration.ofSeconds(5), 5, null);
      TestDatabase.createFresh(db);
      createOrders(db, "W", warmup);
      createOrders(db, "B", n);
      createOrders(db, "J", warmup + n);
      if (forward) {
        createOrders(db, "H", n);
      }

      System.out.println("signing notifications (with the platform's test keys) ...");
      Generator generator = Generator.of(channel);
      List<Notification> warmFirst = generator.notifications("W", warmup, 1, 0);
      List<Notification> warmCopies = generator.notifications("W", warmup / 2, 1, 1);
      List<Notification> first = generator.notifications("B", n, 1, 0);
      List<Notification> copies = generator.notifications("B", m, k, 1); // re-signed copies of booked payments
      List<Notification> siteHanging = forward ? generator.notifications("H", n, 1, 0) : List.of();
      List<Notification> phpFirst = php ? generator.notifications("P", warmup + n, 1, 0) : List.of();

      Vertx vertx = Vertx.vertx();
      Site site = forward ? Site.start(vertx) : null;
      Integer robot = !alerts ? null : vertx.createHttpServer()
          .requestHandler(r -> r.response().end("{\"errcode\":0,\"errmsg\":\"ok\"}"))
          .listen(0, "127.0.0.1").await().actualPort();
      Process service = startService(work, db, site, robot, admin, opt.get("pool"), opt.get("instances"));
      PhpCallback phpCallback = null;
      try {
        if (php) {
          phpCallback = PhpCallback.start(Path.of(opt.getOrDefault("php-dir", "../shared/anchors/php-callback")), db,
              work.resolve("alipay_public_key.pem"), warmup + n, work.resolve("php-up.log"));
        }
        int port = waitForService(service, work);
        HttpClient client = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true),
            new PoolOptions().setHttp1MaxSize(c));
        CpuMeter cpu = new CpuMeter(service.pid(), serverPid(db), db);
        // The cold path: the first 1,000 notifications after the start, timed apart from the rest.
        int cold = Math.min(COLD, warmFirst.size());
        double jitBefore = jitCpuMs(service.pid());
        Result coldStart = cpu.measure(() -> fire(client, port, null, warmFirst.subList(0, cold), c,
            generator.success()));
        double jitCold = jitCpuMs(service.pid()) - jitBefore;
        // JIT warm-up of both paths, of the ceiling and of the PHP callback, not reported.
        fire(client, port, null, warmFirst.subList(cold, warmFirst.size()), c, generator.success());
        fire(client, port, null, warmCopies, c, generator.success());
        Ceiling.run(db, "J", 0, warmup, c);
        if (php) {
          fire(client, PhpCallback.PORT, PhpCallback.PATH, phpFirst.subList(0, warmup), c, generator.success());
        }

        CpuMeter phpMeter = php ? phpCallback.cpu() : null;
        // Rounds alternate service and ceiling, so that drift on a noisy machine hits both alike.
        List<Result> firsts = new ArrayList<>();
        List<Result> dups = new ArrayList<>();
        List<Result> ceilings = new ArrayList<>();
        List<Result> hanging = new ArrayList<>();
        List<Result> phps = new ArrayList<>();
        long pssKb = 0;
        double jitFirsts = 0;
        for (int r = 0; r < ROUNDS; r++) {
          List<Notification> firstSlice = slice(first, r);
          List<Notification> copySlice = slice(copies, r);
          int from = warmup + r * n / ROUNDS;
          double jit = jitCpuMs(service.pid());
          firsts.add(cpu.measure(() -> fire(client, port, null, firstSlice, c, generator.success())));
          jitFirsts += jitCpuMs(service.pid()) - jit;
          pssKb = Math.max(pssKb, pssKb(service.pid()));
          ceilings.add(cpu.measure(() -> Ceiling.run(db, "J", from, n / ROUNDS, c)));
          dups.add(cpu.measure(() -> fire(client, port, null, copySlice, c, generator.success())));
          if (php) {
            List<Notification> phpSlice = phpFirst.subList(from, warmup + (r + 1) * n / ROUNDS);
            phps.add(phpMeter.measure(() -> fire(client, PhpCallback.PORT, PhpCallback.PATH, phpSlice, c,
                generator.success())));
          }
          if (forward) {
            List<Notification> hangSlice = slice(siteHanging, r);
            site.hang(true);
            hanging.add(cpu.measure(() -> fire(client, port, null, hangSlice, c, generator.success())));
            site.hang(false);
          }
        }
        long rssKb = peakRssKb(service.pid());
        long booked = countPayments(db, "B");

        System.out.println();
        System.out.printf("%-34s %10s %9s %9s %14s %14s %11s%n", "", "per second", "p50 ms", "p99 ms",
            "service CPU/n", "database CPU/n", "stmts/n");
        Result.sum(firsts).print("service, first deliveries");
        Result.sum(dups).print("service, duplicates");
        Result.sum(ceilings).print("ceiling: 3 statements over JDBC");
        if (php) {
          Result.sum(phps).print("PHP callback (nginx+FPM CPU)");
        }
        if (forward) {
          Result.sum(hanging).print("service, first, site never answers");
        }
        coldStart.print("service, first " + cold + " after start");
        System.out.println();
        Result firstAll = Result.sum(firsts);
        System.out.printf("first deliveries / ceiling:     %.2f  (rounds: %s; target >= 0.80)%n",
            firstAll.perSecond() / Result.sum(ceilings).perSecond(), ratios(firsts, ceilings));
        if (php) {
          System.out.printf("first deliveries / PHP:         %.2f  (rounds: %s; target >= 2.5)%n",
              firstAll.perSecond() / Result.sum(phps).perSecond(), ratios(firsts, phps));
        }
        System.out.printf("duplicates / first deliveries:  %.2f  (rounds: %s; target >= 3)%n",
            Result.sum(dups).perSecond() / firstAll.perSecond(), ratios(dups, firsts));
        System.out.printf("first deliveries p99:           %.1f ms  (target <= 30 ms)%n", firstAll.percentileMs(0.99));
        System.out.printf("cold / warm service CPU:        %.3f / %.3f ms per notification  (first %d after start /"
            + " first deliveries)%n", coldStart.serviceCpuMs(), firstAll.serviceCpuMs(), cold);
        System.out.printf("  of which JIT compiler threads: %.3f / %.3f ms per notification%n", jitCold / cold,
            jitFirsts / firstAll.latenciesMicros().length);
        if (forward) {
          System.out.printf("site never answers / site up:   %.2f  (rounds: %s; forwarding must not slow booking)%n",
              Result.sum(hanging).perSecond() / firstAll.perSecond(), ratios(hanging, firsts));
          System.out.printf("events the site got: %d (it answered %d of them)%n", site.received(), site.answered());
        }
        System.out.printf("service PSS under load:         %d MB  (target <= 96 MB; peak RSS %d MB; JVM options of"
            + " scripts/start.sh)%n", pssKb / 1024, rssKb / 1024);
        if (php) {
          System.out.printf("PHP callback PSS:               %d MB  (nginx + php-fpm, every process)%n",
              phpCallback.pssKb() / 1024);
        }
        int firstOk = firsts.stream().mapToInt(Result::ok).sum();
        int dupOk = dups.stream().mapToInt(Result::ok).sum();
        System.out.printf("replies: first %d success / %d; duplicates %d success / %d; payments booked %d of %d%n",
            firstOk, first.size(), dupOk, copies.size(), booked, n);
        if (firstOk != first.size() || dupOk != copies.size() || booked != n) {
          System.out.println("FAILED: not every notification was booked exactly once");
          System.exit(1);
        }
      } finally {
        vertx.close().await();
        service.destroy();
        service.waitFor(30, TimeUnit.SECONDS);
        if (phpCallback != null) {
          phpCallback.stop();
        }
      }
    }
  }

  /** The notifications after the start whose CPU is reported as the cold path. */
  private static final int COLD = 1000;
  private static final int ROUNDS = 3;

  /** The site's endpoint: answers 200 at once, or (hang) never, so that every attempt times out. */
  record Site(HttpServer server, AtomicBoolean hanging, AtomicInteger requests, AtomicInteger answers) {
    static Site start(Vertx vertx) {
      AtomicBoolean hanging = new AtomicBoolean();
      AtomicInteger received = new AtomicInteger();
      AtomicInteger answered = new AtomicInteger();
      HttpServer server = vertx.createHttpServer().requestHandler(req -> req.body().onSuccess(body -> {
        received.incrementAndGet();
        if (!hanging.get()) {
          answered.incrementAndGet();
          req.response().end();
        }
      })).listen(0, "127.0.0.1").await();
      return new Site(server, hanging, received, answered);
    }

    int port() {
      return server.actualPort();
    }

    void hang(boolean never) {
      hanging.set(never);
    }

    int received() {
      return requests.get();
    }

    int answered() {
      return answers.get();
    }
  }

  private static <T> List<T> slice(List<T> all, int round) {
    return all.subList(round * all.size() / ROUNDS, (round + 1) * all.size() / ROUNDS);
  }

  private static String ratios(List<Result> a, List<Result> b) {
    List<String> r = new ArrayList<>();
    for (int i = 0; i < a.size(); i++) {
      r.add(String.format("%.2f", a.get(i).perSecond() / b.get(i).perSecond()));
    }
    return String.join(" ", r);
  }

  /** Throughput and latencies of one phase. */
  record Result(int ok, long nanos, long[] latenciesMicros, double serviceCpuMs, double databaseCpuMs,
      double statements) {
    Result(int ok, long nanos, long[] latenciesMicros) {
      this(ok, nanos, latenciesMicros, Double.NaN, Double.NaN, Double.NaN);
    }

    Result withCpu(double serviceMs, double databaseMs, long questions) {
      int count = latenciesMicros.length;
      return new Result(ok, nanos, latenciesMicros, serviceMs / count, databaseMs / count, (double) questions / count);
    }

    static Result sum(List<Result> rounds) {
      int ok = 0;
      long nanos = 0;
      double service = 0;
      double database = 0;
      double statements = 0;
      List<long[]> all = new ArrayList<>();
      for (Result r : rounds) {
        ok += r.ok;
        nanos += r.nanos;
        service += r.serviceCpuMs * r.latenciesMicros.length;
        database += r.databaseCpuMs * r.latenciesMicros.length;
        statements += r.statements * r.latenciesMicros.length;
        all.add(r.latenciesMicros);
      }
      long[] latencies = all.stream().flatMapToLong(Arrays::stream).toArray();
      int count = latencies.length;
      return new Result(ok, nanos, latencies, service / count, database / count, statements / count);
    }

    double perSecond() {
      return latenciesMicros.length * 1e9 / nanos;
    }

    double percentileMs(double p) {
      long[] sorted = latenciesMicros.clone();
      Arrays.sort(sorted);
      return sorted[Math.min(sorted.length - 1, (int) (sorted.length * p))] / 1000.0;
    }

    void print(String name) {
      System.out.printf("%-34s %10.0f %9.2f %9.2f %11.3f ms %11.3f ms %11.1f%n", name, perSecond(),
          percentileMs(0.50), percentileMs(0.99), serviceCpuMs, databaseCpuMs, statements);
    }
  }

  /**
   * Sends every notification with {@code c} requests in flight; latency from send to full reply.
   *
   * @param path where to post them, or null for each one's own path
   */
  static Result fire(HttpClient client, int port, String path, List<Notification> notifications, int c,
      Predicate<Reply> success) {
    AtomicInteger next = new AtomicInteger();
    AtomicInteger ok = new AtomicInteger();
    long[] latencies = new long[notifications.size()];
    long start = System.nanoTime();
    List<Future<Void>> workers = new ArrayList<>();
    for (int w = 0; w < c; w++) {
      Promise<Void> done = Promise.promise();
      sendNext(client, port, path, notifications, success, next, ok, latencies, done);
      workers.add(done.future());
    }
    Future.all(workers).await();
    return new Result(ok.get(), System.nanoTime() - start, latencies);
  }

  private static void sendNext(HttpClient client, int port, String path, List<Notification> notifications,
      Predicate<Reply> success, AtomicInteger next, AtomicInteger ok, long[] latencies, Promise<Void> done) {
    int i = next.getAndIncrement();
    if (i >= notifications.size()) {
      done.complete();
      return;
    }
    Notification n = notifications.get(i);
    RequestOptions target = new RequestOptions().setMethod(HttpMethod.valueOf(n.method())).setHost("127.0.0.1")
        .setPort(port).setURI((path == null ? n.path() : path) + (n.query() == null ? "" : "?" + n.query()));
    n.headers().forEach(target::putHeader);
    long sent = System.nanoTime();
    client.request(target)
        .compose(req -> req.send(Buffer.buffer(n.body())))
        .compose(resp -> resp.body().map(b -> success.test(new Reply(resp.statusCode(), b.toString()))))
        .onComplete(ar -> {
          latencies[i] = (System.nanoTime() - sent) / 1000;
          if (ar.succeeded() && ar.result()) {
            ok.incrementAndGet();
          }
          sendNext(client, port, path, notifications, success, next, ok, latencies, done);
        });
  }

  static void createOrders(DatabaseSettings db, String prefix, int count) throws Exception {
    try (Connection conn = Jdbc.open(db, "&rewriteBatchedStatements=true");
        PreparedStatement ps = conn.prepareStatement("INSERT INTO orders (order_no, amount_cents) VALUES (?, ?)")) {
      for (int i = 0; i < count; i++) {
        ps.setString(1, prefix + i);
        ps.setLong(2, amountCents(i));
        ps.addBatch();
        if (i % 5000 == 4999) {
          ps.executeBatch();
        }
      }
      ps.executeBatch();
    }
  }

  static long amountCents(int i) {
    return 100 + i % 10000;
  }

  private static long countPayments(DatabaseSettings db, String prefix) throws Exception {
    try (Connection conn = Jdbc.open(db);
        var rs = conn.createStatement().executeQuery(
            "SELECT COUNT(*) FROM payments WHERE order_no LIKE '" + prefix + "%'")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** Launches scripts/start.sh (its JVM options) on the bench database, every channel with its test keys. */
  private static Process startService(Path work, DatabaseSettings db, Site site, Integer robot, boolean admin,
      String poolSize, String instances) throws IOException {
    Files.createDirectories(work);
    Path alipayKey = Files.writeString(work.resolve("alipay_public_key.pem"), AlipayNotifications.PUBLIC_KEY_PEM);
    Path v3Key = Files.writeString(work.resolve("wechatpay_public_key.pem"), WechatV3Notifications.PUBLIC_KEY_PEM);
    Path config = work.resolve("bench.yaml");
    Files.writeString(config, String.join("\n",
        "http:", "  port: 0", instances == null ? "" : "  instances: " + instances, "admin:", "  port: " + (admin ? ServiceProcess.freePort() : 0),
        "database:", "  host: 127.0.0.1", "  port: " + db.port(), "  name: " + db.name(), "  user: root",
        poolSize == null ? "" : "  pool_size: " + poolSize,
        "alipay:", "  app_id: \"" + AlipayNotifications.APP_ID + "\"",
        "  seller_id: \"" + AlipayNotifications.SELLER_ID + "\"", "  public_key_file: " + alipayKey.toAbsolutePath(),
        "wechat_v2:", "  appid: " + WechatV2Notifications.APP_ID, "  mch_id: \"" + WechatV2Notifications.MCH_ID + "\"",
        "wechat_v3:", "  mchid: \"" + WechatV3Notifications.MCH_ID + "\"", "  appid: " + WechatV3Notifications.APP_ID,
        "  platform_keys:", "    - id: " + WechatV3Notifications.PUBLIC_KEY_ID, "      key_file: " + v3Key.toAbsolutePath(),
        "epay:", "  pid: \"" + EpayNotifications.PID + "\"",
        site == null ? "" : "forward:\n  url: http://127.0.0.1:" + site.port() + "/hook\n  timeout_ms: 2000",
        robot == null ? "" : "alerts:\n  wecom:\n    webhook_url: http://127.0.0.1:" + robot
            + "/cgi-bin/webhook/send?key=bench", ""));
    // The secrets travel the way a site owner's would: in the environment.
    ProcessBuilder service = new ProcessBuilder("scripts/start.sh", "--config", config.toAbsolutePath().toString());
    service.environment().put("PAYNOTIFY_WECHAT_V2_API_KEY", WechatV2Notifications.API_KEY);
    service.environment().put("PAYNOTIFY_WECHAT_V3_APIV3_KEY", WechatV3Notifications.APIV3_KEY);
    service.environment().put("PAYNOTIFY_EPAY_KEY", EpayNotifications.KEY);
    service.environment().put("PAYNOTIFY_FORWARD_SECRET", "bench-forward-secret-0123456789");
    return service.redirectErrorStream(true).redirectOutput(work.resolve("service.log").toFile()).start();
  }

  /** The port the service logs once it listens. */
  private static int waitForService(Process service, Path work) throws Exception {
    for (int i = 0; i < 600; i++) {
      if (!service.isAlive()) {
        throw new IllegalStateException("service exited; see " + work.resolve("service.log"));
      }
      for (String line : Files.readAllLines(work.resolve("service.log"))) {
        int at = line.indexOf("listening on http://127.0.0.1:");
        if (at >= 0) {
          return Integer.parseInt(line.substring(at + 30).split(" ")[0]);
        }
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException("service did not start within 60 s; see " + work.resolve("service.log"));
  }

  /**
   * What the service and the database spend in a phase: CPU time (from the kernel's accounting)
   * and the statements the server executed (its Questions counter), per notification.
   *
   * @param serviceCpuMs the CPU time so far of what answers the requests (one process, or several)
   */
  record CpuMeter(DoubleSupplier serviceCpuMs, long databasePid, DatabaseSettings db) {
    CpuMeter(long servicePid, long databasePid, DatabaseSettings db) {
      this(() -> cpuMs(servicePid), databasePid, db);
    }

    interface Phase {
      Result run() throws Exception;
    }

    Result measure(Phase phase) throws Exception {
      double service = serviceCpuMs.getAsDouble();
      double database = cpuMs(databasePid);
      long questions = questions();
      Result r = phase.run();
      return r.withCpu(serviceCpuMs.getAsDouble() - service, cpuMs(databasePid) - database,
          questions() - questions - 1);
    }

    static double cpuMs(long pid) {
      return ProcessHandle.of(pid).flatMap(p -> p.info().totalCpuDuration()).map(d -> d.toNanos() / 1e6)
          .orElse(Double.NaN);
    }

    private long questions() throws Exception {
      try (Connection conn = Jdbc.open(db);
          var rs = conn.createStatement().executeQuery("SHOW GLOBAL STATUS LIKE 'Questions'")) {
        rs.next();
        return rs.getLong(2);
      }
    }
  }

  /** The database server's process (on this machine), from its pid file. */
  static long serverPid(DatabaseSettings db) throws Exception {
    try (Connection conn = Jdbc.open(db);
        var rs = conn.createStatement().executeQuery("SELECT @@pid_file")) {
      rs.next();
      return Long.parseLong(Files.readString(Path.of(rs.getString(1))).trim());
    }
  }

  /** CPU time of the JVM's JIT compiler threads so far (Linux: their names and /proc accounting). */
  static double jitCpuMs(long pid) throws IOException {
    double ms = 0;
    try (var tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
      for (Path task : tasks.toList()) {
        try {
          if (Files.readString(task.resolve("comm")).matches("C[12] CompilerThre.*\\s*")) {
            String[] stat = Files.readString(task.resolve("stat")).replaceFirst(".*\\) ", "").split(" ");
            ms += (Long.parseLong(stat[11]) + Long.parseLong(stat[12])) * 10.0; // utime + stime, 100 ticks/s
          }
        } catch (IOException gone) { // a compiler thread that ended: its time is in no task any more
        }
      }
    }
    return ms;
  }

  /** Proportional set size (shared pages divided among their users): what the process really costs. */
  static long pssKb(long pid) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/smaps_rollup"))) {
      if (line.startsWith("Pss:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    return -1;
  }

  private static long peakRssKb(long pid) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
      if (line.startsWith("VmHWM:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    return -1;
  }

  static Map<String, String> options(String[] args) {
    Map<String, String> opt = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      opt.put(args[i].replaceFirst("^--", ""), args[i + 1]);
    }
    return opt;
  }

  /** Signed notifications of one channel, made in parallel before the clock starts. */
  interface Generator {
    Notification make(String orderNo, String tradeNo, long cents, int attempt) throws Exception;

    Predicate<Reply> success();

    static Generator of(String channel) throws Exception {
      ChannelFixture fixture = switch (channel) {
        case "alipay" -> null;
        case "wechat_v2" -> ChannelFixture.wechatV2();
        case "wechat_v3" -> ChannelFixture.wechatV3();
        case "epay" -> ChannelFixture.epay();
        default -> throw new IllegalArgumentException("--channel: alipay, wechat_v2, wechat_v3 or epay");
      };
      return fixture == null ? new AlipaySigner() : new Generator() {
        public Notification make(String orderNo, String tradeNo, long cents, int attempt) throws Exception {
          return fixture.payment(orderNo, tradeNo, cents, attempt);
        }

        public Predicate<Reply> success() {
          return fixture.success();
        }
      };
    }

    /**
     * {@code copies} deliveries of each of the first {@code count} orders of {@code prefix}, each
     * signed anew (as retries are); the copies of one notification are adjacent, so that with C
     * requests in flight they arrive together.
     */
    default List<Notification> notifications(String prefix, int count, int copies, int generation) {
      return IntStream.range(0, count * copies).parallel().mapToObj(j -> {
        int i = j / copies;
        try {
          return make(prefix + i, "T" + prefix + i, amountCents(i), generation * 1_000_000 + j);
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      }).toList();
    }
  }

  /**
   * Alipay notifications signed fast: the SDK's sign content, RSA2 by the JDK with the key parsed
   * once (the SDK's rsaSign parses it on every call; the signature bytes are the same).
   */
  static final class AlipaySigner implements Generator {
    private final PrivateKey key;

    AlipaySigner() throws Exception {
      key = KeyFactory.getInstance("RSA").generatePrivate(
          new PKCS8EncodedKeySpec(Base64.getDecoder().decode(AlipayNotifications.PRIVATE_KEY)));
    }

    @Override
    public Notification make(String orderNo, String tradeNo, long cents, int attempt) throws Exception {
      Map<String, String> p = AlipayNotifications.payment(orderNo, tradeNo, Money.format(cents));
      p.put("notify_time", LocalDateTime.of(2026, 11, 29, 10, 0).plusSeconds(attempt).toString().replace('T', ' '));
      String content = AlipaySignature.getSignCheckContentV1(new HashMap<>(p));
      Signature s = Signature.getInstance("SHA256withRSA");
      s.initSign(key);
      s.update(content.getBytes(StandardCharsets.UTF_8));
      p.put("sign_type", "RSA2");
      p.put("sign", Base64.getEncoder().encodeToString(s.sign()));
      return Notification.post("/notify/alipay", FORM, AlipayNotifications.form(p, StandardCharsets.UTF_8));
    }

    @Override
    public Predicate<Reply> success() {
      return r -> r.status() == 200 && r.body().equals("success");
    }
  }

  /** The ceiling: the service's INSERT_KEY, INSERT_PAYMENT, MARK_ORDER_PAID, COMMIT, straight over JDBC. */
  static final class Ceiling {
    /** Books orders {@code prefix}{@code from} .. +{@code count} with {@code c} connections. */
    static Result run(DatabaseSettings db, String prefix, int offset, int count, int c) throws Exception {
      AtomicInteger next = new AtomicInteger();
      AtomicInteger ok = new AtomicInteger();
      long[] latencies = new long[count];
      ExecutorService threads = Executors.newFixedThreadPool(c);
      List<java.util.concurrent.Future<?>> workers = new ArrayList<>();
      long start = System.nanoTime();
      for (int w = 0; w < c; w++) {
        workers.add(threads.submit(() -> {
          try (Connection conn = Jdbc.open(db, "&useServerPrepStmts=true&cachePrepStmts=true");
              PreparedStatement key = conn.prepareStatement(SqlQueries.INSERT_KEY);
              PreparedStatement payment = conn.prepareStatement(SqlQueries.INSERT_PAYMENT);
              PreparedStatement order = conn.prepareStatement(MARK_ORDER_PAID)) {
            conn.setAutoCommit(false);
            Timestamp now = new Timestamp(System.currentTimeMillis());
            for (int j = next.getAndIncrement(); j < count; j = next.getAndIncrement()) {
              long sent = System.nanoTime();
              int i = offset + j;
              String orderNo = prefix + i;
              key.setString(1, "alipay:pay:T" + orderNo);
              key.setString(2, "0".repeat(64));
              key.executeUpdate();
              payment.setString(1, "alipay");
              payment.setString(2, "T" + orderNo);
              payment.setString(3, orderNo);
              payment.setLong(4, amountCents(i));
              payment.setTimestamp(5, now);
              payment.setNull(6, java.sql.Types.VARCHAR); // no detail: an Alipay payment has none
              payment.setBoolean(7, true); // moved_order: the ceiling's orders all move
              payment.executeUpdate();
              order.setTimestamp(1, now);
              order.setString(2, "alipay");
              order.setString(3, "T" + orderNo);
              order.setString(4, orderNo);
              order.setLong(5, amountCents(i));
              if (order.executeUpdate() == 1) {
                ok.incrementAndGet();
              }
              conn.commit();
              latencies[j] = (System.nanoTime() - sent) / 1000;
            }
          }
          return null;
        }));
      }
      for (var w : workers) {
        w.get();
      }
      threads.shutdown();
      return new Result(ok.get(), System.nanoTime() - start, latencies);
    }
  }
}
