package paynotify.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import paynotify.testsupport.AlipayBillGenerator;
import paynotify.testsupport.Cli;
import paynotify.testsupport.DatabaseTestBase;

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
    installation = install(dir.resolve("opt/paynotify"));
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

  /** scripts/start.sh too: a relative --config is the caller's (here one with a bad key: exit 2 naming it). */
  @Test
  void startShReadsTheCallersRelativeConfig() throws Exception {
    Files.writeString(caller.resolve("mine.yaml"), "http:\n  port: eighty\n");
    Result start = script("start.sh", "--config", "mine.yaml");
    assertThat(start.exit()).as(start.err()).isEqualTo(2);
    assertThat(start.err().strip()).endsWith("paynotify: " + caller.toRealPath().resolve("mine.yaml")
        + ": http.port: 'eighty' is not a whole number");
  }

  private record Result(int exit, String out, String err) {}

  private Result paynotify(String... args) throws Exception {
    return script("paynotify", args);
  }

  /** A script of the installation, run in the caller's directory. */
  private Result script(String name, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(installation.resolve("scripts/" + name).toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).directory(caller.toFile())
        .redirectOutput(dir.resolve("out.txt").toFile()).redirectError(dir.resolve("err.txt").toFile());
    builder.environment().put("PATH", Path.of(System.getProperty("java.home"), "bin") + File.pathSeparator
        + System.getenv("PATH"));
    Process p = builder.start();
    assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
    return new Result(p.exitValue(), Files.readString(dir.resolve("out.txt")), Files.readString(dir.resolve("err.txt")));
  }

  /**
   * The layout the README says to copy to a server: scripts/, target/paynotify.jar (here: the
   * compiled classes) and target/lib/ (here: links to this JVM's jars).
   */
  private static Path install(Path home) throws IOException {
    Files.createDirectories(home.resolve("scripts"));
    for (String script : List.of("paynotify", "start.sh")) {
      Files.copy(Path.of("scripts", script), home.resolve("scripts/" + script));
    }
    Path lib = Files.createDirectories(home.resolve("target/lib"));
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      if (entry.endsWith(".jar")) {
        Path jar = Path.of(entry).toAbsolutePath();
        Files.createSymbolicLink(lib.resolve(jar.getFileName()), jar);
      }
    }
    Path classes = Path.of("target/classes");
    try (OutputStream file = Files.newOutputStream(home.resolve("target/paynotify.jar"));
        JarOutputStream jar = new JarOutputStream(file);
        Stream<Path> all = Files.walk(classes)) {
      for (Path c : (Iterable<Path>) all.filter(Files::isRegularFile)::iterator) {
        jar.putNextEntry(new JarEntry(classes.relativize(c).toString().replace(File.separatorChar, '/')));
        jar.write(Files.readAllBytes(c));
        jar.closeEntry();
      }
    }
    return home;
  }
}
