package paynotify.bench;

import io.vertx.core.json.JsonObject;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipInputStream;
import paynotify.config.AppConfig.DatabaseSettings;
import paynotify.setup.EmbeddedDatabase;
import paynotify.setup.migrate.Jdbc;
import paynotify.store.SqlQueries;
import paynotify.testsupport.AlipayBillGenerator;
import paynotify.testsupport.SampleBills;
import paynotify.testsupport.TestDatabase;

/**
 * The reconciliation benchmark (scripts/bench-reconcile.sh): an Alipay bill of N rows with known
 * discrepancies, the matching orders and payments, then `scripts/paynotify reconcile --json` as its
 * own process (wall time, peak RSS, whether exactly the injected discrepancies were found) and the
 * seed's SQL method on the same data in the same run. On a fresh embedded MariaDB, or with
 * {@code --server host:port} in a database of its own there, dropped and created first.
 */
public final class ReconcileBench {
  private static final String DATABASE = "paynotify_bench_reconcile";
  private static final Set<String> KINDS = Set.of("missing_local", "amount_mismatch", "missing_platform");

  public static void main(String[] args) throws Exception {
    Map<String, String> opt = NotifyBench.options(args);
    int rows = Integer.parseInt(opt.getOrDefault("rows", "1000000"));
    Path work = Path.of(opt.getOrDefault("dir", "target/bench-reconcile"));
    Files.createDirectories(work);
    String server = opt.get("server");
    boolean exact;
    if (server == null) {
      try (EmbeddedDatabase mariadb = EmbeddedDatabase.start(work.resolve("mariadb"), DATABASE)) {
        exact = run(TestDatabase.settings("127.0.0.1", mariadb.port(), DATABASE, ""), rows, work);
      }
    } else {
      String[] hostPort = server.split(":");
      exact = run(TestDatabase.settings(hostPort[0], Integer.parseInt(hostPort[1]), DATABASE,
          System.getenv().getOrDefault("PAYNOTIFY_TEST_DB_PASSWORD", "")), rows, work);
    }
    if (!exact) {
      System.exit(1);
    }
  }

  private static boolean run(DatabaseSettings db, int rows, Path work) throws Exception {
    TestDatabase.createFresh(db);
    System.out.printf("generating a %,d-row Alipay bill, its orders and payments in %s ...%n", rows, db);
    Path bill = work.resolve("20880000000000000000_20260314.csv.zip");
    Map<String, Set<String>> injected = load(db, bill, rows);

    Path config = Files.writeString(work.resolve("bench.yaml"), String.join("\n", "database:",
        "  host: " + db.host(), "  port: " + db.port(), "  name: " + db.name(), "  user: " + db.user(),
        "  password: '" + db.password() + "'", ""));
    Path report = work.resolve("report.json");
    System.out.println("reconciling (scripts/paynotify, its JVM options) ...");
    long start = System.nanoTime();
    Process p = new ProcessBuilder("/usr/bin/time", "-f", "cpu %U user %S sys\n%M", "scripts/paynotify", "reconcile",
        "--config", config.toString(), "--channel", "alipay", "--bill", bill.toString(), "--json", "--verbose")
        .redirectOutput(report.toFile()).redirectError(work.resolve("stderr.txt").toFile()).start();
    if (!p.waitFor(10, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new IllegalStateException("reconcile did not finish in 10 minutes");
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    String stderr = Files.readString(work.resolve("stderr.txt"));
    long peakKb = Long.parseLong(stderr.strip().lines().reduce((a, b) -> b).orElse("0").strip());
    JsonObject json = new JsonObject(Files.readString(report));
    Map<String, Set<String>> found = new HashMap<>();
    json.getJsonArray("findings").stream().map(JsonObject.class::cast).forEach(f ->
        found.computeIfAbsent(f.getString("kind"), k -> new TreeSet<>()).add(f.getString("trade_no")));
    boolean exact = found.equals(injected);

    System.out.println("the seed's SQL: LOAD DATA of the bill's CSV (unzipped beforehand, not timed) + LEFT JOINs ...");
    Path csv = unzip(bill, work.resolve("bill.csv"));
    Map<String, Set<String>> seedFound;
    long seedStart = System.nanoTime();
    try (Connection conn = Jdbc.open(db, "&allowLocalInfile=true")) {
      seedFound = SeedSqlReconcile.run(conn, csv);
    }
    double seedSeconds = (System.nanoTime() - seedStart) / 1e9;

    System.out.printf("%n%s%nrows %,d: reconcile took %.1f s, peak RSS %d MB, exit %d; the seed's SQL %.1f s"
            + " (%.1fx)%n", stderr.strip(), rows, seconds, peakKb / 1024, p.exitValue(), seedSeconds,
        seedSeconds / seconds);
    System.out.printf("injected: %s; found: %s; the seed's SQL found: %s%n", counts(injected),
        json.getJsonObject("counts").encode(), counts(seedFound));
    System.out.println(exact ? "every injected discrepancy found, no false positive"
        : "MISMATCH: found " + found + "; see " + report);
    if (!seedFound.equals(injected)) {
      System.out.println("the seed's SQL found something else: " + seedFound);
    }
    return exact;
  }

  /**
   * The bill, and in the database every order of it and the payments booked for it, with one
   * discrepancy of each kind every 100,000 rows (at least 3 of each): known, so both misses and
   * false positives show.
   *
   * @return the injected discrepancies' trades, by kind
   */
  private static Map<String, Set<String>> load(DatabaseSettings db, Path bill, int rows) throws Exception {
    int every = Math.max(1, Math.min(rows / 3, 100_000));
    Map<String, Set<String>> injected = new HashMap<>();
    KINDS.forEach(kind -> injected.put(kind, new TreeSet<>()));
    try (Connection conn = Jdbc.open(db, "&rewriteBatchedStatements=true");
        PreparedStatement payment = conn.prepareStatement(SqlQueries.INSERT_PAYMENT);
        PreparedStatement order = conn.prepareStatement("INSERT INTO orders (order_no, amount_cents, status, paid_at,"
            + " channel, trade_no) VALUES (?, ?, ?, ?, ?, ?)")) {
      conn.setAutoCommit(false);
      int[] n = {0};
      AlipayBillGenerator.write(bill, rows, row -> {
        int i = n[0]++;
        boolean lost = i % every == every / 3; // a lost notification: the order still unpaid, no payment
        boolean wrongAmount = i % every == 2 * every / 3;
        bind(order, row.orderNo(), row.amountCents(), lost ? "unpaid" : "paid", lost ? null : row.paidAt(),
            lost ? null : "alipay", lost ? null : row.tradeNo());
        if (lost) {
          injected.get("missing_local").add(row.tradeNo());
        } else {
          if (wrongAmount) {
            injected.get("amount_mismatch").add(row.tradeNo());
          }
          bind(payment, "alipay", row.tradeNo(), row.orderNo(), row.amountCents() + (wrongAmount ? 1 : 0),
              row.paidAt(), null);
        }
        if (n[0] % 5000 == 0) {
          order.executeBatch();
          payment.executeBatch();
          conn.commit();
        }
      });
      for (int i = 0; i < Math.max(3, rows / every); i++) {
        String trade = String.format("20260314229999%014d", i);
        injected.get("missing_platform").add(trade); // booked here, in the window, not on the bill
        bind(payment, "alipay", trade, "EXTRA" + i, 500L, "2026-03-14 12:00:00", null);
        // and what must not be reported: the day before, and the other channel
        bind(payment, "alipay", String.format("20260313229999%014d", i), "BEFORE" + i, 500L, "2026-03-13 12:00:00",
            null);
        bind(payment, "wechat", String.format("42000000002026031499%08d", i), "WX" + i, 500L, "2026-03-14 12:00:00",
            null);
      }
      order.executeBatch();
      payment.executeBatch();
      conn.commit();
    }
    return injected;
  }

  private static void bind(PreparedStatement insert, Object... values) throws SQLException {
    for (int i = 0; i < values.length; i++) {
      insert.setObject(i + 1, values[i]);
    }
    insert.addBatch();
  }

  /** The bill's CSV entry as a file, bytes unchanged (GBK), for LOAD DATA. */
  private static Path unzip(Path bill, Path csv) throws Exception {
    try (InputStream in = Files.newInputStream(bill); ZipInputStream zip = new ZipInputStream(in, SampleBills.GBK)) {
      zip.getNextEntry();
      Files.copy(zip, csv, StandardCopyOption.REPLACE_EXISTING);
    }
    return csv;
  }

  private static String counts(Map<String, Set<String>> found) {
    Map<String, Integer> counts = new TreeMap<>();
    found.forEach((kind, trades) -> counts.put(kind, trades.size()));
    return counts.toString();
  }
}
