package paynotify.release;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import paynotify.release.ReleasePackages.Run;
import paynotify.testsupport.AlipayBillGenerator;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.EpayNotifications;
import paynotify.testsupport.Http;
import paynotify.testsupport.ServiceProcess;

/**
 * The release tarball as a site owner installs it: unpacked into an empty folder, run with neither java nor mvn on
 * PATH and with a clean environment (as systemd runs it), configured by its own conf/application.yaml and the
 * PAYNOTIFY_* variables. Slow (package.sh builds and links a runtime): the "release" group, run by CI.
 */
@Tag("release")
class ReleaseTarballTest extends DatabaseTestBase {
  @TempDir
  Path dir;

  private ReleasePackages release;
  private Path home;
  private Path tools;
  private Path config;
  private Path data;
  private long unpackStarted;

  @BeforeEach
  void unpack() throws Exception {
    release = ReleasePackages.get();
    unpackStarted = System.nanoTime();
    Path opt = Files.createDirectories(dir.resolve("opt"));
    Run tar = ReleasePackages.run(opt, Map.of(), "tar", "-xzf", release.tarball.toString());
    assertThat(tar.exit()).as(tar.output()).isZero();
    try (var top = Files.list(opt)) {
      assertThat(top.map(p -> p.getFileName().toString()).toList()).containsExactly("paynotify-" + release.version);
    }
    home = opt.resolve("paynotify-" + release.version);
    // The tools bin/paynotify needs, and nothing else: no java, no mvn.
    tools = Files.createDirectories(dir.resolve("tools"));
    for (String tool : List.of("bash", "dirname", "readlink")) {
      Files.createSymbolicLink(tools.resolve(tool), Path.of("/usr/bin", tool).toRealPath());
    }
    config = dir.resolve("etc/application.yaml");
    Files.createDirectories(config.getParent());
    Files.copy(home.resolve("conf/application.yaml"), config);
    data = Files.createDirectories(dir.resolve("var/lib/paynotify"));
  }

  @Test
  void theTarballServesWithNeitherJavaNorMavenOnPathAndBooksASignedNotification() throws Exception {
    Run lookup = ReleasePackages.run(null, Map.of("PATH", tools.toString()), tools.resolve("bash").toString(), "-c",
        "command -v java || command -v mvn");
    assertThat(lookup.exit()).as("java or mvn on PATH: %s", lookup.output()).isNotZero();
    assertThat(tar("-tzf").output().lines()).contains("paynotify-" + release.version + "/bin/paynotify",
        "paynotify-" + release.version + "/runtime/bin/java", "paynotify-" + release.version + "/lib/paynotify.jar",
        "paynotify-" + release.version + "/systemd/paynotify.service", "paynotify-" + release.version + "/README");

    Run version = paynotify("--version");
    assertThat(version.output().strip()).isEqualTo("paynotify " + release.version);

    db.insertOrder("REL-1", 1999);
    int port = ServiceProcess.freePorts(2);
    try (ServiceProcess service = ServiceProcess.startRelease(home, config, data, port, dir, environment(port))) {
      Duration healthy = service.awaitHealth(200, Duration.ofSeconds(60));
      System.out.printf("release %s: unpacked to healthy in %d ms (the start alone %d ms)%n", release.version,
          Duration.ofNanos(System.nanoTime() - unpackStarted).toMillis(), healthy.toMillis());

      // bin/paynotify execs the runtime's java: the service's own command line, as ps shows it.
      String commandLine = Files.readString(Path.of("/proc", Long.toString(service.pid()), "cmdline"))
          .replace('\0', ' ');
      assertThat(commandLine).startsWith(home.resolve("runtime/bin/java") + " -XX:+ExitOnOutOfMemoryError -Xms16m")
          .contains("-Dpaynotify.config=/etc/paynotify/application.yaml").contains("paynotify.cli.Main serve");

      var signed = EpayNotifications.signed(EpayNotifications.payment("REL-1", "2026120400001", "19.99"),
          EpayNotifications.KEY);
      Http.Reply reply = Http.send(port, EpayNotifications.post(signed));
      assertThat(reply.body()).as(service.log()).isEqualTo("success");
      assertThat(db.orderStatus("REL-1")).isEqualTo("paid");
      assertThat(db.payments("2026120400001")).isEqualTo(1);

      JsonObject status = new JsonObject(Http.get(port + 1, "/status.json").body());
      assertThat(status.getJsonObject("paynotify").getString("version")).isEqualTo(release.version);

      service.terminate();
      assertThat(service.exitCode(Duration.ofSeconds(30))).isEqualTo(143); // SuccessExitStatus=143 in the unit
      assertThat(service.log()).doesNotContain("ERROR").doesNotContain("Exception");
    }
  }

  /** The shipped configuration as it is (database.host empty): a release has no embedded MariaDB, and says so. */
  @Test
  void anEmptyDatabaseHostStopsTheStartSayingTheReleaseHasNoEmbeddedDatabase() throws Exception {
    Run serve = paynotify(Map.of("PATH", tools.toString()), "serve", "--config", config.toString());
    assertThat(serve.exit()).isEqualTo(2);
    assertThat(Files.readString(dir.resolve("stderr.txt")).strip()).endsWith("paynotify: " + config
        + ": database.host: empty means the embedded MariaDB, which a release does not carry (a clone's"
        + " target/embedded-db, for trials); set database.host to your MySQL/MariaDB server");
  }

  /** The tools on the bundled runtime: an Alipay bill is a zip of GBK text, a charset outside java.base. */
  @Test
  void theToolsReconcileAGbkBillOnTheBundledRuntime() throws Exception {
    Path bill = AlipayBillGenerator.write(dir.resolve("bills/day.csv.zip"), 5, row -> db.update("INSERT INTO payments"
        + " (channel, trade_no, order_no, amount_cents, paid_at) VALUES ('alipay', ?, ?, ?, ?)", row.tradeNo(),
        row.orderNo(), row.amountCents(), row.paidAt()));
    Run reconcile = paynotify("reconcile", "--channel", "alipay", "--bill", bill.toString(), "--json",
        "--config", config.toString());
    assertThat(reconcile.exit()).as("%s%s", reconcile.output(), Files.readString(dir.resolve("stderr.txt"))).isZero();
    JsonObject report = new JsonObject(reconcile.output());
    assertThat(report.getJsonObject("read").getLong("payment_rows")).isEqualTo(5);
    assertThat(report.getBoolean("clean")).isTrue();
  }

  /** SHA256SUMS holds what the two files' bytes give. */
  @Test
  void theChecksumsAreTheFilesOwn() throws Exception {
    List<String> lines = Files.readAllLines(release.sums);
    assertThat(lines).containsExactly(sha256(release.tarball) + "  " + release.tarball.getFileName(),
        sha256(release.deb) + "  " + release.deb.getFileName());
  }

  /** bin/paynotify ARGS in the data folder with a service's environment: its standard output (stderr: stderr.txt). */
  private Run paynotify(String... args) throws Exception {
    return paynotify(environment(0), args);
  }

  private Run paynotify(Map<String, String> env, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(home.resolve("bin/paynotify").toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).directory(data.toFile())
        .redirectError(dir.resolve("stderr.txt").toFile());
    builder.environment().clear();
    builder.environment().putAll(env);
    Process p = builder.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(2, TimeUnit.MINUTES)).as("%s finished", command).isTrue();
    return new Run(p.exitValue(), out);
  }

  private Run tar(String option) throws Exception {
    return ReleasePackages.run(null, Map.of(), "tar", option, release.tarball.toString());
  }

  /** A systemd service's environment: PATH (the tools only) and the settings a site gives by environment. */
  private Map<String, String> environment(int port) {
    var settings = db.settings();
    Map<String, String> env = new HashMap<>(Map.of("PATH", tools.toString(),
        "PAYNOTIFY_DATABASE_HOST", settings.host(), "PAYNOTIFY_DATABASE_PORT", Integer.toString(settings.port()),
        "PAYNOTIFY_DATABASE_NAME", settings.name(), "PAYNOTIFY_DATABASE_USER", settings.user(),
        "PAYNOTIFY_DATABASE_PASSWORD", settings.password(),
        "PAYNOTIFY_EPAY_PID", EpayNotifications.PID, "PAYNOTIFY_EPAY_KEY", EpayNotifications.KEY));
    if (port > 0) {
      env.put("PAYNOTIFY_HTTP_PORT", Integer.toString(port));
      env.put("PAYNOTIFY_ADMIN_PORT", Integer.toString(port + 1));
    }
    return env;
  }

  private static String sha256(Path file) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
  }
}
