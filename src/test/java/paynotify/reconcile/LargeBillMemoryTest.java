package paynotify.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import paynotify.testsupport.AlipayBillGenerator;
import paynotify.testsupport.Cli;
import paynotify.testsupport.DatabaseTestBase;

/** Memory does not grow with the bill: 200,000 rows (and as many findings) in a JVM held to 64 MB. */
class LargeBillMemoryTest extends DatabaseTestBase {
  @TempDir
  Path dir;

  @Test
  void twoHundredThousandRowsFitInSixtyFourMegabytes() throws Exception {
    Path bill = AlipayBillGenerator.write(dir.resolve("big.csv.zip"), 200_000, row -> { });
    Path out = dir.resolve("report.txt");
    Path err = dir.resolve("err.txt");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p = new ProcessBuilder(List.of(java, "-Xmx64m", "-cp", System.getProperty("java.class.path"),
        "paynotify.cli.Main", "reconcile", "--channel", "alipay", "--bill", bill.toString(),
        "--config", Cli.config().toString()))
        .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();

    assertThat(Files.readString(err)).doesNotContain("OutOfMemoryError");
    assertThat(p.exitValue()).isEqualTo(1); // every payment is missing here: 200,000 findings, streamed out
    List<String> lines = Files.readAllLines(out);
    assertThat(lines.get(0)).contains("200000 payments");
    assertThat(lines.stream().filter(l -> l.startsWith("missing_local"))).hasSize(200_000);
    assertThat(lines).contains("  200000 missing_local: paid on the platform, not booked here (a lost notification);"
        + " book it: scripts/paynotify repair book --channel <channel> --bill <bill> --trade-no <trade_no>");
  }
}
