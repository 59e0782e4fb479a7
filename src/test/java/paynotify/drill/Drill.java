package paynotify.drill;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import paynotify.alert.ServiceStandIn;
import paynotify.config.AppConfig.DatabaseSettings;
import paynotify.testsupport.ChannelFixture;
import paynotify.testsupport.Cli;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.ServiceProcess;
import paynotify.testsupport.TestDatabase;
import paynotify.testsupport.TestService;

/**
 * One drill's service and what watches it: the real service (its own, so that each drill's alerts are its first of
 * their kind), a WeCom robot stand-in as its alert target, its admin listener for /status.json and /metrics,
 * /health sampled, and the load of {@link AtLeastOnceLoad}. The tables are read as root through {@code db}.
 */
final class Drill implements AutoCloseable {
  private static final String TOKEN = "admin-token-of-the-database-drills";
  private static final HttpClient CLIENT = HttpClient.newHttpClient();
  /** The pools' figures in /metrics (admin/PoolGauges): each pool's connections in use and requests waiting. */
  private static final Pattern POOL_FIGURE =
      Pattern.compile("^(paynotify_db_pool_in_use|paynotify_db_pool_waiting)\\{([^}]*)} (\\S+)$", Pattern.MULTILINE);

  /** The site's other channel: epusdt, which never sends a notification again once it was answered failure. */
  private static final ChannelFixture EPUSDT = ChannelFixture.epusdt();
  private static final int NO_RETRY_ORDERS = 3;

  private final TestDatabase db;
  private final ServiceStandIn wecom;
  private final int adminPort;
  private final TestService service;
  private final HealthSamples health;
  private final Path statusConfig;
  private AtLeastOnceLoad load;
  private String prefix;

  private Drill(TestDatabase db, DatabaseSettings serviceUser) throws IOException {
    this.db = db;
    wecom = ServiceStandIn.start(r -> ServiceStandIn.Reply.json(new JsonObject().put("errcode", 0).put("errmsg", "ok")));
    adminPort = ServiceProcess.freePort();
    JsonObject overrides = new JsonObject()
        .put("admin", new JsonObject().put("port", adminPort).put("token", TOKEN))
        .put("alerts", new JsonObject().put("language", "en")
            .put("wecom", new JsonObject().put("webhook_url", wecom.url("/cgi-bin/webhook/send?key=DRILL").toString())));
    service = TestService.start(serviceUser, overrides);
    health = HealthSamples.start(service.port());
    statusConfig = statusConfig(serviceUser, overrides, service.port());
  }

  /**
   * The service's configuration as an owner's file would hold it (JSON is YAML): its database user, its listener,
   * for {@code paynotify status} to read the same database and ask the same /health.
   */
  private static Path statusConfig(DatabaseSettings serviceUser, JsonObject overrides, int port) throws IOException {
    JsonObject config = TestService.configuration(overrides)
        .put("http", new JsonObject().put("port", port))
        .put("database", new JsonObject().put("host", serviceUser.host()).put("port", serviceUser.port())
            .put("name", serviceUser.name()).put("user", serviceUser.user()).put("password", serviceUser.password()));
    Path file = Path.of("target", "drill-status.yaml");
    Files.writeString(file, config.encodePrettily());
    return file;
  }

  static Drill start(TestDatabase db, DatabaseSettings serviceUser) throws IOException {
    return new Drill(db, serviceUser);
  }

  /**
   * Inserts {@code orders} unpaid orders {@code prefix0...} and starts delivering their payments at {@code perSecond};
   * and a few unpaid epusdt orders ({@link #noRetryOrders}), paid by {@link #sendNoRetryOnce}.
   */
  void load(String prefix, int orders, int perSecond) {
    this.prefix = prefix;
    db.update("INSERT INTO orders (order_no, amount_cents) SELECT CONCAT(?, seq), ? FROM seq_0_to_" + (orders - 1),
        prefix, AtLeastOnceLoad.CENTS);
    // made now by the service's clock (Beijing time), as a buyer's order right before paying: in the episode's window
    db.update("INSERT INTO orders (order_no, amount_cents, channel, created_at) SELECT CONCAT(?, seq), ?, 'epusdt',"
        + " CONVERT_TZ(NOW(3), @@session.time_zone, '+08:00') FROM seq_0_to_" + (NO_RETRY_ORDERS - 1), "EP" + prefix,
        AtLeastOnceLoad.CENTS);
    load = AtLeastOnceLoad.start(service.port(), prefix, orders, perSecond);
  }

  /** The epusdt orders of this drill. */
  List<String> noRetryOrders() {
    return IntStream.range(0, NO_RETRY_ORDERS).mapToObj(i -> "EP" + prefix + i).toList();
  }

  /**
   * Their payments' notifications, each sent once as epusdt sends it (never again): the replies, when they come (a
   * booking may hang while the disk is full; the drill's times go on).
   */
  CompletableFuture<List<Reply>> sendNoRetryOnce() throws Exception {
    List<CompletableFuture<Reply>> replies = new ArrayList<>();
    for (String order : noRetryOrders()) {
      replies.add(service.sendAsync(EPUSDT.payment(order, "T-" + order, AtLeastOnceLoad.CENTS, 0)));
    }
    return CompletableFuture.allOf(replies.toArray(CompletableFuture[]::new))
        .thenApply(all -> replies.stream().map(CompletableFuture::join).toList());
  }

  /** Whether epusdt took the reply as success (then it sends nothing more). */
  static boolean noRetrySuccess(Reply reply) {
    return EPUSDT.success().test(reply);
  }

  AtLeastOnceLoad load() {
    return load;
  }

  HealthSamples health() {
    return health;
  }

  /** Waits until every payment of the load was answered success (Alipay's retries included), or fails. */
  void awaitDelivered(Duration within) throws InterruptedException {
    assertThat(load.awaitDelivered(within)).as("every notification answered within %s", within).isTrue();
    service.awaitLogRecorded();
  }

  /** Notifications answered success whose payment row is not there. */
  long lost() {
    Set<String> booked = new HashSet<>(db.column("SELECT trade_no FROM payments WHERE trade_no LIKE ?",
        AtLeastOnceLoad.trades(prefix)));
    return load.answeredSuccess().stream().filter(t -> !booked.contains(t)).count();
  }

  /** Orders with two payment rows: the seed's duplicate check (reconcile's ORDERS_PAID_TWICE). */
  long doubled() {
    return db.count("SELECT COUNT(*) FROM (SELECT order_no FROM payments GROUP BY order_no HAVING COUNT(*) > 1) d");
  }

  long booked() {
    return db.count("SELECT COUNT(*) FROM payments WHERE order_no LIKE ?", prefix + "%");
  }

  /** What the owner's group received so far (each message's text). */
  List<String> alerts() {
    return wecom.received().stream().map(r -> r.json().getJsonObject("markdown").getString("content")).toList();
  }

  /** Waits for a message containing {@code text}, {@code within} at most; returns it, null when none came. */
  String awaitAlert(String text, Duration within) throws InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    do {
      for (String alert : alerts()) {
        if (alert.contains(text)) {
          return alert;
        }
      }
      Thread.sleep(200);
    } while (System.nanoTime() < deadline);
    return null;
  }

  /**
   * /status.json's attention list; when it is not available, one line saying what it answered instead (a drill
   * goes on to free the disk: the assertions say it afterwards).
   */
  List<String> attention() {
    return attention(Duration.ofSeconds(10)).join();
  }

  /**
   * The same asked now without waiting: a drill frees the disk on time whatever the status read does (a read that
   * hangs while the disk is full would keep it full past what MariaDB survives).
   */
  CompletableFuture<List<String>> attention(Duration within) {
    return admin("/status.json", within).handle((r, err) -> {
      if (err != null) {
        return List.of("/status.json not answered within " + within.toMillis() + " ms: " + err);
      }
      if (r.statusCode() != 200) {
        return List.of("/status.json answered " + r.statusCode() + ": " + r.body().strip());
      }
      JsonArray attention = new JsonObject(r.body()).getJsonArray("attention");
      return attention.stream().map(String::valueOf).toList();
    });
  }

  /**
   * {@code paynotify status}, the command an owner runs, in this JVM on the drill's configuration, begun now in a
   * thread of its own: a drill frees the disk on time whatever it does (a read that hangs would keep it full). Not
   * done within {@code within}: a result of exit -1 saying so.
   */
  CompletableFuture<Cli.Result> status(Duration within) {
    return CompletableFuture.supplyAsync(() -> Cli.run(statusConfig, "status"), task -> {
      Thread thread = new Thread(task, "drill-status");
      thread.setDaemon(true); // one that hangs ends with the tests
      thread.start();
    }).completeOnTimeout(new Cli.Result(-1, "", "not done within " + within.toMillis() + " ms"),
        within.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** A status run's exit and its first {@code lines} lines (stderr's when it printed nothing), to be quoted. */
  static String shown(Cli.Result status, int lines) {
    String text = status.out().isBlank() ? status.err() : status.out();
    return "exit " + status.exit() + "\n" + text.lines().limit(lines).map(l -> "    " + l)
        .collect(Collectors.joining("\n"));
  }

  /** Each SQL pool's connections in use and requests waiting, as /metrics says now. */
  Map<String, Double> poolFigures() {
    HttpResponse<String> r = admin("/metrics", Duration.ofSeconds(10)).join();
    assertThat(r.statusCode()).isEqualTo(200);
    Map<String, Double> figures = new TreeMap<>();
    Matcher m = POOL_FIGURE.matcher(r.body());
    while (m.find()) {
      figures.put(m.group(1) + "{" + m.group(2) + "}", Double.parseDouble(m.group(3)));
    }
    assertThat(figures).as("the pools' figures in /metrics").isNotEmpty();
    return figures;
  }

  /** Waits until every pool figure reads 0 (at rest: nothing in use, nothing waiting), {@code within} at most. */
  Map<String, Double> awaitPoolsAtRest(Duration within) throws InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    Map<String, Double> figures = poolFigures();
    while (figures.values().stream().anyMatch(v -> v != 0) && System.nanoTime() < deadline) {
      Thread.sleep(500);
      figures = poolFigures();
    }
    return figures;
  }

  private CompletableFuture<HttpResponse<String>> admin(String path, Duration within) {
    return CLIENT.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + adminPort + path))
        .timeout(within).header("Authorization", "Bearer " + TOKEN).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** The first line of each message: its title, for the drill's printed line. */
  List<String> alertTitles() {
    return alerts().stream().map(a -> a.lines().findFirst().orElse("")).toList();
  }

  @Override
  public void close() {
    if (load != null) {
      load.close();
    }
    health.close();
    service.close();
    wecom.close();
  }
}
