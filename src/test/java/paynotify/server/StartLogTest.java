package paynotify.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.ServiceProcess;

/** What the start log of a real process tells the operator about how exposed the service is. */
class StartLogTest extends DatabaseTestBase {
  private static final Duration START = Duration.ofSeconds(60);

  @TempDir
  Path dir;

  /** The test database's user is root, as database.user defaults to. */
  @Test
  void saysTheAdminListenerTakesLoopbackOnlyWithoutATokenAndWarnsOfRoot() throws Exception {
    try (ServiceProcess p = ServiceProcess.start(db.settings(), new JsonObject()
        .put("admin", new JsonObject().put("port", ServiceProcess.freePort())), dir)) {
      assertThat(p.awaitLogLine("admin listener on", START)).contains("; no token: loopback Host only)");
      assertThat(p.awaitLogLine("database.user is root", START)).contains("WARN")
          .contains("create a user with the grants of docs/integration.md");
    }
  }

  // Review S2: V免签 (one key per server), epusdt without a pid and TokenPay (one ApiToken per instance) bind a message
  // to nothing but the key; a second site on the same server pays this one's order of the same number unless the
  // numbers are told apart.
  @Test
  void warnsOfVmqEpusdtAndTokenPayWithoutAnOrderNumberTemplate() throws Exception {
    try (ServiceProcess p = ServiceProcess.start(db.settings(), new JsonObject()
        .put("vmq", new JsonObject().putNull("order_pattern")).put("epusdt", new JsonObject().putNull("pid")), dir)) {
      assertThat(p.awaitLogLine("vmq: neither orders.out_trade_no nor vmq.order_pattern", START)).contains("WARN")
          .contains("another site");
      assertThat(p.awaitLogLine("epusdt: neither orders.out_trade_no nor epusdt.pid", START)).contains("WARN")
          .contains("another site");
      assertThat(p.awaitLogLine("tokenpay: no orders.out_trade_no", START)).contains("WARN").contains("another site");
    }
  }

  @Test
  void saysNothingOfSharedKeysOnceTheNumbersAreTheSitesOwn() throws Exception {
    try (ServiceProcess p = ServiceProcess.start(db.settings(), new JsonObject()
        .put("orders", new JsonObject().put("out_trade_no", "A{order_no}"))
        .put("vmq", new JsonObject().putNull("order_pattern")).put("epusdt", new JsonObject().putNull("pid")), dir)) {
      p.awaitLogLine("booking notifications", START);
      assertThat(p.log()).doesNotContain("neither orders.out_trade_no").doesNotContain("no orders.out_trade_no");
    }
  }

  @Test
  void saysWhenTheAdminTokenIsRequired() throws Exception {
    try (ServiceProcess p = ServiceProcess.start(db.settings(), new JsonObject()
        .put("admin", new JsonObject().put("port", ServiceProcess.freePort())
            .put("token", "0123456789abcdef0123")), dir)) {
      assertThat(p.awaitLogLine("admin listener on", START)).contains("; token required)");
    }
  }
}
