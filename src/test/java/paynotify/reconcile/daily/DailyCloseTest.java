package paynotify.reconcile.daily;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import paynotify.channel.Platform;
import paynotify.channel.PlatformTime;
import paynotify.cli.ExitCode;
import paynotify.config.AppConfig.DatabaseSettings;
import paynotify.config.AppConfig;
import paynotify.reconcile.BillArchive;
import paynotify.reconcile.Reconciliation;
import paynotify.reconcile.Report;
import paynotify.reconcile.daily.DailyClose.Closed;
import paynotify.testsupport.AlipayStandIn;
import paynotify.testsupport.Cli;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.LoopbackBillUrls;
import paynotify.testsupport.SampleBills;
import paynotify.testsupport.TestService;
import paynotify.testsupport.WechatV2StandIn;

/**
 * The daily close in the service: at the hour the configuration sets (a clock the test sets), yesterday's Alipay
 * bill (the stand-in serving the public sample) is fetched and reconciled by {@code paynotify reconcile} run as a
 * real process, with the findings of {@code reconcile --bill} on the same file; a bill not made yet is tried again,
 * then given up at noon; two instances close a day once; auto_repair books exactly what is safe, once.
 */
@ExtendWith(LoopbackBillUrls.class)
class DailyCloseTest extends DatabaseTestBase {
  static final LocalDate DAY = LocalDate.of(2026, 3, 14);
  static final JsonObject EXPECTED = SampleBills.ANSWER_KEY.getJsonArray("bills").getJsonObject(0)
      .getJsonObject("expect").getJsonObject("counts");

  @TempDir
  Path dir;
  AlipayStandIn alipay;
  Path bills;
  final List<TestService> services = new ArrayList<>();

  @BeforeEach
  void start() {
    SampleBills.loadLocalState();
    alipay = AlipayStandIn.start();
    alipay.bill(DAY, SampleBills.ALIPAY);
    bills = dir.resolve("bills");
  }

  @AfterEach
  void stop() {
    services.forEach(TestService::close);
    alipay.close();
  }

  /** A service started from a configuration file (the close runs its command with that file). */
  /** A service whose close is run here, at the times the test sets (its own timer stopped). */
  TestService service(String autoRepair) throws Exception {
    TestService service = service(autoRepair, "10:30");
    service.server().dailyClose().unschedule();
    return service;
  }

  TestService service(String autoRepair, String at) throws Exception {
    return service(autoRepair, at, new JsonObject());
  }

  TestService service(String autoRepair, String at, JsonObject more) throws Exception {
    return service(autoRepair, at, more, "alipay");
  }

  /** @param channel whose bill is closed: alipay, or wechat (v2 with its API key; {@code more} points it somewhere) */
  TestService service(String autoRepair, String at, JsonObject more, String channel) throws Exception {
    DatabaseSettings s = db.settings();
    JsonObject config = alipay.configure(TestService.configuration(more))
        .put("database", new JsonObject().put("host", s.host()).put("port", s.port()).put("name", s.name())
            .put("user", s.user()).put("password", s.password()))
        .put("reconcile", new JsonObject().put("bills_dir", bills.toString()).put("daily", new JsonObject()
            .put("enabled", true).put("at", at).put("channels", new JsonArray().add(channel))
            .put("auto_repair", autoRepair)));
    Path file = dir.resolve("application.yaml");
    Files.writeString(file, config.encodePrettily()); // JSON is YAML
    TestService service = TestService.start(s, file);
    services.add(service);
    return service;
  }

  static Instant beijing(LocalDate day, LocalTime time) {
    return LocalDateTime.of(day, time).atZone(PlatformTime.BEIJING).toInstant();
  }

  static List<Closed> run(TestService service, Instant now) {
    return service.server().dailyClose().runOnce(now).await();
  }

  @Test
  void atTheHourYesterdaysBillIsFetchedReconciledAndRecordedAsReconcileBillWould() throws Exception {
    TestService service = service("none");
    assertThat(run(service, beijing(DAY.plusDays(1), LocalTime.of(10, 29)))).isEmpty();
    assertThat(db.count("SELECT COUNT(*) FROM daily_closes")).isZero();

    List<Closed> closed = run(service, beijing(DAY.plusDays(1), LocalTime.of(10, 30)));

    assertThat(closed).hasSize(1);
    assertThat(closed.get(0).state()).as(closed.get(0).detail()).isEqualTo("done");
    assertThat(closed.get(0).detail()).isEqualTo(
        "43 payments 154239.18, 7 refunds 1112.59 · found 2 amount_mismatch, 2 missing_local, 2 missing_platform,"
            + " 1 order_paid_twice, 1 refund_missing_local");
    JsonObject summary = new JsonObject(db.string("SELECT summary FROM daily_closes WHERE channel = 'alipay'"
        + " AND bill_date = ?", DAY));
    assertThat(summary.getLong("payment_cents")).isEqualTo(15423918);
    // The findings of the bill given by hand (the answer key's, and the audit's double payment in its window)
    Cli.Result given = Cli.run("reconcile", "--channel", "alipay", "--bill", SampleBills.ALIPAY.toString(), "--json");
    JsonObject counts = new JsonObject(given.out()).getJsonObject("counts");
    assertThat(summary.getJsonObject("findings")).isEqualTo(counts);
    assertThat(counts.copy().put("order_paid_twice", null)).isEqualTo(EXPECTED.copy().put("order_paid_twice", null));
    long findings = counts.stream().mapToLong(e -> ((Number) e.getValue()).longValue()).sum();
    assertThat(db.count("SELECT COUNT(*) FROM anomalies WHERE dedupe_key LIKE 'recon:%'")).isEqualTo(findings);
    // The bill kept with its sum, the report beside it
    Path folder = bills.resolve("alipay");
    assertThat(folder.resolve(DAY + "_" + SampleBills.ALIPAY.getFileName())).exists();
    assertThat(folder.resolve(DAY + "_" + SampleBills.ALIPAY.getFileName() + ".sha256")).exists();
    assertThat(new JsonObject(Files.readString(folder.resolve(DAY + "_close.json"))).getJsonObject("counts"))
        .isEqualTo(counts);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(folder.resolve(DAY + "_close.json"))))
        .isEqualTo("rw-------");

    // Done: not run again that day, whatever the hour
    assertThat(run(service, beijing(DAY.plusDays(1), LocalTime.of(15, 0)))).isEmpty();
    assertThat(alipay.billDownloads()).isEqualTo(1);
  }

  /** The close the command runs, called in this JVM on connections of its own: the findings of reconcile --bill. */
  @Test
  void aDaysCloseRunsInProcessWithTheFindingsOfTheCommand() throws Exception {
    AppConfig config = AppConfig.from(alipay.configure(TestService.configuration(new JsonObject())), "test", Map.of());
    StringWriter json = new StringWriter();

    DayClose.Outcome outcome = new DayClose(Platform.ALIPAY, DAY).run(config.bills().sources().get(Platform.ALIPAY),
        new BillArchive(bills, 400), work -> {
          try (Connection conn = db.connect(); Connection bookings = db.connect(); Connection side = db.connect();
              Report report = new Report(new PrintWriter(json), true, null)) {
            return work.at(new DayClose.Desk(new Reconciliation(conn, bookings, side, config.orders()), report, null,
                rows -> { }));
          }
        });

    assertThat(outcome.stopped()).isNull();
    Cli.Result given = Cli.run("reconcile", "--channel", "alipay", "--bill", SampleBills.ALIPAY.toString(), "--json");
    JsonObject counts = new JsonObject(given.out()).getJsonObject("counts");
    assertThat(new JsonObject(json.toString()).getJsonObject("counts")).isEqualTo(counts);
    assertThat(outcome.findings()).isEqualTo(counts.stream().mapToLong(e -> ((Number) e.getValue()).longValue()).sum());
    assertThat(bills.resolve("alipay").resolve(DAY + "_" + SampleBills.ALIPAY.getFileName())).exists();
  }

  /** Issue 41: the day's summary says each time the database refused writes that day (Beijing time), and no other. */
  @Test
  void theDaysSummaryHasALineForEachTimeTheDatabaseRefusedWritesThatDay() throws Exception {
    String insert = "INSERT INTO write_refusals (started_at, ended_at, reason, refused, by_endpoint,"
        + " lost_orders, created_at) VALUES (?, ?, ?, ?, '{}', '[]', UTC_TIMESTAMP(3))";
    db.update(insert, "2026-03-14 04:00:03.250", "2026-03-14 04:00:41.900", "disk full (1114)", 37); // 12:00 Beijing
    db.update(insert, "2026-03-13 16:10:00", "2026-03-13 16:10:21", "read-only (1290)", 1); // 00:10 Beijing, the 14th
    db.update(insert, "2026-03-13 15:59:00", "2026-03-13 15:59:30", "disk full (1114)", 5); // the 13th, 23:59
    db.update(insert, "2026-03-14 16:00:01", "2026-03-14 16:00:30", "disk full (1114)", 6); // the 15th, 00:00
    TestService service = service("none");

    List<Closed> closed = run(service, beijing(DAY.plusDays(1), LocalTime.of(10, 30)));

    assertThat(closed).singleElement().satisfies(c -> assertThat(c.detail()).endsWith(" 1 refund_missing_local"
        + "\ndatabase refused writes 00:10:00-00:10:21 (read-only (1290)): 1 notification answered failure"
        + "\ndatabase refused writes 12:00:03-12:00:41 (disk full (1114)): 37 notifications answered failure"));
    JsonObject summary = new JsonObject(db.string("SELECT summary FROM daily_closes WHERE bill_date = ?", DAY));
    assertThat(summary.getJsonArray("write_refusals")).containsExactly(
        "database refused writes 00:10:00-00:10:21 (read-only (1290)): 1 notification answered failure",
        "database refused writes 12:00:03-12:00:41 (disk full (1114)): 37 notifications answered failure");
  }

  @Test
  void aBillNotMadeYetIsTriedAgainEveryQuarterHourThenGivenUpWhenATryPastNoonFails() throws Exception {
    TestService service = service("none");
    // the real yesterday, which the stand-in has no bill for: Alipay's "not made yet"
    LocalDate yesterday = LocalDate.now(PlatformTime.BEIJING).minusDays(1);
    LocalDate today = yesterday.plusDays(1);

    List<Closed> first = run(service, beijing(today, LocalTime.of(10, 31)));
    List<Closed> early = run(service, beijing(today, LocalTime.of(10, 40)));
    List<Closed> again = run(service, beijing(today, LocalTime.of(11, 50)));
    List<Closed> last = run(service, beijing(today, LocalTime.of(12, 5)));
    List<Closed> after = run(service, beijing(today, LocalTime.of(13, 0)));
    sameBeijingDay(today);

    assertThat(first).singleElement().satisfies(c -> {
      assertThat(c.state()).isEqualTo("pending");
      assertThat(c.detail()).startsWith("reconcile exited " + ExitCode.NOT_READY + ": ")
          .contains("has not made the bill of " + yesterday);
    });
    assertThat(early).as("not due again yet").isEmpty();
    assertThat(again).singleElement().satisfies(c -> assertThat(c.state()).isEqualTo("pending"));
    assertThat(last).singleElement().satisfies(c -> assertThat(c.state()).isEqualTo("failed"));
    assertThat(db.string("SELECT CONCAT(state, ' ', attempts) FROM daily_closes WHERE bill_date = ?", yesterday))
        .isEqualTo("failed 3");
    assertThat(after).as("given up").isEmpty();
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
  }

  /**
   * The command asks the stand-in with the real date: across Beijing's midnight yesterday's bill turns from "not
   * made yet" into "none kept", and what was asserted no longer says anything; the run does not count then.
   */
  static void sameBeijingDay(LocalDate today) {
    Assumptions.assumeTrue(LocalDate.now(PlatformTime.BEIJING).equals(today), "Beijing's midnight passed meanwhile");
  }

  @Test
  void theServiceLooksSoonAfterItStartsThenEveryMinute() throws Exception {
    LocalDate yesterday = LocalDate.now(PlatformTime.BEIJING).minusDays(1);
    service("none", "00:00"); // due since midnight: the real yesterday, which the stand-in has not made yet
    assertThat(db.countWithin(Duration.ofSeconds(30), 1, "SELECT COUNT(*) FROM daily_closes WHERE channel = 'alipay'"
        + " AND bill_date = ? AND attempts = 1 AND lease_owner IS NULL", yesterday)).isEqualTo(1);
    String detail = db.string("SELECT detail FROM daily_closes");
    sameBeijingDay(yesterday.plusDays(1));
    assertThat(detail).contains("has not made the bill of " + yesterday);
  }

  @Test
  void aCloseThatCannotStartIsATryThatFailedSayingWhyAndLeavesNoLease() throws Exception {
    Files.writeString(dir.resolve("a-file"), "");
    bills = dir.resolve("a-file").resolve("bills"); // no folder can be made there
    TestService service = service("none");

    List<Closed> closed = run(service, beijing(DAY.plusDays(1), LocalTime.of(10, 30)));

    assertThat(closed).singleElement().satisfies(c -> {
      assertThat(c.state()).isEqualTo("pending");
      assertThat(c.detail()).startsWith("not closed: java.nio.file.").contains("a-file");
    });
    assertThat(db.count("SELECT COUNT(*) FROM daily_closes WHERE lease_owner IS NULL AND attempts = 1")).isEqualTo(1);
    assertThat(alipay.billDownloads()).isZero();
  }

  @Test
  void aServiceDownOverMidnightClosesTheDaysItMissedTooOnce() throws Exception {
    db.update("INSERT INTO daily_closes (channel, bill_date, state, attempts, next_try_at, created_at)"
        + " VALUES ('alipay', ?, 'done', 1, NOW(), NOW())", DAY.minusDays(2)); // the last close before it went down
    TestService service = service("none");

    List<Closed> closed = run(service, beijing(DAY.plusDays(1), LocalTime.of(10, 30)));

    // the 13th: past its give-up time, one try (Alipay keeps no bill of it here); then the 14th, yesterday
    assertThat(closed).extracting(c -> c.day() + " " + c.state())
        .containsExactly(DAY.minusDays(1) + " failed", DAY + " done");
    assertThat(run(service, beijing(DAY.plusDays(1), LocalTime.of(11, 0)))).isEmpty();
  }

  @Test
  void twoInstancesAtTheSameMomentCloseTheDayOnce() throws Exception {
    TestService one = service("none");
    TestService two = service("none");
    Instant now = beijing(DAY.plusDays(1), LocalTime.of(10, 30));

    CompletableFuture<List<Closed>> a = CompletableFuture.supplyAsync(() -> run(one, now));
    CompletableFuture<List<Closed>> b = CompletableFuture.supplyAsync(() -> run(two, now));

    assertThat(a.get().size() + b.get().size()).isEqualTo(1);
    assertThat(alipay.billDownloads()).isEqualTo(1);
    assertThat(db.string("SELECT CONCAT(state, ' ', attempts) FROM daily_closes")).isEqualTo("done 1");
    // the other learns it is over and asks no more
    assertThat(run(one, now.plusSeconds(3600))).isEmpty();
    assertThat(run(two, now.plusSeconds(3600))).isEmpty();
  }

  @Test
  void autoRepairBooksTheLostPaymentWhoseOrderWaitsForExactlyItsAmountOnceAndLeavesTheRest() throws Exception {
    // of the bill's two payments not booked here, one's order now asks another amount: not safe to book
    db.update("UPDATE orders SET amount_cents = 3000 WHERE order_no = 'PN2026031461675221'");
    alipay.paid("PN2026031439096925", "2026031422001477480730061433", "349.11"); // its query confirms the trade
    alipay.paid("PN2026031461675221", "2026031422001464429660442145", "29.90");
    TestService service = service("missing_local");

    List<Closed> closed = run(service, beijing(DAY.plusDays(1), LocalTime.of(10, 30)));

    assertThat(closed).singleElement().satisfies(c -> {
      assertThat(c.state()).isEqualTo("done");
      assertThat(c.detail()).endsWith("(1 repaired: booked)");
    });
    assertThat(db.orderStatus("PN2026031439096925")).isEqualTo("paid");
    assertThat(db.payments("2026031422001477480730061433")).isEqualTo(1);
    assertThat(db.orderStatus("PN2026031461675221")).isEqualTo("unpaid");
    assertThat(db.payments("2026031422001464429660442145")).isZero();
    // the booked one is no anomaly; the other is, for a human; callbacks not arriving is said once
    assertThat(db.column("SELECT trade_no FROM anomalies WHERE kind = 'missing_local'"))
        .containsExactly("2026031422001464429660442145");
    assertThat(db.count("SELECT COUNT(*) FROM anomalies WHERE kind = 'callback_missing'")).isEqualTo(1);
    service.awaitLogRecorded();
    assertThat(db.string("SELECT CONCAT(channel, ' ', remote_addr, ' ', outcome) FROM notify_log WHERE idem_key = ?",
        "alipay:pay:2026031422001477480730061433")).isEqualTo("bill alipay bill " + DAY + " processed");

    // The same day repaired again by hand: nothing more is booked
    Cli.Result again = Cli.run(dir.resolve("application.yaml"), "reconcile", "--channel", "alipay", "--fetch",
        "--date", DAY.toString(), "--repair", "missing_local", "--json");
    assertThat(again.exit()).as(again.err()).isEqualTo(ExitCode.FOUND);
    assertThat(new JsonObject(again.out()).getLong("repaired")).isZero();
    assertThat(db.payments("2026031422001477480730061433")).isEqualTo(1);
  }

  @Test
  void aTradeTheBillAlsoRefundsOrThePlatformDoesNotConfirmIsLeftForAHuman() throws Exception {
    // the sample's refund of an older trade, made a refund of the first lost payment: paid, then paid back
    String detail = SampleBills.alipayDetail().replace("2026031322001473159473728941", "2026031422001477480730061433")
        .replace("PN2026031373383158", "PN2026031439096925");
    alipay.bill(DAY, SampleBills.alipayZip(dir.resolve("refunded").resolve(SampleBills.ALIPAY.getFileName()), detail,
        SampleBills.GBK));
    alipay.paid("PN2026031439096925", "2026031422001477480730061433", "349.11");
    // the second lost payment's order asks exactly its amount, but Alipay's query knows no such trade
    TestService service = service("missing_local");

    List<Closed> closed = run(service, beijing(DAY.plusDays(1), LocalTime.of(10, 30)));

    assertThat(closed).singleElement().satisfies(c -> {
      assertThat(c.state()).isEqualTo("done");
      assertThat(c.detail()).contains("2 missing_local").doesNotContain("repaired");
    });
    assertThat(db.orderStatus("PN2026031439096925")).isEqualTo("unpaid");
    assertThat(db.orderStatus("PN2026031461675221")).isEqualTo("unpaid");
    assertThat(db.count("SELECT COUNT(*) FROM payments WHERE trade_no IN (?, ?)", "2026031422001477480730061433",
        "2026031422001464429660442145")).isZero();
    assertThat(db.column("SELECT trade_no FROM anomalies WHERE kind = 'missing_local' ORDER BY trade_no"))
        .containsExactly("2026031422001464429660442145", "2026031422001477480730061433");
  }

  /**
   * M1: paid on day D, refunded in WeChat Pay's console the next morning before the close (no refund notification).
   * D's bill shows the payment only; WeChat's order query, asked though recovery is off, says REFUND: not booked,
   * one paid_then_refunded anomaly; the other lost payment, which WeChat confirms, is booked.
   */
  @Test
  void autoRepairBooksNothingWechatSaysWasRefundedSinceAndAsksWithRecoveryOff() throws Exception {
    try (WechatV2StandIn wechat = WechatV2StandIn.start()) {
      wechat.bill(DAY, Files.readAllBytes(SampleBills.WECHAT));
      wechat.paid("PN2026031442720378", "4200002527202603143277863127", "22577");
      wechat.refunded("PN2026031442720378");
      wechat.paid("PN2026031444322710", "4200002527202603145755199475", "15390");
      TestService service = service("missing_local", "10:30", wechat.configure(new JsonObject()), "wechat");
      service.server().dailyClose().unschedule();

      List<Closed> closed = run(service, beijing(DAY.plusDays(1), LocalTime.of(10, 30)));

      assertThat(closed).singleElement().satisfies(c -> {
        assertThat(c.state()).as(c.detail()).isEqualTo("done");
        assertThat(c.detail()).endsWith("(1 repaired: booked)");
      });
      assertThat(wechat.queries("PN2026031442720378")).isEqualTo(1);
      assertThat(db.orderStatus("PN2026031442720378")).isEqualTo("unpaid");
      assertThat(db.payments("4200002527202603143277863127")).isZero();
      assertThat(db.string("SELECT detail FROM anomalies WHERE kind = 'paid_then_refunded'"))
          .contains("4200002527202603143277863127").contains("check before delivering");
      assertThat(db.orderStatus("PN2026031444322710")).isEqualTo("paid");
    }
  }

  /** S1: a bill's payment made before its order was created (the number handed out again) is not booked. */
  @Test
  void autoRepairBooksNoPaymentMadeBeforeItsOrderExisted() throws Exception {
    alipay.paid("PN2026031439096925", "2026031422001477480730061433", "349.11");
    db.update("UPDATE orders SET created_at = NOW() WHERE order_no = 'PN2026031439096925'"); // after the bill's day
    TestService service = service("missing_local");

    List<Closed> closed = run(service, beijing(DAY.plusDays(1), LocalTime.of(10, 30)));

    assertThat(closed).singleElement().satisfies(c -> assertThat(c.detail()).doesNotContain("repaired"));
    assertThat(db.orderStatus("PN2026031439096925")).isEqualTo("unpaid");
    assertThat(db.payments("2026031422001477480730061433")).isZero();
    assertThat(db.string("SELECT detail FROM anomalies WHERE kind = 'paid_before_order'"))
        .contains("2026031422001477480730061433").contains("2026-03-14");
  }

  @Test
  void withAnOrderNumberTemplateANumberNotWrittenSoIsAnotherSitesAndNotRepaired() throws Exception {
    alipay.paid("PN2026031439096925", "2026031422001477480730061433", "349.11");
    TestService service = service("missing_local", "10:30", new JsonObject().put("orders", new JsonObject()
        .put("out_trade_no", "{order_no}-shop1"))); // the bill's PN... numbers lack the suffix
    service.server().dailyClose().unschedule();

    List<Closed> closed = run(service, beijing(DAY.plusDays(1), LocalTime.of(10, 30)));

    assertThat(closed).singleElement().satisfies(c -> assertThat(c.detail()).doesNotContain("repaired"));
    assertThat(db.orderStatus("PN2026031439096925")).isEqualTo("unpaid");
    assertThat(db.count("SELECT COUNT(*) FROM anomalies WHERE kind = 'missing_local'")).isEqualTo(2);
  }

  @Test
  void aBillFileGivenByHandIsNeverRepairedFrom() {
    Cli.Result r = Cli.run("reconcile", "--channel", "alipay", "--bill", SampleBills.ALIPAY.toString(),
        "--repair", "missing_local");
    assertThat(r.exit()).isEqualTo(ExitCode.UNUSABLE);
    assertThat(r.err()).contains("only from a bill fetched from the platform");
    assertThat(db.orderStatus("PN2026031439096925")).isEqualTo("unpaid");
  }
}
