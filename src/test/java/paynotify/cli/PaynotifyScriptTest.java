package paynotify.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import paynotify.testsupport.AlipayBillGenerator;
import paynotify.testsupport.Cli;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.Http;
import paynotify.testsupport.Installation;
import paynotify.testsupport.ServiceProcess;
import paynotify.testsupport.TestDatabase;
import paynotify.testsupport.TestService;

/**
 * scripts/paynotify and scripts/start.sh as an operator runs them: from their own directory, with
 * paths relative to it, while the script works in its installation (where conf/ and target/ are).
 */
class PaynotifyScriptTest extends DatabaseTestBase {
  @TempDir
  Path dir;

  private Path installation;
  private Path caller;

  @BeforeEach
  void installAndBookADay() throws Exception {
    installation = Installation.install(dir.resolve("opt/paynotify"));
    Files.createDirectories(installation.resolve("conf"));
    Files.copy(Cli.config(), installation.resolve("conf/application.yaml"));
    caller = Files.createDirectories(dir.resolve("home/operator"));
    AlipayBillGenerator.write(caller.resolve("bills/day.csv.zip"), 10, row -> db.update("INSERT INTO payments"
        + " (channel, trade_no, order_no, amount_cents, paid_at) VALUES ('alipay', ?, ?, ?, ?)", row.tradeNo(),
        row.orderNo(), row.amountCents(), row.paidAt()));
  }

  @Test
  void relativeBillAndConfigAreTheCallersWhileTheDefaultConfigIsTheInstallations() throws Exception {
    Result withDefaultConfig = paynotify("reconcile", "--channel", "alipay", "--bill", "bills/day.csv.zip");
    assertThat(withDefaultConfig.exit()).as(withDefaultConfig.err()).isZero();
    assertThat(withDefaultConfig.out()).contains(caller.toRealPath().resolve("bills/day.csv.zip").toString())
        .endsWith("nothing found\n");

    Files.copy(Cli.config(), caller.resolve("mine.yaml"));
    Files.delete(installation.resolve("conf/application.yaml"));
    Result withOwnConfig = paynotify("reconcile", "--channel", "alipay", "--bill", "./bills/day.csv.zip",
        "--config", "mine.yaml");
    assertThat(withOwnConfig.exit()).as(withOwnConfig.err()).isZero();
  }

  /**
   * Security review N13: root running a tool against what belongs to the service's user (its data directory, where
   * reconcile.bills_dir is; the configuration) is refused, exit 2, saying how to run it; against root's own it
   * runs. A tool run by root would follow links that user can plant, and leave files that user cannot read.
   */
  @Test
  void rootIsRefusedTheServiceUsersDataAndConfigurationAndRunsOnItsOwn() throws Exception {
    Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "only root can run as root");
    UserPrincipal nobody = dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
    UserPrincipal root = Files.getOwner(installation);
    Path data = Files.createDirectories(installation.resolve("data"));
    Files.setOwner(data, nobody);
    Result refused = paynotify("status");
    assertThat(refused.exit()).as(refused.err()).isEqualTo(ExitCode.UNUSABLE);
    assertThat(refused.err().strip()).isEqualTo("paynotify: conf/application.yaml: reconcile.bills_dir: "
        + data.toRealPath() + " belongs to nobody, and this tool runs as root: run the"
        + " tools as the service's user, sudo -u nobody paynotify ...");
    assertThat(refused.out()).isEmpty();

    Files.setOwner(data, root);
    Files.setOwner(installation.resolve("conf/application.yaml"), nobody);
    Result config = paynotify("status");
    assertThat(config.exit()).isEqualTo(ExitCode.UNUSABLE);
    assertThat(config.err().strip()).endsWith(": --config: " + installation.toRealPath().resolve("conf/application.yaml")
        + " belongs to nobody, and this tool runs as root: run the tools as the service's user, sudo -u nobody"
        + " paynotify ...");

    Files.setOwner(installation.resolve("conf/application.yaml"), root);
    Result allowed = paynotify("status");
    assertThat(allowed.exit()).as(allowed.err()).isIn(0, ExitCode.FOUND);
    assertThat(allowed.err()).doesNotContain("sudo -u");
  }

  /** scripts/start.sh too: a relative --config is the caller's (here one with a bad key: exit 2 naming it). */
  @Test
  void startShReadsTheCallersRelativeConfig() throws Exception {
    Files.writeString(caller.resolve("mine.yaml"), "http:\n  port: eighty\n");
    Result start = script("start.sh", "--config", "mine.yaml");
    assertThat(start.exit()).as(start.err()).isEqualTo(2);
    assertThat(start.err().strip()).endsWith("paynotify: " + caller.toRealPath().resolve("mine.yaml")
        + ": http.port: 'eighty' is not a whole number");
  }

  /**
   * start.sh runs the JVM with -XX:+ExitOnOutOfMemoryError whatever JAVA_OPTS says: out of memory, the
   * service exits (code 3, and systemd starts it again) instead of keeping its port open with dead
   * threads behind it. Here a 40 MB heap meets 64 notifications of 1 MiB whose last byte never comes.
   */
  @Test
  void startShExitsWhenTheHeapRunsOut() throws Exception {
    int port = ServiceProcess.freePort();
    var db = TestDatabase.get().settings();
    Files.writeString(caller.resolve("small.yaml"), TestService.configuration(new JsonObject() // YAML reads JSON
        .put("http", new JsonObject().put("port", port).put("max_body_bytes", 1024 * 1024))
        .put("database", new JsonObject().put("host", db.host()).put("port", db.port()).put("name", db.name())
            .put("user", db.user()).put("password", db.password()))).encodePrettily());
    Process service = launch("start.sh", Map.of("JAVA_OPTS", "-Xmx40m -XX:+UseSerialGC"), "--config", "small.yaml");
    List<Socket> notifications = new ArrayList<>();
    try {
      awaitHealth(service, port, dir.resolve("out.txt"));
      byte[] body = new byte[1024 * 1024 - 1];
      for (int i = 0; i < 64 && service.isAlive(); i++) {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), port);
        notifications.add(s);
        try {
          s.getOutputStream().write(("POST /notify/alipay HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type:"
              + " application/x-www-form-urlencoded\r\nContent-Length: " + (body.length + 1) + "\r\n\r\n")
              .getBytes(StandardCharsets.ISO_8859_1));
          s.getOutputStream().write(body);
        } catch (IOException gone) {
          break; // the service ended meanwhile
        }
      }
      assertThat(service.waitFor(60, TimeUnit.SECONDS)).as("the service exited; its log:%n%s",
          Files.readString(dir.resolve("out.txt"))).isTrue();
      assertThat(service.exitValue()).isEqualTo(3);
      assertThat(Files.readString(dir.resolve("out.txt"))).contains("Terminating due to java.lang.OutOfMemoryError");
    } finally {
      service.destroyForcibly();
      for (Socket s : notifications) {
        s.close();
      }
    }
  }

  private static void awaitHealth(Process service, int port, Path log) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      assertThat(service.isAlive()).as("the service is running; its log:%n%s", Files.readString(log)).isTrue();
      try {
        if (Http.get(port, "/health").status() == 200) {
          return;
        }
      } catch (IOException notYet) {
        // still starting
      }
      Thread.sleep(100);
    }
    throw new AssertionError("/health did not answer 200 within 60 s; log:\n" + Files.readString(log));
  }

  private record Result(int exit, String out, String err) {}

  private Result paynotify(String... args) throws Exception {
    return script("paynotify", args);
  }

  /** A script of the installation, run in the caller's directory. */
  private Result script(String name, String... args) throws Exception {
    Process p = launch(name, Map.of(), args);
    assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
    return new Result(p.exitValue(), Files.readString(dir.resolve("out.txt")), Files.readString(dir.resolve("err.txt")));
  }

  /** A script of the installation, started in the caller's directory with {@code env} added; its output in dir. */
  private Process launch(String name, Map<String, String> env, String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of(installation.resolve("scripts/" + name).toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).directory(caller.toFile())
        .redirectOutput(dir.resolve("out.txt").toFile()).redirectError(dir.resolve("err.txt").toFile());
    builder.environment().put("PATH", Installation.path());
    builder.environment().putAll(env);
    return builder.start();
  }
}
