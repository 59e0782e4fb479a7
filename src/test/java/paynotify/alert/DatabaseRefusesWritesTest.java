package paynotify.alert;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import paynotify.config.AppConfig.DatabaseSettings;
import paynotify.testsupport.AlipayNotifications;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.Http;
import paynotify.testsupport.ServiceProcess;
import paynotify.testsupport.TestService;

/**
 * The database really refuses the service's writes: {@code read_only=ON} for a user without SUPER (READ ONLY ADMIN),
 * as a replica promoted the wrong way round, or a server an operator made read-only, answers each booking 1290.
 * /health says so within the second refusal, the owner's group is told once (a WeCom stand-in), /status.json puts it
 * first; once the server writes again /health is 200 after the close, and the end is told with the count. Needs a
 * server that checks grants: the embedded one skips them (every user may write), the 10.11 pass runs it.
 */
class DatabaseRefusesWritesTest extends DatabaseTestBase {
  static final String USER = "paynotify_nosuper";
  /** The service connects to 127.0.0.1 (the test database's host): the user only from there, not '%'. */
  static final String ACCOUNT = "'" + USER + "'@'127.0.0.1'";

  /**
   * The server shared with the other database tests left as they need it, before and after, whatever failed half-way:
   * writable, without this test's user (idempotent).
   */
  @BeforeEach
  @AfterEach
  void serverClean() {
    db.update("SET GLOBAL read_only = OFF"); // the other tests write
    try {
      db.update("DROP USER IF EXISTS " + ACCOUNT);
    } catch (IllegalStateException e) {
      if (!skipsGrants(e)) {
        throw e;
      }
    }
  }

  private static boolean skipsGrants(IllegalStateException e) {
    return String.valueOf(e.getCause().getMessage()).contains("skip-grant-tables");
  }

  @Test
  void readOnlyIsSaidByHealthStatusAndTheAlertsUntilItWritesAgain() throws Exception {
    ServiceStandIn wecom = null;
    TestService service = null;
    try {
      try {
        db.update("CREATE USER " + ACCOUNT + " IDENTIFIED BY 'no-super-here'");
      } catch (IllegalStateException e) {
        Assumptions.assumeFalse(skipsGrants(e),
            "the embedded MariaDB skips grant tables: read_only binds no user there");
        throw e;
      }
      DatabaseSettings root = db.settings();
      db.update("GRANT SELECT, INSERT, UPDATE, DELETE ON " + root.name() + ".* TO " + ACCOUNT);
      DatabaseSettings noSuper = new DatabaseSettings(root.host(), root.port(), root.name(), USER, "no-super-here", 8,
          1000, Duration.ofSeconds(5), 5, null);
      db.insertOrder("RO-1", 1000);
      db.insertOrder("RO-2", 1000);
      db.insertOrder("RO-3", 1000);
      wecom = ServiceStandIn.start(r -> ServiceStandIn.Reply.json(new JsonObject().put("errcode", 0)
          .put("errmsg", "ok")));
      int admin = ServiceProcess.freePort();
      service = TestService.start(noSuper, new JsonObject()
          .put("admin", new JsonObject().put("port", admin))
          .put("alerts", new JsonObject().put("wecom", new JsonObject()
              .put("webhook_url", wecom.url("/cgi-bin/webhook/send?key=GROUP-KEY").toString()))));

      db.update("SET GLOBAL read_only = ON");
      assertThat(service.postAlipay(pay("RO-1", "2026120622001400000001")).body()).isNotEqualTo("success");
      assertThat(service.postAlipay(pay("RO-2", "2026120622001400000002")).body()).isNotEqualTo("success");

      Http.Reply health = Http.get(service.port(), "/health");
      assertThat(health.status()).isEqualTo(503);
      JsonObject said = new JsonObject(health.body());
      assertThat(said.fieldNames()).containsExactlyInAnyOrder("status", "reason", "since");
      assertThat(said.getString("status")).isEqualTo("database refuses writes");
      assertThat(said.getString("reason")).isEqualTo("read-only (1290)");

      JsonObject status = new JsonObject(Http.get(admin, "/status.json").body());
      assertThat(status.getJsonObject("database_writes").getBoolean("refusing")).isTrue();
      assertThat(status.getJsonObject("database_writes").getLong("refused")).isEqualTo(2);
      assertThat(status.getJsonArray("attention").getString(0)).startsWith("the database refuses writes since ")
          .contains("(read-only (1290)): 2 notifications answered failure; what to do: if SHOW REPLICA STATUS is empty"
              + " (this server is the primary): SET GLOBAL read_only=OFF");

      List<String> started = awaitMessages(wecom, 1);
      assertThat(started.get(0)).startsWith("数据库拒绝写入：只读 (1290)\n").contains("已有 2 条通知回了失败（alipay 2）")
          .contains("SET GLOBAL read_only=OFF").contains("epusdt 和 V免签 (vmq) 不会重发");

      db.update("SET GLOBAL read_only = OFF");
      long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
      while (Http.get(service.port(), "/health").status() != 200 && System.nanoTime() < deadline) {
        Thread.sleep(200);
      }
      assertThat(Http.get(service.port(), "/health").status()).as("closed: a probe wrote, 5 s without refusal")
          .isEqualTo(200);
      assertThat(service.postAlipay(pay("RO-3", "2026120622001400000003")).body()).isEqualTo("success");

      List<String> told = awaitMessages(wecom, 2);
      assertThat(told.get(1)).startsWith("数据库恢复写入\n").contains("之间有 2 条通知被拒绝（只读 (1290)）")
          .contains("请核对这段时间里 epusdt 和 V免签 (vmq) 的订单");
    } finally { // read_only and the user: serverClean
      if (service != null) {
        service.close();
      }
      if (wecom != null) {
        wecom.close();
      }
    }
  }

  private static String pay(String orderNo, String tradeNo) {
    return AlipayNotifications.signedBody(AlipayNotifications.payment(orderNo, tradeNo, "10.00"));
  }

  /** What the group received once it holds {@code n} messages (the end comes 20 s after the last refusal). */
  private static List<String> awaitMessages(ServiceStandIn wecom, int n) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(45).toNanos();
    while (wecom.received().size() < n && System.nanoTime() < deadline) {
      Thread.sleep(200);
    }
    List<String> got = wecom.received().stream().map(r -> r.json().getJsonObject("markdown").getString("content"))
        .toList();
    assertThat(got).hasSize(n);
    return got;
  }
}
