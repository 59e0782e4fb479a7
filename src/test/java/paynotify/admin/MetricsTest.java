package paynotify.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import paynotify.config.AppConfig;
import paynotify.config.ConfigException;
import paynotify.testsupport.AlipayNotifications;
import paynotify.testsupport.ChannelFixture;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.KeepAliveClient;
import paynotify.testsupport.Notification;
import paynotify.testsupport.ServiceProcess;
import paynotify.testsupport.TestService;

/**
 * /metrics scraped from the real admin listener, in Prometheus's text format: after N notifications
 * of each outcome the counters say N, the booking histogram counted them, the gauges read the
 * database, and Vert.x's own pool, HTTP and JVM metrics are there. Never an order or trade label.
 */
class MetricsTest extends DatabaseTestBase {
  private static final String TOKEN = "admin-token-for-the-metrics-test";
  private static final ChannelFixture ALIPAY = ChannelFixture.alipay();
  private static final HttpClient CLIENT = HttpClient.newHttpClient();
  private static TestService service;

  @BeforeAll
  static void start() throws Exception {
    service = TestService.start(db.settings(), new JsonObject()
        .put("admin", new JsonObject().put("port", ServiceProcess.freePort()).put("token", TOKEN))
        .put("forward", new JsonObject().put("url", "http://127.0.0.1:1/never").put("secret", TOKEN)
            .put("retry_schedule_seconds", new io.vertx.core.json.JsonArray().add(3600))));
  }

  @AfterAll
  static void stop() {
    service.close();
  }

  @AfterEach
  void noTrigger() {
    db.update("DROP TRIGGER IF EXISTS metrics_fail_payment");
  }

  @Test
  void eachOutcomeIsCountedAndNothingNamesAnOrder() throws Exception {
    int n = 3;
    for (int i = 0; i < n; i++) {
      db.insertOrder("M" + i, 1000);
      send(ALIPAY.payment("M" + i, "T-M" + i, 1000, 0));                 // processed
      send(ALIPAY.payment("M" + i, "T-M" + i, 1000, 1));                 // duplicate
      send(ALIPAY.payment("M" + i, "T-M" + i, 1200, 2));                 // conflict: the same trade, another amount
      send(ALIPAY.payment("NONE-" + i, "T-X" + i, 1000, 0));             // anomaly: unknown order
      service.postAlipay(waiting("W" + i));                              // ignored: WAIT_BUYER_PAY
      send(ALIPAY.signedByAnotherKey("M" + i, "T-R" + i, 1000));         // rejected
    }
    db.update("CREATE TRIGGER metrics_fail_payment BEFORE INSERT ON payments FOR EACH ROW"
        + " SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'injected failure'");
    for (int i = 0; i < n; i++) {
      db.insertOrder("E" + i, 1000);
      send(ALIPAY.payment("E" + i, "T-E" + i, 1000, 0));                 // error: not booked, 503
    }
    service.awaitLogRecorded();

    String metrics = scrape(TOKEN);
    for (String outcome : new String[] {"processed", "duplicate", "conflict", "anomaly", "ignored", "rejected",
        "error"}) {
      assertThat(value(metrics, "paynotify_notifications_total{channel=\"alipay\",outcome=\"" + outcome + "\"}"))
          .as(outcome).isEqualTo(n);
    }
    assertThat(value(metrics, "paynotify_notifications_total{channel=\"epay\",outcome=\"processed\"}")).isZero();
    // Every verified notification was booked or tried (all but the rejected ones): the histogram counted each.
    assertThat(value(metrics, "paynotify_booking_seconds_count{channel=\"alipay\"}")).isEqualTo(6 * n);
    assertThat(metrics).contains("paynotify_booking_seconds_bucket{channel=\"alipay\",le=\"0.025\"}")
        .contains("paynotify_booking_seconds_sum{channel=\"alipay\"}");
    // The gauges read the database: n unknown orders and n conflicts are open anomalies.
    assertThat(value(metrics, "paynotify_anomalies_open")).isEqualTo(
        db.count("SELECT COUNT(*) FROM anomalies WHERE resolved_at IS NULL")).isEqualTo(2 * n);
    assertThat(value(metrics, "paynotify_forward_events{endpoint=\"site\",state=\"pending\"}")).isEqualTo(
        db.count("SELECT COUNT(*) FROM forward_events WHERE state = 'pending'")).isPositive();
    assertThat(value(metrics, "paynotify_forward_events{endpoint=\"site\",state=\"failed\"}")).isZero();
    assertThat(value(metrics, "paynotify_forward_endpoint_disabled{endpoint=\"site\"}")).isZero();
    // What vertx-micrometer-metrics gives: the database pool, the HTTP server, the JVM.
    assertThat(metrics).contains("vertx_pool_").contains("vertx_http_server_requests_total")
        .contains("jvm_memory_used_bytes");
    // each database pool under its own name (unnamed, they shared one and only the first was reported)
    for (String pool : new String[] {"booking", "committed-reads", "notify-log", "status"}) {
      assertThat(metrics).as(pool).containsPattern("paynotify_db_pool_in_use\\{pool=\"" + pool + "\"}")
          .containsPattern("paynotify_db_pool_waiting\\{pool=\"" + pool + "\"}")
          .containsPattern("vertx_pool_usage_seconds_count\\{pool_name=\"" + pool + "\",pool_type=\"sql\"}");
    }
    assertThat(metrics).doesNotContain("pool_name=\"__vertx.DEFAULT\",pool_type=\"sql\"");
    // Vert.x's figures from its own in-use and pending count (ratio: in use / max), wrong after failed connections,
    // are hidden for SQL pools; its times stay, as docs/operations.md lists them
    assertThat(metrics.lines().filter(l -> l.startsWith("vertx_pool_") && l.contains("pool_type=\"sql\""))
        .map(l -> l.substring(0, l.indexOf('{'))).distinct()).containsExactlyInAnyOrder("vertx_pool_completed_total",
        "vertx_pool_queue_time_seconds_count", "vertx_pool_queue_time_seconds_max", "vertx_pool_queue_time_seconds_sum",
        "vertx_pool_usage_seconds_count", "vertx_pool_usage_seconds_max", "vertx_pool_usage_seconds_sum");
    // Cardinality: no order number or trade id in any label.
    assertThat(metrics).doesNotContain("T-M0").doesNotContain("\"M0\"").doesNotContain("NONE-0");
  }

  /**
   * Anyone can send any token as an HTTP method, to any path, on both ports: none may become a label,
   * or each new one would keep a handful of meters for the life of the JVM (heap and scrape growing
   * without bound). One odd request of each kind first: its series (method OTHER, code 401/404/405) exist
   * from then on; 3,000 more, each different, add none.
   */
  @Test
  void inventedMethodsAndPathsAddNoSeries() throws Exception {
    // A service of its own: the shared one's gauges, read when scraped, are cached for the other tests.
    try (TestService own = TestService.start(db.settings(), new JsonObject()
        .put("admin", new JsonObject().put("port", ServiceProcess.freePort()).put("token", TOKEN)))) {
      inventedMethodsAndPathsAddNoSeries(own);
    }
  }

  private static void inventedMethodsAndPathsAddNoSeries(TestService own) throws Exception {
    scrape(own, TOKEN);
    oddRequests(own, 0, 3);
    String before = scrape(own, TOKEN);
    oddRequests(own, 3, 3_003);
    String after = scrape(own, TOKEN);

    Set<String> added = series(after);
    added.removeAll(series(before));
    // The JVM's own series may gain a collection cause meanwhile: not from the requests.
    added.removeIf(s -> s.startsWith("jvm_"));
    System.out.printf("metrics after 3,000 invented methods and paths: %d series, %d bytes (before: %d, %d)%n",
        series(after).size(), after.length(), series(before).size(), before.length());
    assertThat(added).as("series added by invented methods and paths").isEmpty();
    assertThat(after).doesNotContain("method=\"M1").contains("method=\"OTHER\"");
  }

  /** Requests {@code from..to}: method {@code M<i>}, to a notify endpoint, an unknown path, and the admin port. */
  private static void oddRequests(TestService own, int from, int to) {
    try (KeepAliveClient notify = new KeepAliveClient(own.port());
        KeepAliveClient admin = new KeepAliveClient(own.server().adminPort())) {
      for (int i = from; i < to; i++) {
        String method = "M" + i;
        KeepAliveClient client = i % 3 == 2 ? admin : notify;
        String path = i % 3 == 0 ? "/notify/alipay" : "/nowhere/" + i;
        assertThat(client.send(new Notification(method, path, Map.of(), new byte[0], null)).fate())
            .isEqualTo(KeepAliveClient.Fate.ANSWERED);
      }
    }
  }

  /** Each series of a scrape: its name and labels, without the value. */
  private static Set<String> series(String metrics) {
    Set<String> out = new TreeSet<>();
    metrics.lines().filter(l -> !l.isBlank() && !l.startsWith("#")).forEach(l -> out.add(l.substring(0, l.lastIndexOf(' '))));
    return out;
  }

  @Test
  void theAdminListenerWantsTheTokenAndIsNotTheNotifyPort() throws Exception {
    assertThat(service.server().adminPort()).isPositive().isNotEqualTo(service.port());
    assertThat(get("/metrics", null).statusCode()).isEqualTo(401);
    assertThat(get("/metrics", "wrong-" + TOKEN).statusCode()).isEqualTo(401);
    assertThat(get("/status.json", null).statusCode()).isEqualTo(401);
    assertThat(get("/metrics", TOKEN).statusCode()).isEqualTo(200);
    // And the notify port serves no metrics.
    assertThat(CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.port() + "/metrics"))
        .build(), HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(404);
  }

  @Test
  void theAdminPortCannotBeTheNotifyPort() {
    assertThatThrownBy(() -> AppConfig.from(new JsonObject("{\"http\":{\"port\":8080},\"admin\":{\"port\":8080}}"),
        "app.yaml", Map.of())).isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("app.yaml: admin.port: 8080 is http.port");
  }

  private static void send(paynotify.testsupport.Notification notification) {
    service.send(notification);
  }

  private static String waiting(String orderNo) {
    Map<String, String> params = AlipayNotifications.payment(orderNo, "T-" + orderNo, "10.00");
    params.put("trade_status", "WAIT_BUYER_PAY");
    return AlipayNotifications.signedBody(params);
  }

  private static HttpResponse<String> get(String path, String token) throws Exception {
    return get(service, path, token);
  }

  private static HttpResponse<String> get(TestService of, String path, String token) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + of.server().adminPort() + path));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /**
   * notify_log rows that cannot be written are counted, and the count lives as long as the service:
   * the meter holds what it reads weakly, so it must read an object the service holds (a lambda made
   * for it alone was gone after the first collection, and the counter stayed at 0).
   */
  @Test
  void logRowsNotWrittenAreCountedAfterACollectionToo() throws Exception {
    System.gc();
    System.gc();
    db.insertOrder("LD1", 1000);
    db.update("RENAME TABLE notify_log TO notify_log_away");
    try {
      send(ALIPAY.payment("LD1", "T-LD1", 1000, 0)); // booked all the same: the log is not the booking
      service.awaitLogRecorded();
    } finally {
      db.update("RENAME TABLE notify_log_away TO notify_log");
    }
    assertThat(db.orderStatus("LD1")).isEqualTo("paid");
    assertThat(value(scrape(TOKEN), "paynotify_notify_log_dropped_total{log=\"notifications\"}")).isEqualTo(1);
  }

  private static String scrape(String token) throws Exception {
    return scrape(service, token);
  }

  private static String scrape(TestService of, String token) throws Exception {
    HttpResponse<String> r = get(of, "/metrics", token);
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/plain"));
    return r.body();
  }

  /**
   * The gauge of open connections counts every connection, not the first only: vertx-micrometer-metrics
   * registers it again at each connection (its issue #259; the repeat is ignored, and its WARN is kept out
   * of the log by ConsoleLogging), and every registration shares one counter per series.
   */
  @Test
  void theOpenConnectionsGaugeCountsEachConnection() throws Exception {
    long before = total(scrape(TOKEN), "vertx_http_server_active_connections");
    java.util.List<java.net.Socket> open = new java.util.ArrayList<>();
    try {
      for (int i = 0; i < 3; i++) {
        java.net.Socket socket = new java.net.Socket("127.0.0.1", service.port());
        open.add(socket);
        socket.getOutputStream().write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes());
        assertThat(new String(socket.getInputStream().readNBytes(12))).startsWith("HTTP/1.1 ");
      }
      // Exactly three more: counted once each (not once per registration), and none left out.
      assertThat(total(scrape(TOKEN), "vertx_http_server_active_connections")).isEqualTo(before + 3);
    } finally {
      for (java.net.Socket socket : open) {
        socket.close();
      }
    }
    long after = before + 3;
    for (int i = 0; i < 200 && after != before; i++) { // the server sees the closes a moment later
      Thread.sleep(50);
      after = total(scrape(TOKEN), "vertx_http_server_active_connections");
    }
    assertThat(after).as("all three closes counted").isEqualTo(before);
  }

  /** The sum of every series of one metric (whatever its labels); fails when it has none. */
  private static long total(String metrics, String name) {
    Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + "(\\{[^}]*})? ([0-9.eE+-]+)$").matcher(metrics);
    double sum = 0;
    boolean found = false;
    while (m.find()) {
      found = true;
      sum += Double.parseDouble(m.group(2));
    }
    assertThat(found).as("metric %s", name).isTrue();
    return (long) sum;
  }

  /** The value of one series, as Prometheus would read it; fails when the series is absent. */
  private static long value(String metrics, String series) {
    Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " ([0-9.eE+-]+)$").matcher(metrics);
    assertThat(m.find()).as("series %s in%n%s", series, metrics.lines().filter(l -> l.startsWith("paynotify"))
        .toList()).isTrue();
    return (long) Double.parseDouble(m.group(1));
  }
}
