package paynotify.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.vertx.core.json.JsonObject;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import paynotify.booking.anomaly.AnomalyKind;
import paynotify.testsupport.Cli;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.EpusdtNotifications;

/** `paynotify status`: the report in the terminal, the service not running; exit 1 while anomalies are open. */
class StatusCommandTest extends DatabaseTestBase {
  // The tools' sessions run in database.time_zone (+08:00 here), the helper's in the server's.
  private static final String NOW = "(UTC_TIMESTAMP(3) + INTERVAL 8 HOUR)";

  @Test
  void allClearIsExitZero() {
    db.update("INSERT INTO payments (channel, trade_no, order_no, amount_cents, paid_at) VALUES"
        + " ('alipay', 'A1', 'O1', 1000, " + NOW + "), ('wechat', 'W1', 'O2', 250, " + NOW + "),"
        + " ('alipay', 'A0', 'O0', 9900, " + NOW + " - INTERVAL 1 DAY)");
    db.update("INSERT INTO anomalies (kind, channel, order_no, detail, dedupe_key, resolved_at)"
        + " VALUES ('unknown_order', 'alipay', 'O-9', 'no such order', 'k1', " + NOW + ")");

    Cli.Result r = Cli.run("status");

    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).contains("all clear", "): 2 payments, 12.50", "open anomalies: 0",
        "last rejected or failed notifications: none", "forward queue: off", "database: reachable, ",
        "; paynotify dev").doesNotContain("ATTENTION").doesNotContain("O-9");
    assertThat(r.out()).containsPattern("\n  alipay +1 +10\\.00\n").containsPattern("\n  wechat +1 +2\\.50\n");
  }

  @Test
  void openAnomaliesAreExitOneWithWhatToDo() {
    db.update("INSERT INTO anomalies (kind, channel, order_no, trade_no, amount_cents, detail, dedupe_key)"
        + " VALUES ('second_payment', 'wechat', 'O-7', 'T-7', 1000, 'order O-7 already paid by T-6\\n(twice)', 'k7')");
    db.update("INSERT INTO notify_log (channel, remote_addr, outcome, detail, body_bytes)"
        + " VALUES ('epay', '203.0.113.9', 'rejected', 'unknown pid', 12)");

    Cli.Result r = Cli.run("status");

    assertThat(r.exit()).as(r.err()).isEqualTo(1);
    assertThat(r.out()).contains("ATTENTION: 1 open anomaly", "open anomalies: 1",
        "second_payment  wechat  order O-7  trade T-7  10.00",
        "    order O-7 already paid by T-6 (twice)\n", // one line, whatever the detail held
        "    what to do: " + AnomalyKind.SECOND_PAYMENT.action(), "rejected 203.0.113.9  unknown pid");

    Cli.Result json = Cli.run("status", "--json");
    assertThat(json.exit()).isEqualTo(1);
    JsonObject report = new JsonObject(json.out());
    assertThat(report.getJsonObject("anomalies").getLong("open")).isEqualTo(1);
    assertThat(report.getJsonObject("anomalies").getJsonArray("shown").getJsonObject(0).getString("action"))
        .isEqualTo(AnomalyKind.SECOND_PAYMENT.action());
    assertThat(report.getJsonObject("forward").getString("state")).isEqualTo("off");
    assertThat(report.getJsonObject("paynotify").getValue("uptime_seconds")).isNull();
  }

  /**
   * The running service's /health (a local server plays it) says the database refuses writes: that is the first
   * line, with what to do, and exit 3, above the open anomaly's 1.
   */
  @Test
  void aServiceWhoseDatabaseRefusesWritesIsExitThreeAndTheFirstLine() throws Exception {
    db.update("INSERT INTO anomalies (kind, channel, order_no, detail, dedupe_key)"
        + " VALUES ('unknown_order', 'alipay', 'O-8', 'no such order', 'k8')");
    HttpServer service = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 4);
    byte[] health = new JsonObject().put("status", "database refuses writes").put("reason", "read-only (1290)")
        .put("since", "2026-12-06T04:00:03.250Z").encode().getBytes(StandardCharsets.UTF_8);
    service.createContext("/health", exchange -> {
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(503, health.length);
      exchange.getResponseBody().write(health);
      exchange.close();
    });
    service.start();
    try {
      String http = "http:\n  host: 0.0.0.0\n  port: " + service.getAddress().getPort() + "\n";

      Cli.Result r = Cli.runConfigured(http, "status");

      assertThat(r.exit()).as(r.err()).isEqualTo(ExitCode.DATABASE);
      assertThat(r.out()).contains("\nATTENTION: the database refuses writes since 2026-12-06 12:00:03 Beijing time"
          + " (read-only (1290)); what to do: if SHOW REPLICA STATUS is empty (this server is the primary): SET GLOBAL"
          + " read_only=OFF; otherwise point database.host at the primary\nATTENTION: 1 open anomaly\n");

      Cli.Result json = Cli.runConfigured(http, "status", "--json");
      assertThat(json.exit()).isEqualTo(ExitCode.DATABASE);
      assertThat(new JsonObject(json.out()).getJsonObject("database_writes")).isEqualTo(new JsonObject()
          .put("refusing", true).put("reason", "read-only (1290)").put("since", "2026-12-06T04:00:03.250Z"));
    } finally {
      service.stop(0);
    }

    Cli.Result stopped = Cli.runConfigured("http:\n  port: " + service.getAddress().getPort() + "\n", "status");
    assertThat(stopped.exit()).as("no service answers: nothing said of the writes").isEqualTo(1);
    assertThat(stopped.out()).doesNotContain("refuses writes")
        .contains("\nno service answered on 127.0.0.1:" + service.getAddress().getPort() + " (not running?)\n");
  }

  /** A 503 that says the database refuses writes but not since when nor why (another version): said, no crash. */
  @Test
  void aRefusalWithoutSinceOrReasonIsStillSaid() throws Exception {
    HttpServer service = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 4);
    byte[] health = new JsonObject().put("status", "database refuses writes").encode().getBytes(StandardCharsets.UTF_8);
    service.createContext("/health", exchange -> {
      exchange.sendResponseHeaders(503, health.length);
      exchange.getResponseBody().write(health);
      exchange.close();
    });
    service.start();
    try {
      Cli.Result r = Cli.runConfigured("http:\n  port: " + service.getAddress().getPort() + "\n", "status");

      assertThat(r.exit()).as(r.err()).isEqualTo(ExitCode.DATABASE);
      assertThat(r.out()).contains("\nATTENTION: the database refuses writes (reason not given); what to do: see"
          + " docs/operations.md, The database refuses writes\n");
    } finally {
      service.stop(0);
    }
  }

  /** Issue 41: a time the database refused writes an epusdt notification names the unpaid epusdt orders of then. */
  @Test
  void theUnpaidOrdersOfATimeTheDatabaseRefusedWritesAreNamed() {
    db.update("INSERT INTO orders (order_no, amount_cents, channel, created_at) VALUES ('E-1', 100, 'epusdt', "
        + NOW + " - INTERVAL 250 SECOND)");
    db.update("INSERT INTO write_refusals (started_at, ended_at, reason, refused, by_endpoint, lost_orders,"
        + " created_at) VALUES (UTC_TIMESTAMP(3) - INTERVAL 300 SECOND, UTC_TIMESTAMP(3) - INTERVAL 200 SECOND,"
        + " 'disk full (1114)', 2, '{\"epusdt\": 2}', '[]', UTC_TIMESTAMP(3))");

    Cli.Result r = Cli.runConfigured("epusdt:\n  token: \"" + EpusdtNotifications.TOKEN + "\"\n  pid: \""
        + EpusdtNotifications.PID + "\"\n", "status");

    assertThat(r.out()).as(r.err()).containsPattern("ATTENTION: the database refused writes from .* \\(Beijing time;"
        + " disk full \\(1114\\)\\): 2 notifications answered failure, 2 of them from epusdt, which never deliver"
        + " again: check these unpaid orders of that window \\(created .*\\): E-1\n");
  }
}
