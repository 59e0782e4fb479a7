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

  @Test
  void saysWhenTheAdminTokenIsRequired() throws Exception {
    try (ServiceProcess p = ServiceProcess.start(db.settings(), new JsonObject()
        .put("admin", new JsonObject().put("port", ServiceProcess.freePort())
            .put("token", "0123456789abcdef0123")), dir)) {
      assertThat(p.awaitLogLine("admin listener on", START)).contains("; token required)");
    }
  }
}
