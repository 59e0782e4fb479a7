package paynotify.setup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import paynotify.cli.ExitCode;
import paynotify.config.AppConfig.DatabaseSettings;
import paynotify.config.AppConfig;
import paynotify.server.Pools;
import paynotify.store.Database;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.ServiceProcess;

/**
 * database.tls on a server that offers none: a setting to change, not a server to wait for (the JDBC refusal
 * carries SQL state 08000, which otherwise means "not up yet"). Runs where the test server has TLS off, as the
 * MariaDB 10.11 at 127.0.0.1:3306 of .ci/run's second pass (PAYNOTIFY_TEST_DB); skipped on the embedded 11.4,
 * which has TLS on.
 */
@ExtendWith(VertxExtension.class)
class DatabaseWithoutTlsTest extends DatabaseTestBase {
  @TempDir
  Path dir;

  @BeforeAll
  static void serverOffersNoTls() {
    String haveSsl = db.string("SELECT @@have_ssl");
    Assumptions.assumeFalse("YES".equals(haveSsl), "the test server offers TLS (have_ssl YES): DatabaseTlsTest covers it");
  }

  @Test
  void tlsOnAServerWithoutTlsStopsTheStartNamingTheKey() throws Exception {
    JsonObject tls = new JsonObject().put("database", new JsonObject().put("tls", true));
    try (ServiceProcess service = ServiceProcess.start(db.settings(), tls, dir)) {
      assertThat(service.exitCode(Duration.ofSeconds(60))).isEqualTo(ExitCode.UNUSABLE);
      assertThat(service.lastErrorLine())
          .startsWith("paynotify: " + dir.resolve("application.yaml") + ": database: cannot connect to ")
          .contains(DatabaseSecurityErrors.NO_TLS_ON_SERVER);
    }
  }

  @Test
  void thePoolIsRefusedTheSameWay(Vertx vertx) {
    // The start reaches the pool only after JDBC; a pool that meets such a server later says the same.
    DatabaseSettings s = db.settings();
    DatabaseSettings tls = AppConfig.from(new JsonObject().put("database", new JsonObject().put("host", s.host())
        .put("port", s.port()).put("name", s.name()).put("user", s.user()).put("password", s.password())
        .put("tls", true)), "test", Map.of()).database();
    Database pool = Pools.connect(vertx, tls);
    Throwable refused = catchThrowable(() -> pool.ping().await(10, TimeUnit.SECONDS));
    pool.close();
    assertThat(DatabaseSecurityErrors.advice(refused, true)).isEqualTo(DatabaseSecurityErrors.NO_TLS_ON_SERVER);
    assertThat(DatabaseWait.notUpYet(refused)).isFalse();
  }
}
