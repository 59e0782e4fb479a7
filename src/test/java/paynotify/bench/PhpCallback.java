package paynotify.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import paynotify.bench.NotifyBench.CpuMeter;
import paynotify.config.AppConfig.DatabaseSettings;
import paynotify.setup.migrate.Jdbc;
import paynotify.testsupport.AlipayNotifications;

/**
 * The seed's PHP callback (shared/anchors/php-callback: fixed.php under nginx + PHP-FPM, 8 static
 * workers) started by its own up.sh on the machine's MariaDB, verifying the bench's Alipay key:
 * what a site owner runs today, measured in the same rounds as the service.
 */
final class PhpCallback {
  static final int PORT = 18081;
  static final String PATH = "/fixed";
  private static final Path RUN = Path.of("/tmp/paybench-php");

  private final Path anchor;
  private final DatabaseSettings db;

  private PhpCallback(Path anchor, DatabaseSettings db) {
    this.anchor = anchor;
    this.db = db;
  }

  /**
   * @param server    the server the service's bench database is on (up.sh uses the machine's, over its socket)
   * @param publicKey the Alipay public key file the bench signs for
   * @param orders    orders P0 .. P{orders-1}, unpaid, for the callback to book
   */
  static PhpCallback start(Path anchor, DatabaseSettings server, Path publicKey, int orders, Path log)
      throws Exception {
    for (String binary : List.of("/usr/sbin/php-fpm8.2", "/usr/sbin/nginx")) {
      if (!Files.isExecutable(Path.of(binary))) {
        throw new IllegalStateException("--php needs " + binary + ": apt-get install -y php-fpm php-mysql nginx");
      }
    }
    ProcessBuilder up = new ProcessBuilder(anchor.resolve("up.sh").toString(), "8");
    up.environment().put("ALIPAY_PUBLIC_KEY_FILE", publicKey.toAbsolutePath().toString());
    up.environment().put("ALIPAY_APP_ID", AlipayNotifications.APP_ID);
    Process p = up.redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IllegalStateException("the PHP callback did not start; see " + log);
    }
    DatabaseSettings db = new DatabaseSettings(server.host(), server.port(), "php_fixed", server.user(),
        server.password(), 1, 1, Duration.ofSeconds(5), 5, null);
    try (Connection conn = Jdbc.open(db)) {
      for (String table : List.of("orders", "payments", "idempotent_keys")) { // up.sh keeps them across runs
        conn.createStatement().execute("TRUNCATE TABLE " + table);
      }
    }
    NotifyBench.createOrders(db, "P", orders);
    return new PhpCallback(anchor, db);
  }

  /** nginx's and PHP-FPM's CPU, and the statements PHP sends the server. */
  CpuMeter cpu() throws Exception {
    return new CpuMeter(() -> processes().mapToDouble(p -> CpuMeter.cpuMs(p.pid())).sum(), NotifyBench.serverPid(db),
        db);
  }

  /** nginx's and PHP-FPM's PSS, every process. */
  long pssKb() throws Exception {
    long sum = 0;
    for (ProcessHandle p : processes().toList()) {
      sum += NotifyBench.pssKb(p.pid());
    }
    return sum;
  }

  void stop() throws Exception {
    new ProcessBuilder(anchor.resolve("down.sh").toString()).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor(30, TimeUnit.SECONDS);
  }

  /** The masters (from their pid files) and their workers. */
  private static Stream<ProcessHandle> processes() {
    Stream<ProcessHandle> all = Stream.empty();
    for (String name : List.of("nginx.pid", "php-fpm.pid")) {
      long pid;
      try {
        pid = Long.parseLong(Files.readString(RUN.resolve(name)).trim());
      } catch (IOException e) {
        throw new UncheckedIOException("the PHP callback is not running", e);
      }
      ProcessHandle master = ProcessHandle.of(pid).orElseThrow();
      all = Stream.concat(all, Stream.concat(Stream.of(master), master.descendants()));
    }
    return all;
  }
}
