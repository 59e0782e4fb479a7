package paynotify.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import paynotify.cli.ExitCode;
import paynotify.testsupport.ChannelFixture;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.Http;
import paynotify.testsupport.PrivateFile;
import paynotify.testsupport.ServiceProcess;
import paynotify.testsupport.SiteReceiver;

/**
 * Issue 11: the forwarding secret never reaches a log. A real process, logging as shipped, with a
 * recognisable secret and a site that fails every request (so that the relay logs its errors, the
 * event fails and a forward_failed anomaly is recorded), then stopped: neither its output nor what the
 * site received holds the secret, in clear, hex or base64.
 */
class ForwardSecretTest extends DatabaseTestBase {
  private static final ChannelFixture alipay = ChannelFixture.alipay();

  @TempDir
  Path dir;

  @Test
  void theSecretIsInNoLogWhileTheSiteFails() throws Exception {
    byte[] random = new byte[12];
    new SecureRandom().nextBytes(random);
    String secret = "fwd_NEVER-LOGGED-" + HexFormat.of().formatHex(random);
    Path secretFile = PrivateFile.write(dir.resolve("forward.secret"), secret);
    Path run = Files.createDirectories(dir.resolve("run"));
    db.insertOrder("SEC1", 1500);

    try (SiteReceiver site = SiteReceiver.start().answer(500)) {
      JsonObject forward = new JsonObject().put("forward", new JsonObject()
          .put("url", site.url())
          .put("secret_file", secretFile.toString())
          .put("timeout_ms", 1000)
          .put("retry_schedule_seconds", new JsonArray().add(1).add(1)));
      String log;
      try (ServiceProcess service = ServiceProcess.start(db.settings(), forward, run)) {
        service.awaitHealth(200, Duration.ofSeconds(60));
        assertThat(Http.send(service.port(), alipay.payment("SEC1", "T-SEC1", 1500, 0))).matches(alipay.success());
        awaitFailed();
        assertThat(Http.get(service.port(), "/health").body()).doesNotContain(secret);
        service.terminate();
        service.exitCode(Duration.ofSeconds(30));
        log = service.log();
      }
      assertThat(site.requests()).hasSize(3);
      // Not vacuous: the failures were logged, by a process that read the secret and signed with it.
      assertThat(log.toLowerCase(java.util.Locale.ROOT)).contains("forward");
      assertThat(db.count("SELECT COUNT(*) FROM anomalies WHERE kind = 'forward_failed'")).isEqualTo(1);

      for (String form : forms(secret)) {
        assertThat(log).as("the log holds the secret (%s)", form).doesNotContain(form);
        assertThat(site.requests()).as("a request carries the secret")
            .noneMatch(r -> r.bodyText().contains(form) || r.headers().toString().contains(form));
      }
      assertThat(db.count("SELECT COUNT(*) FROM anomalies WHERE INSTR(detail, ?) > 0", secret)).isZero();
      assertThat(db.count("SELECT COUNT(*) FROM forward_events WHERE INSTR(CONCAT(body, IFNULL(last_error, '')), ?) > 0",
          secret)).isZero();
    }
  }

  /**
   * Security review N5: a forward.url that carries credentials (user:pass@) or a key in its query is printed as
   * scheme://host:port/path only. The site answers 410, so the endpoint is disabled with an ERROR line and a
   * forward_endpoint_gone anomaly naming it (what an alert carries, and /status.json lists): none holds them.
   */
  @Test
  void theEndpointsCredentialsAndQueryAreInNoLogAnomalyOrStatus() throws Exception {
    Path run = Files.createDirectories(dir.resolve("run"));
    db.insertOrder("URL1", 1500);
    try (SiteReceiver site = SiteReceiver.start().answer(410)) {
      String shown = "http://127.0.0.1:" + site.port() + SiteReceiver.PATH;
      String url = "http://hookuser:HOOK-PASS-3f9a@127.0.0.1:" + site.port() + SiteReceiver.PATH
          + "?key=QUERY-KEY-7c1e&x=1";
      int admin = ServiceProcess.freePort();
      JsonObject config = new JsonObject()
          .put("admin", new JsonObject().put("port", admin))
          .put("forward", new JsonObject().put("url", url).put("secret", "fwd_a-secret-for-the-url-test")
              .put("timeout_ms", 1000));
      String log;
      String status;
      try (ServiceProcess service = ServiceProcess.start(db.settings(), config, run)) {
        service.awaitHealth(200, Duration.ofSeconds(60));
        assertThat(Http.send(service.port(), alipay.payment("URL1", "T-URL1", 1500, 0))).matches(alipay.success());
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (db.count("SELECT COUNT(*) FROM anomalies WHERE kind = 'forward_endpoint_gone'") < 1) {
          assertThat(System.nanoTime()).as("an anomaly for the endpoint that answered 410").isLessThan(deadline);
          Thread.sleep(50);
        }
        status = Http.get(admin, "/status.json").body();
        service.terminate();
        service.exitCode(Duration.ofSeconds(30));
        log = service.log();
      }
      assertThat(site.requests()).isNotEmpty(); // sent to the URL as configured
      String detail = db.string("SELECT detail FROM anomalies WHERE kind = 'forward_endpoint_gone'");
      assertThat(detail).contains("(" + shown + ")");
      assertThat(log).contains("nothing is sent to " + shown + " ");
      assertThat(status).contains(shown);
      for (String part : new String[] {"hookuser", "HOOK-PASS-3f9a", "QUERY-KEY-7c1e", "x=1"}) {
        assertThat(log).as("the log").doesNotContain(part);
        assertThat(detail).as("the anomaly").doesNotContain(part);
        assertThat(status).as("/status.json").doesNotContain(part);
      }
    }
  }

  /** A configuration error about the forward section names the key, never the value of the secret. */
  @Test
  void aRefusedForwardSectionDoesNotPrintTheSecret() throws Exception {
    String secret = "fwd_INLINE-NEVER-PRINTED-8d0e2b";
    Path secretFile = PrivateFile.write(dir.resolve("forward.secret"), "fwd_FROM-THE-FILE-1a2b3c");
    JsonObject forward = new JsonObject().put("forward", new JsonObject()
        .put("url", "http://127.0.0.1:9/hook")
        .put("secret", secret)                      // both set: refused at start, exit 2
        .put("secret_file", secretFile.toString()));
    try (ServiceProcess service = ServiceProcess.start(db.settings(), forward, dir)) {
      assertThat(service.exitCode(Duration.ofSeconds(60))).isEqualTo(ExitCode.UNUSABLE);
      assertThat(service.lastErrorLine()).contains("forward.secret");
      assertThat(service.log()).doesNotContain(secret).doesNotContain("fwd_FROM-THE-FILE-1a2b3c");
    }
  }

  private static String[] forms(String secret) {
    byte[] bytes = secret.getBytes(StandardCharsets.UTF_8);
    return new String[] {secret, HexFormat.of().formatHex(bytes), Base64.getEncoder().encodeToString(bytes)};
  }

  private static void awaitFailed() throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (db.count("SELECT COUNT(*) FROM forward_events WHERE state = 'failed'") < 1) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("no failed event within 20 s: "
            + db.column("SELECT CONCAT_WS(' ', type, state, attempts, last_error) FROM forward_events"));
      }
      Thread.sleep(50);
    }
  }
}
