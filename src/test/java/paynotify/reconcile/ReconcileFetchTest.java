package paynotify.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import paynotify.channel.PlatformTime;
import paynotify.cli.ExitCode;
import paynotify.testsupport.AlipayStandIn;
import paynotify.testsupport.Cli;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.LoopbackBillUrls;
import paynotify.testsupport.SampleBills;
import paynotify.testsupport.TestService;
import paynotify.testsupport.WechatV2StandIn;
import paynotify.testsupport.WechatV3StandIn;

/**
 * {@code reconcile --fetch}: the day's bill asked of the platform (Alipay's stand-in serving the sample bill),
 * kept with its SHA-256, and reconciled exactly as {@code --bill} reconciles the same file.
 */
@ExtendWith(LoopbackBillUrls.class)
class ReconcileFetchTest extends DatabaseTestBase {
  static final LocalDate DAY = LocalDate.of(2026, 3, 14);

  @TempDir
  Path bills;
  AlipayStandIn alipay;
  String yaml;

  @BeforeEach
  void start() {
    SampleBills.loadLocalState();
    alipay = AlipayStandIn.start();
    alipay.bill(DAY, SampleBills.ALIPAY);
    yaml = "alipay: " + alipay.configure(TestService.configuration(new JsonObject())).getJsonObject("alipay").encode()
        + "\nreconcile: {bills_dir: \"" + bills + "\"}\n";
  }

  @AfterEach
  void stop() {
    alipay.close();
  }

  /** The report without the bill's name: the only line that may differ between --fetch and --bill. */
  static JsonObject findings(String out) {
    JsonObject report = new JsonObject(out);
    report.remove("bill");
    return report;
  }

  @Test
  void aFetchedBillIsKeptAndReconciledAsTheSameFileGivenWithBill() throws Exception {
    Cli.Result fetched = Cli.runConfigured(yaml, "reconcile", "--channel", "alipay", "--fetch", "--date",
        DAY.toString(), "--json");
    assertThat(fetched.exit()).as(fetched.err()).isEqualTo(ExitCode.FOUND);

    Path kept = bills.resolve("alipay").resolve(DAY + "_" + SampleBills.ALIPAY.getFileName());
    assertThat(Files.readAllBytes(kept)).isEqualTo(Files.readAllBytes(SampleBills.ALIPAY));
    assertThat(Files.readString(kept.resolveSibling(kept.getFileName() + ".sha256")))
        .isEqualTo(BillArchive.sha256(Files.readAllBytes(SampleBills.ALIPAY)) + "  " + kept.getFileName() + "\n");

    Cli.Result given = Cli.runConfigured(yaml, "reconcile", "--channel", "alipay", "--bill",
        SampleBills.ALIPAY.toString(), "--json");
    assertThat(given.exit()).isEqualTo(ExitCode.FOUND);
    assertThat(findings(fetched.out())).isEqualTo(findings(given.out()));
    assertThat(findings(fetched.out()).getJsonArray("findings")).isNotEmpty();
  }

  @Test
  void weChatsBillFetchedThroughV2OrV3ReconcilesAsTheDownloadedFile() throws Exception {
    byte[] csv = Files.readAllBytes(SampleBills.WECHAT);
    Cli.Result given = Cli.run("reconcile", "--channel", "wechat", "--bill", SampleBills.WECHAT.toString(), "--json");
    assertThat(given.exit()).as(given.err()).isEqualTo(ExitCode.FOUND);
    try (WechatV2StandIn v2 = WechatV2StandIn.start(); WechatV3StandIn v3 = WechatV3StandIn.start()) {
      v2.bill(DAY, csv);
      v3.bill(DAY, csv);
      JsonObject config = TestService.configuration(new JsonObject());
      String v2Yaml = "wechat_v2: " + v2.configure(config.copy()).getJsonObject("wechat_v2").encode()
          + "\nreconcile: {bills_dir: \"" + bills + "\"}\n";
      String v3Yaml = "wechat_v3: " + v3.configure(config.copy()).getJsonObject("wechat_v3").encode()
          + "\nreconcile: {bills_dir: \"" + bills + "\"}\n";
      for (String yaml : new String[] {v2Yaml, v3Yaml}) {
        Cli.Result fetched = Cli.runConfigured(yaml, "reconcile", "--channel", "wechat", "--fetch", "--date",
            DAY.toString(), "--json");
        assertThat(fetched.exit()).as(fetched.err()).isEqualTo(ExitCode.FOUND);
        assertThat(findings(fetched.out())).isEqualTo(findings(given.out()));
      }
      // a day WeChat says had no trades reconciles as an empty bill: what was booked here that day is reported
      Cli.Result none = Cli.runConfigured(v2Yaml, "reconcile", "--channel", "wechat", "--fetch", "--date",
          DAY.toString().replace("14", "13"), "--json");
      assertThat(none.exit()).as(none.err()).isIn(0, ExitCode.FOUND);
      assertThat(new JsonObject(none.out()).getJsonObject("read").getLong("payment_rows")).isZero();
    }
  }

  @Test
  void aBillNotMadeYetIsExitFourSayingWhenToTryAgainAndTodaysIsNoBillYet() {
    LocalDate today = LocalDate.now(PlatformTime.BEIJING);
    Cli.Result early = Cli.runConfigured(yaml, "reconcile", "--channel", "alipay", "--fetch", "--date",
        today.minusDays(1).toString());
    assertThat(early.exit()).isEqualTo(ExitCode.NOT_READY);
    assertThat(early.err()).contains("ready after about 10:00").contains(today.toString());
    Cli.Result todays = Cli.runConfigured(yaml, "reconcile", "--channel", "alipay", "--fetch", "--date",
        today.toString());
    assertThat(todays.exit()).isEqualTo(ExitCode.UNUSABLE);
    assertThat(todays.err()).contains("once the day is over");
  }

  @Test
  void aBillOfAnotherDayThanTheOneAskedForIsNotReconciled() {
    alipay.bill(DAY.plusDays(1), SampleBills.ALIPAY); // Alipay serving the 14th's zip as the 15th's
    Cli.Result r = Cli.runConfigured(yaml, "reconcile", "--channel", "alipay", "--fetch", "--date",
        DAY.plusDays(1).toString(), "--record");
    assertThat(r.exit()).isEqualTo(ExitCode.UNUSABLE);
    assertThat(r.err()).contains("not the day asked for (2026-03-15)");
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
  }

  @Test
  void fetchAndBillTogetherOrNeitherAndNoKeyAreRefusedSayingWhy() {
    assertThat(Cli.runConfigured(yaml, "reconcile", "--channel", "alipay").exit()).isEqualTo(ExitCode.UNUSABLE);
    assertThat(Cli.runConfigured(yaml, "reconcile", "--channel", "alipay", "--fetch", "--bill",
        SampleBills.ALIPAY.toString()).exit()).isEqualTo(ExitCode.UNUSABLE);
    Cli.Result noKey = Cli.run("reconcile", "--channel", "alipay", "--fetch", "--date", DAY.toString());
    assertThat(noKey.exit()).isEqualTo(ExitCode.UNUSABLE);
    assertThat(noKey.err()).contains("alipay.app_private_key_file");
  }

  @Test
  void billsPastTheRetentionGoWhenANewOneIsKept() throws Exception {
    BillArchive archive = new BillArchive(bills, 400);
    Path old = archive.keep("alipay", DAY.minusDays(401), "old.csv.zip", new byte[] {1});
    Path recent = archive.keep("alipay", DAY.minusDays(30), "recent.csv.zip", new byte[] {2});
    archive.keep("alipay", DAY, "new.csv.zip", new byte[] {3});
    assertThat(old).doesNotExist();
    assertThat(old.resolveSibling(old.getFileName() + ".sha256")).doesNotExist();
    assertThat(recent).exists();
  }
}
