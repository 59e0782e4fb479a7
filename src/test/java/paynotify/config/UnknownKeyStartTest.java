package paynotify.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.ServiceProcess;
import paynotify.testsupport.TestService;

/** A key of the site's file that paynotify does not read is one WARN line of a real start, naming it and the file. */
class UnknownKeyStartTest extends DatabaseTestBase {
  private static final Duration START = Duration.ofSeconds(60);

  @TempDir
  Path dir;

  @Test
  void aTypoInTheFileIsNamedOnceAndAnEnvironmentVariableIsNot() throws Exception {
    JsonObject config = TestService.configuration(new JsonObject()
        .put("http", new JsonObject().put("port", ServiceProcess.freePort()))
        .put("database", new JsonObject().put("host", db.settings().host()).put("port", db.settings().port())
            .put("name", db.settings().name()).put("user", db.settings().user())
            .put("password", db.settings().password())));
    config.getJsonObject("alipay").put("publik_key_file", "/etc/paynotify/alipay_public.pem");
    Path file = Files.writeString(dir.resolve("site.yaml"), config.encodePrettily());
    // PAYNOTIFY_* variables may belong to other tools (and a service's environment file to many): never warned of
    Map<String, String> env = Map.of("PAYNOTIFY_HTTP_BEHIND_PROXYY", "true");
    try (ServiceProcess p = ServiceProcess.start(file, dir, env)) {
      p.awaitLogLine("paynotify listening on", START);
      assertThat(p.log().lines().filter(line -> line.contains(" WARN ") && line.contains("reads no key")))
          .singleElement().asString().contains(file.toString()).contains("alipay.publik_key_file")
          .doesNotContain("behind_proxyy");
    }
  }
}
