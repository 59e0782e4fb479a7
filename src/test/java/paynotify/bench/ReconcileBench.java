package paynotify.bench;

import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import paynotify.app.AppConfig.DatabaseSettings;
import paynotify.app.DatabaseMigrations;
import paynotify.app.EmbeddedDatabase;
import paynotify.store.SqlQueries;
import paynotify.testsupport.AlipayBillGenerator;
import paynotify.testsupport.TestDatabase;

/**
 * The reconciliation benchmark (scripts/bench-reconcile.sh): an Alipay bill of N rows with known
 * discrepancies and the matching payments, then `scripts/paynotify reconcile --json` as its own
 * process: wall time, peak RSS, and whether exactly the injected discrepancies were found.
 */
public final class ReconcileBench {
  public static void main(String[] args) throws Exception {
    Map<String, String> opt = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      opt.put(args[i].replaceFirst("^--", ""), args[i + 1]);
    }
    int rows = Integer.parseInt(opt.getOrDefault("rows", "1000000"));
    Path work = Path.of(opt.getOrDefault("dir", "target/bench-reconcile"));
    Files.createDirectories(work);
    // One discrepancy of each kind every 100,000 rows (at least 3): known, so both misses and false
    // positives show.
    int every = Math.max(1, Math.min(rows / 3, 100_000));
    Set<String> missingLocal = new TreeSet<>();
    Set<String> mismatch = new TreeSet<>();
    Set<String> missingPlatform = new TreeSet<>();

    try (EmbeddedDatabase mariadb = EmbeddedDatabase.start(work.resolve("mariadb"), TestDatabase.NAME)) {
      DatabaseSettings db = TestDatabase.settings("127.0.0.1", mariadb.port(), "");
      TestDatabase.createFresh(db);
      System.out.printf("generating a %,d-row Alipay bill and its payments ...%n", rows);
      Path bill = work.resolve("20880000000000000000_20260314.csv.zip");
      try (Connection conn = DriverManager.getConnection(DatabaseMigrations.jdbcUrl(db)
          + "&rewriteBatchedStatements=true", "root", "");
          PreparedStatement insert = conn.prepareStatement(SqlQueries.INSERT_PAYMENT)) {
        conn.setAutoCommit(false);
        int[] n = {0};
        AlipayBillGenerator.write(bill, rows, row -> {
          int i = n[0]++;
          if (i % every == every / 3) {
            missingLocal.add(row.tradeNo()); // lost notification: not booked
            return;
          }
          boolean wrongAmount = i % every == 2 * every / 3;
          if (wrongAmount) {
            mismatch.add(row.tradeNo());
          }
          add(insert, "alipay", row.tradeNo(), row.orderNo(), row.amountCents() + (wrongAmount ? 1 : 0), row.paidAt());
          if (n[0] % 5000 == 0) {
            insert.executeBatch();
            conn.commit();
          }
        });
        for (int i = 0; i < Math.max(3, rows / every); i++) {
          String trade = String.format("20260314229999%014d", i);
          missingPlatform.add(trade); // booked here, in the window, not on the bill
          add(insert, "alipay", trade, "EXTRA" + i, 500, "2026-03-14 12:00:00");
          // and what must not be reported: the day before, and the other channel
          add(insert, "alipay", String.format("20260313229999%014d", i), "BEFORE" + i, 500, "2026-03-13 12:00:00");
          add(insert, "wechat", String.format("42000000002026031499%08d", i), "WX" + i, 500, "2026-03-14 12:00:00");
        }
        insert.executeBatch();
        conn.commit();
      }

      Path config = Files.writeString(work.resolve("bench.yaml"), String.join("\n", "database:", "  host: 127.0.0.1",
          "  port: " + db.port(), "  name: " + db.name(), ""));
      Path report = work.resolve("report.json");
      System.out.println("reconciling (scripts/paynotify, its JVM options) ...");
      long start = System.nanoTime();
      Process p = new ProcessBuilder("/usr/bin/time", "-f", "cpu %U user %S sys\n%M", "scripts/paynotify", "reconcile", "--config",
          config.toString(), "--channel", "alipay", "--bill", bill.toString(), "--json", "--verbose")
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
          found.computeIfAbsent(f.getString("kind"), k -> new HashSet<>()).add(f.getString("trade_no")));
      boolean exact = found.getOrDefault("missing_local", Set.of()).equals(missingLocal)
          && found.getOrDefault("amount_mismatch", Set.of()).equals(mismatch)
          && found.getOrDefault("missing_platform", Set.of()).equals(missingPlatform)
          && found.keySet().stream().allMatch(k -> Set.of("missing_local", "amount_mismatch", "missing_platform")
              .contains(k));
      System.out.printf("%nrows %,d: reconcile took %.1f s, peak RSS %d MB, exit %d%n", rows, seconds, peakKb / 1024,
          p.exitValue());
      System.out.printf("injected: %d missing_local, %d amount_mismatch, %d missing_platform; found: %s%n",
          missingLocal.size(), mismatch.size(), missingPlatform.size(), json.getJsonObject("counts").encode());
      System.out.println(exact ? "every injected discrepancy found, no false positive"
          : "MISMATCH: found " + found + "; see " + report);
      if (!exact) {
        System.exit(1);
      }
    }
  }

  private static void add(PreparedStatement insert, String channel, String trade, String order, long cents, String at)
      throws SQLException {
    insert.setString(1, channel);
    insert.setString(2, trade);
    insert.setString(3, order);
    insert.setLong(4, cents);
    insert.setString(5, at);
    insert.addBatch();
  }
}
