package paynotify.bench;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClientOptions;
import io.vertx.mysqlclient.MySQLConnectOptions;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Tuple;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import paynotify.channel.Platform;
import paynotify.config.AppConfig.DatabaseSettings;
import paynotify.setup.EmbeddedDatabase;
import paynotify.store.Database;
import paynotify.store.OrdersTable;
import paynotify.store.SqlQueries;
import paynotify.testsupport.TestDatabase;

/**
 * Where a first delivery's database CPU goes (scripts/bench-statements.sh): the booking transaction over
 * the service's client, as the ceiling runs it (our key, our payment row, notify.php's UPDATE, COMMIT)
 * and as the service does (our key, OrdersTable's UPDATE, our payment row recording that it moved the
 * order, COMMIT). Prints the database server's CPU per transaction, variants alternating over rounds;
 * the ratios within a run are what count.
 */
public final class StatementBench {
  private static final int ROUNDS = 2;
  private static final LocalDateTime PAID_AT = LocalDateTime.of(2026, 12, 1, 10, 0);

  /** One transaction's statements after the key, on order {@code i}. */
  private record Variant(String name, BiFunction<io.vertx.sqlclient.SqlConnection, Integer, Future<?>> writes) {}

  public static void main(String[] args) throws Exception {
    Map<String, String> opt = NotifyBench.options(args);
    int n = Integer.parseInt(opt.getOrDefault("n", "6000"));
    int c = Integer.parseInt(opt.getOrDefault("c", "32"));
    String server = opt.get("server");
    Path work = Path.of(opt.getOrDefault("dir", "target/bench-statements"));
    try (EmbeddedDatabase mariadb = server == null ? EmbeddedDatabase.start(work.resolve("mariadb"), TestDatabase.NAME)
        : null) {
      DatabaseSettings db = server == null ? TestDatabase.settings("127.0.0.1", mariadb.port(), "")
          : TestDatabase.settings(server.split(":")[0], Integer.parseInt(server.split(":")[1]), "paynotify_bench", "");
      TestDatabase.createFresh(db);
      run(db, n, c);
    }
  }

  private static void run(DatabaseSettings db, int n, int c) throws Exception {
    List<Variant> variants = List.of(
        new Variant("key, payment, notify.php's UPDATE (the ceiling's)", (conn, i) -> payment(conn, i, false)
            .compose(p -> conn.preparedQuery(NotifyBench.MARK_ORDER_PAID).execute(Tuple.of(PAID_AT, "alipay",
                "T" + order(i), order(i), NotifyBench.amountCents(i))))),
        new Variant("key, OrdersTable's UPDATE, payment (the service's)", (conn, i) -> OrdersTable.byDefault()
            .markPaid(conn, Platform.ALIPAY, "T" + order(i), order(i), NotifyBench.amountCents(i), PAID_AT)
            .compose(move -> payment(conn, i, move.moved()))));
    MySQLConnectOptions connect = new MySQLConnectOptions().setHost(db.host()).setPort(db.port())
        .setDatabase(db.name()).setUser(db.user()).setPassword(db.password()).setCachePreparedStatements(true)
        .setUseAffectedRows(true);
    PoolOptions pool = new PoolOptions().setMaxSize(8).setMaxWaitQueueSize(-1);
    Vertx vertx = Vertx.vertx();
    Database booking = Database.connect(vertx, connect, pool, new NetClientOptions(),
        Database.sessionSetup(db.lockWaitSeconds(), db.timeZone()));
    long serverPid = NotifyBench.serverPid(db);
    NotifyBench.createOrders(db, "S", n * variants.size() * ROUNDS);
    System.out.printf("database CPU per transaction, %,d transactions per variant and round, %d at once, %s%n",
        n, c, db);
    double[] cpu = new double[variants.size()];
    int next = 0;
    for (int round = 0; round < ROUNDS; round++) {
      for (int v = 0; v < variants.size(); v++) {
        double before = NotifyBench.CpuMeter.cpuMs(serverPid);
        book(booking, variants.get(v), next, n, c);
        cpu[v] += NotifyBench.CpuMeter.cpuMs(serverPid) - before;
        next += n;
      }
    }
    for (int v = 0; v < variants.size(); v++) {
      System.out.printf("  %-52s %.3f ms%n", variants.get(v).name(), cpu[v] / (n * ROUNDS));
    }
    long paid = booking.inTransaction(conn -> conn.query("SELECT COUNT(*) FROM orders WHERE status = 'paid'")
        .execute()).await().iterator().next().getLong(0);
    if (paid != next) {
      throw new IllegalStateException(paid + " orders paid of " + next + ": the variants did not do the same work");
    }
    booking.close().await();
    vertx.close().await();
  }

  private static String order(int i) {
    return "S" + i;
  }

  /** Our payment row; {@code moved}: whether the order's UPDATE moved the order. */
  private static Future<?> payment(io.vertx.sqlclient.SqlConnection conn, int i, boolean moved) {
    return conn.preparedQuery(SqlQueries.INSERT_PAYMENT).execute(Tuple.of("alipay", "T" + order(i), order(i),
        NotifyBench.amountCents(i), PAID_AT, null, moved));
  }

  /** Orders {@code from} .. +{@code count}, {@code c} transactions in flight (run checks each moved its order). */
  private static void book(Database booking, Variant variant, int from, int count, int c) throws Exception {
    AtomicInteger next = new AtomicInteger(from);
    Future<?>[] workers = new Future<?>[c];
    for (int w = 0; w < c; w++) {
      workers[w] = worker(booking, variant, next, from + count);
    }
    Future.all(List.of(workers)).await();
  }

  private static Future<Void> worker(Database booking, Variant variant, AtomicInteger next, int end) {
    int i = next.getAndIncrement();
    if (i >= end) {
      return Future.succeededFuture();
    }
    String key = "alipay:pay:T" + order(i);
    return booking.inTransaction(conn -> conn.preparedQuery(SqlQueries.INSERT_KEY)
            .execute(Tuple.of(key, "0".repeat(64))).compose(k -> variant.writes().apply(conn, i)))
        .compose(done -> worker(booking, variant, next, end));
  }
}
