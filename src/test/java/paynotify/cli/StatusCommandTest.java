package paynotify.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import paynotify.booking.AnomalyKind;
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

  /** Issue 41: a time the database refused writes an epusdt notification names the unpaid epusdt orders of then. */
  @Test
  void theUnpaidOrdersOfATimeTheDatabaseRefusedWritesAreNamed() {
    db.update("INSERT INTO orders (order_no, amount_cents, channel, created_at) VALUES ('E-1', 100, 'epusdt', "
        + NOW + " - INTERVAL 250 SECOND)");
    db.update("INSERT INTO write_refusals (started_at, ended_at, reason, refused, by_endpoint, created_at) VALUES"
        + " (UTC_TIMESTAMP(3) - INTERVAL 300 SECOND, UTC_TIMESTAMP(3) - INTERVAL 200 SECOND, 'disk full (1114)', 2,"
        + " '{\"epusdt\": 2}', UTC_TIMESTAMP(3))");

    Cli.Result r = Cli.runConfigured("epusdt:\n  token: \"" + EpusdtNotifications.TOKEN + "\"\n  pid: \""
        + EpusdtNotifications.PID + "\"\n", "status");

    assertThat(r.out()).as(r.err()).containsPattern("ATTENTION: the database refused writes from .* \\(Beijing time;"
        + " disk full \\(1114\\)\\): 2 notifications answered failure, 2 of them from epusdt, which never deliver"
        + " again: check these unpaid orders of that window \\(created .*\\): E-1\n");
  }
}
