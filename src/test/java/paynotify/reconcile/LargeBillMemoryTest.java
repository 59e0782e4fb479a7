package paynotify.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import paynotify.cli.ExitCode;
import paynotify.testsupport.AlipayBillGenerator;
import paynotify.testsupport.Cli;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.SampleBills;
import paynotify.testsupport.TestService;
import paynotify.testsupport.WechatV2StandIn;

/**
 * Memory does not grow with the bill: 200,000 rows (and as many findings) in a JVM held to 64 MB; and a crafted
 * zip that unpacks to far more is refused before it takes that memory.
 */
class LargeBillMemoryTest extends DatabaseTestBase {
  @TempDir
  Path dir;
  Path out;
  Path err;

  @BeforeEach
  void outputs() {
    out = dir.resolve("report.txt");
    err = dir.resolve("err.txt");
  }

  @Test
  void twoHundredThousandRowsFitInSixtyFourMegabytes() throws Exception {
    Path bill = AlipayBillGenerator.write(dir.resolve("big.csv.zip"), 200_000, row -> { });
    Process p = reconcile(bill);
    assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();

    assertThat(Files.readString(err)).doesNotContain("OutOfMemoryError");
    assertThat(p.exitValue()).isEqualTo(1); // every payment is missing here: 200,000 findings, streamed out
    List<String> lines = Files.readAllLines(out);
    assertThat(lines.get(0)).contains("200000 payments");
    assertThat(lines.stream().filter(l -> l.startsWith("missing_local"))).hasSize(200_000);
    assertThat(lines).contains("  200000 missing_local: paid on the platform, not booked here (a lost notification);"
        + " book it: scripts/paynotify repair book --channel <channel> --bill <bill> --trade-no <trade_no>");
  }

  /** A zip of 256 KiB whose detail opens with 256 MiB of comment lines: refused at once, not out of memory. */
  @Test
  void aZipBombIsRefusedQuicklyWithAMessage() throws Exception {
    Path bomb = SampleBills.alipayZipWithComments(dir.resolve("bomb.csv.zip"), 256L << 20);
    long start = System.nanoTime();
    Process p = reconcile(bomb);
    assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();

    assertThat(Files.readString(err)).doesNotContain("OutOfMemoryError").contains("bomb.csv.zip").contains("1 MiB");
    assertThat(p.exitValue()).isEqualTo(ExitCode.UNUSABLE);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
  }

  /**
   * WeChat Pay v2's bill comes whole (gzipped) and is held in memory up to the unpack bound, 24 MiB: fetched and
   * reconciled in the tools' heap (128 MiB, as the daily close gives its command), the bill held once, not also
   * decoded whole into text (twice its size again).
   */
  @Test
  void aWechatV2BillAtTheUnpackBoundIsFetchedInTheToolsHeap() throws Exception {
    LocalDate day = LocalDate.of(2026, 3, 14);
    try (WechatV2StandIn v2 = WechatV2StandIn.start()) {
      v2.bill(day, SampleBills.wechatOfSize(23L << 20));
      String yaml = "wechat_v2: " + v2.configure(TestService.configuration(new JsonObject())).getJsonObject("wechat_v2")
          .encode() + "\nreconcile: {bills_dir: \"" + dir.resolve("bills") + "\"}\n";
      Process p = run(128, Cli.config(yaml), "reconcile", "--channel", "wechat", "--fetch", "--date", day.toString());
      assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();

      assertThat(Files.readString(err)).doesNotContain("OutOfMemoryError");
      assertThat(p.exitValue()).as(Files.readString(err)).isEqualTo(ExitCode.FOUND);
      assertThat(Files.readAllLines(out).get(0)).contains("payments");
    }
  }

  /** {@code paynotify reconcile --bill} in a JVM of its own, held to 64 MB. */
  private Process reconcile(Path bill) throws Exception {
    return run(64, Cli.config(), "reconcile", "--channel", "alipay", "--bill", bill.toString());
  }

  /** {@code paynotify <args> --config <config>} in a JVM of its own, its heap held to {@code megabytes}. */
  private Process run(int megabytes, Path config, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx" + megabytes + "m", "-cp", System.getProperty("java.class.path"), "paynotify.cli.Main"));
    command.addAll(List.of(args));
    command.addAll(List.of("--config", config.toString()));
    return new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
  }
}
