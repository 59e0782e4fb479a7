package paynotify.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import paynotify.testsupport.AlipayBillGenerator;
import paynotify.testsupport.Cli;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.SampleBills;

/** `paynotify reconcile` on the sample bills: exactly the answer key, nothing missed, nothing extra. */
class ReconcileCommandTest extends DatabaseTestBase {
  private static final Set<String> BILL_KINDS = Set.of("missing_local", "missing_platform", "amount_mismatch",
      "refund_missing_local", "refund_missing_platform", "refund_amount_mismatch");
  private static final Set<String> REFUND_KINDS =
      Set.of("refund_missing_local", "refund_missing_platform", "refund_amount_mismatch");

  @TempDir
  Path dir;

  @BeforeEach
  void loadTheSampleState() {
    SampleBills.loadLocalState();
  }

  static Stream<JsonObject> bills() {
    return SampleBills.ANSWER_KEY.getJsonArray("bills").stream().map(JsonObject.class::cast);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("bills")
  void findingsAreExactlyTheAnswerKey(JsonObject bill) {
    Cli.Result r = Cli.run("reconcile", "--channel", bill.getString("channel"),
        "--bill", SampleBills.DIR.resolve(bill.getString("file")).toString(), "--json");
    assertThat(r.exit()).as(r.err()).isEqualTo(1);
    JsonObject report = new JsonObject(r.out());
    JsonObject parse = bill.getJsonObject("parse");
    assertThat(report.getJsonObject("read").getLong("payment_rows")).isEqualTo(parse.getLong("trade_rows"));
    assertThat(report.getJsonObject("read").getLong("refund_rows")).isEqualTo(parse.getLong("refund_rows"));
    assertThat(report.getJsonObject("read").getLong("payment_cents")).isEqualTo(parse.getLong("trade_amount_cents"));
    assertThat(report.getJsonObject("read").getLong("refund_cents")).isEqualTo(parse.getLong("refund_amount_cents"));
    assertThat(report.getJsonObject("window")).isEqualTo(bill.getJsonObject("window"));

    Map<String, List<JsonObject>> found = byKind(report);
    JsonObject expect = bill.getJsonObject("expect");
    assertThat(found.keySet().stream().filter(BILL_KINDS::contains)).containsExactlyInAnyOrderElementsOf(
        expect.getJsonObject("counts").fieldNames());
    assertThat(keys(found, "missing_local", "trade_no", "order_no", "amount_cents", "paid_at", "order_known"))
        .isEqualTo(keys(expect, "missing_local", "trade_no", "order_no", "amount_cents", "paid_at", "order_known"));
    assertThat(keys(found, "missing_platform", "trade_no", "order_no", "amount_cents", "paid_at"))
        .isEqualTo(keys(expect, "missing_platform", "trade_no", "order_no", "amount_cents", "paid_at"));
    assertThat(keys(found, "amount_mismatch", "trade_no", "order_no", "platform_cents", "local_cents"))
        .isEqualTo(keys(expect, "amount_mismatch", "trade_no", "order_no", "platform_cents", "local_cents"));
    assertThat(keys(found, "refund_missing_local", "refund_no", "trade_no", "order_no", "amount_cents"))
        .isEqualTo(keys(expect, "refund_missing_local", "refund_no", "trade_no", "order_no", "amount_cents"));
    // The duplicate audit rides along for the bill's channel: its order paid twice, no trade booked twice.
    assertThat(found.getOrDefault("order_paid_twice", List.of()).stream().map(f -> f.getString("order_no")))
        .containsExactlyInAnyOrderElementsOf(auditOrders(bill.getString("channel")));
    assertThat(found).doesNotContainKey("duplicate_trade");
  }

  // Review S2: with orders.out_trade_no set, a bill's number not written with it is no order of the site's,
  // though an order of that bare number exists.
  @Test
  void withAnOrderNumberTemplateABareNumberIsNoKnownOrder() {
    Cli.Result bare = Cli.run("reconcile", "--channel", "alipay", "--bill", SampleBills.ALIPAY.toString(), "--json");
    assertThat(byKind(new JsonObject(bare.out())).get("missing_local")).anyMatch(f -> f.getBoolean("order_known"));
    Cli.Result templated = Cli.runConfigured("orders:\n  out_trade_no: \"{order_no}-shop1\"\n", "reconcile",
        "--channel", "alipay", "--bill", SampleBills.ALIPAY.toString(), "--json");
    assertThat(byKind(new JsonObject(templated.out())).get("missing_local")).isNotEmpty()
        .noneMatch(f -> f.getBoolean("order_known"));
  }

  @Test
  void paymentsOfTheDayBeforeAndOfTheOtherChannelAreNeverReported() {
    Cli.Result r = Cli.run("reconcile", "--channel", "alipay", "--bill", SampleBills.ALIPAY.toString(), "--json");
    Set<String> paymentKinds = Set.of("missing_local", "missing_platform", "amount_mismatch");
    String everything = byKind(new JsonObject(r.out())).entrySet().stream()
        .filter(e -> paymentKinds.contains(e.getKey())).map(e -> e.getValue().toString()).collect(Collectors.joining());
    List<String> otherDays = db.column("SELECT trade_no FROM payments WHERE paid_at < '2026-03-14'");
    List<String> wechat = db.column("SELECT trade_no FROM payments WHERE channel = 'wechat'");
    assertThat(otherDays).isNotEmpty();
    assertThat(wechat).isNotEmpty();
    assertThat(Stream.concat(otherDays.stream(), wechat.stream())).noneMatch(everything::contains);
  }

  @Test
  void recordingTheSameBillTwiceAddsNothing() {
    Cli.Result first = Cli.run("reconcile", "--channel", "wechat", "--bill", SampleBills.WECHAT.toString(), "--record");
    assertThat(first.exit()).isEqualTo(1);
    long recorded = db.count("SELECT COUNT(*) FROM anomalies");
    assertThat(recorded).isEqualTo(5 + 1); // the bill's 5 findings and its order paid twice
    assertThat(first.out()).contains("recorded as anomalies");

    assertThat(Cli.run("reconcile", "--channel", "wechat", "--bill", SampleBills.WECHAT.toString(), "--record")
        .exit()).isEqualTo(1);
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isEqualTo(recorded);
  }

  @Test
  void aBillThatMatchesTheBookingsExitsZero() throws Exception {
    db.reset(); // not the sample state: only this bill's payments
    Path bill = AlipayBillGenerator.write(dir.resolve("clean.csv.zip"), 500,
        row -> payment("alipay", row.tradeNo(), row.orderNo(), row.amountCents(), row.paidAt()));
    Cli.Result r = Cli.run("reconcile", "--channel", "alipay", "--bill", bill.toString());
    assertThat(r.exit()).as(r.out() + r.err()).isZero();
    assertThat(r.out()).contains("500 payments").endsWith("nothing found\n");
  }

  @Test
  void tradesBookedOutsideTheWindowOrOnAnotherChannelAreMatchedByTrade() throws Exception {
    db.reset(); // not the sample state: only this bill's payments
    // Every other row booked the day after (a clock or zone off by a day: outside the bill's window,
    // looked up by trade, in more than one batch), two amounts off (one in the window, one not),
    // one not booked, one booked on the other channel only, and one booking on no bill.
    Path bill = AlipayBillGenerator.write(dir.resolve("day.csv.zip"), 2_500, row -> {
      int i = Integer.parseInt(row.orderNo().substring(3));
      if (i == 10) {
        return;
      }
      String paidAt = i % 2 == 0 ? row.paidAt().replace("2026-03-14", "2026-03-15") : row.paidAt();
      long cents = row.amountCents() + (i == 7 || i == 8 ? 1 : 0);
      payment(i == 13 ? "wechat" : "alipay", row.tradeNo(), row.orderNo(), cents, paidAt);
    });
    payment("alipay", "2026031422009999999999999999", "NOT-ON-THE-BILL", 500, "2026-03-14 08:00:00");

    Map<String, List<JsonObject>> found = byKind(new JsonObject(Cli.run("reconcile", "--channel", "alipay",
        "--bill", bill.toString(), "--json").out()));
    assertThat(found.keySet()).containsExactlyInAnyOrder("missing_local", "amount_mismatch", "missing_platform");
    assertThat(found.get("missing_local").stream().map(f -> f.getString("trade_no")))
        .containsExactlyInAnyOrder(AlipayBillGenerator.tradeNo(10), AlipayBillGenerator.tradeNo(13));
    assertThat(found.get("amount_mismatch").stream().map(f -> f.getString("trade_no") + " " + f.getLong("local_cents")))
        .containsExactlyInAnyOrder(AlipayBillGenerator.tradeNo(7) + " " + (AlipayBillGenerator.amountCents(7) + 1),
            AlipayBillGenerator.tradeNo(8) + " " + (AlipayBillGenerator.amountCents(8) + 1));
    assertThat(found.get("missing_platform").stream().map(f -> f.getString("trade_no")))
        .containsExactly("2026031422009999999999999999");
  }

  @Test
  void unusableBillsExitTwoWithOneLineAndChangeNothing() throws Exception {
    String detail = SampleBills.alipayDetail();
    byte[] zip = Files.readAllBytes(SampleBills.ALIPAY);
    Map<String, Path> bad = new HashMap<>();
    bad.put("cut-zip", Files.write(dir.resolve("cut.csv.zip"), Arrays.copyOf(zip, zip.length / 2)));
    byte[] garbled = zip.clone();
    for (int i = 200; i < 260; i++) {
      garbled[i] ^= 0x5A;
    }
    bad.put("garbled-zip", Files.write(dir.resolve("garbled.csv.zip"), garbled));
    bad.put("utf8", SampleBills.alipayZip(dir.resolve("utf8.csv.zip"), detail, StandardCharsets.UTF_8));
    bad.put("wechat-as-alipay", SampleBills.WECHAT);
    bad.put("truncated", SampleBills.alipayZip(dir.resolve("truncated.csv.zip"),
        detail.substring(0, detail.indexOf("#-----------------------------------------业务明细列表结束")), SampleBills.GBK));
    bad.put("negative", SampleBills.alipayZip(dir.resolve("neg.csv.zip"),
        SampleBills.alipayDetailWithNegativePayment().getKey(), SampleBills.GBK));
    long anomalies = db.count("SELECT COUNT(*) FROM anomalies");
    long payments = db.count("SELECT COUNT(*) FROM payments");
    for (Map.Entry<String, Path> b : bad.entrySet()) {
      Cli.Result r = Cli.run("reconcile", "--channel", "alipay", "--bill", b.getValue().toString(), "--record");
      assertThat(r.exit()).as(b.getKey() + ": " + r.err()).isEqualTo(2);
      assertThat(r.err().lines().count()).as(b.getKey()).isEqualTo(1);
      assertThat(r.err()).as(b.getKey()).startsWith("paynotify: " + b.getValue());
    }
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isEqualTo(anomalies);
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isEqualTo(payments);
  }

  @Test
  void refundAmountsAreComparedAsEachRefundsOwnAmount() {
    // 650 on the bill, 651 here: a mismatch.
    db.update("UPDATE refunds SET amount_cents = 651 WHERE refund_no = 'RF2026031412917836'");
    // Alipay notifications carry the trade's refunded total: 6.17 then 6.17 + 3.73 = 9.90, which
    // are the bill's 6.17 and 3.73, not mismatches.
    db.update("UPDATE refunds SET cumulative = TRUE WHERE refund_no = 'RF2026031434802535'");
    db.update("UPDATE refunds SET cumulative = TRUE, amount_cents = 990 WHERE refund_no = 'RF2026031494174302'");
    Cli.Result r = Cli.run("reconcile", "--channel", "alipay", "--bill", SampleBills.ALIPAY.toString(), "--json");
    assertThat(keys(byKind(new JsonObject(r.out())), "refund_amount_mismatch", "refund_no", "trade_no",
        "platform_cents", "local_cents"))
        .containsExactly("refund_no=RF2026031412917836 trade_no=2026031422001407904125632501 platform_cents=650"
            + " local_cents=651");
  }

  @Test
  void alipayRefundNumbersAreMatchedWithinTheirTrade() throws Exception {
    // Sites number each trade's refunds 1, 2, ...: out_biz_no is unique only within its trade.
    String tradeA = "2026031422001494896706324119";
    String tradeB = "2026031422001420955195251789";
    Path bothOne = SampleBills.alipayZip(dir.resolve("both.csv.zip"), SampleBills.alipayDetail()
        .replace("RF2026031475430768", "1").replace("RF2026031453546069", "1"), SampleBills.GBK);
    Path onlyAOne = SampleBills.alipayZip(dir.resolve("only-a.csv.zip"), SampleBills.alipayDetail()
        .replace("RF2026031475430768", "1"), SampleBills.GBK);
    db.update("UPDATE refunds SET refund_no = '1', refunded_at = '2026-03-14 01:57:11' WHERE trade_no = ?", tradeA);
    db.update("UPDATE refunds SET refund_no = '1', refunded_at = '2026-03-14 17:45:51' WHERE trade_no = ?", tradeB);
    // Both booked: only the answer key's refund finding (a refund of the day before, not "1").
    assertThat(refundFindings(bothOne)).containsExactly("refund_missing_local RF2026031416059001 "
        + "2026031322001473159473728941");
    // Only A's renumbered on the bill, both here: B's refund is missing on each side under its
    // two numbers; A's "1" does not stand in for B's.
    assertThat(refundFindings(onlyAOne)).containsExactlyInAnyOrder(
        "refund_missing_local RF2026031416059001 2026031322001473159473728941",
        "refund_missing_local RF2026031453546069 " + tradeB,
        "refund_missing_platform 1 " + tradeB);
    // B's "1" lost here: exactly that one is missing, A's "1" does not stand in for it.
    db.update("DELETE FROM refunds WHERE trade_no = ?", tradeB);
    assertThat(refundFindings(bothOne)).containsExactlyInAnyOrder(
        "refund_missing_local RF2026031416059001 2026031322001473159473728941",
        "refund_missing_local 1 " + tradeB);
    // Both lost: two anomalies recorded, one per trade.
    db.update("DELETE FROM refunds WHERE trade_no = ?", tradeA);
    assertThat(refundFindings(bothOne, "--record")).hasSize(3);
    assertThat(db.count("SELECT COUNT(*) FROM anomalies WHERE kind = 'refund_missing_local'")).isEqualTo(3);
  }

  /** The refund findings of reconciling an Alipay bill: kind, refund_no and trade_no. */
  private static List<String> refundFindings(Path bill, String... options) {
    List<String> args = new ArrayList<>(List.of("reconcile", "--channel", "alipay", "--bill", bill.toString(), "--json"));
    args.addAll(List.of(options));
    Cli.Result r = Cli.run(args.toArray(String[]::new));
    return byKind(new JsonObject(r.out())).entrySet().stream().filter(e -> REFUND_KINDS.contains(e.getKey()))
        .flatMap(e -> e.getValue().stream())
        .map(f -> f.getString("kind") + " " + f.getString("refund_no") + " " + f.getString("trade_no")).toList();
  }

  @Test
  void aMissingOrUnreadableBillExitsTwoWithOneLine() {
    Map<String, Path> bad = Map.of("missing", dir.resolve("absent.csv.zip"), "a directory", dir);
    for (List<String> command : List.of(List.of("reconcile"), List.of("repair", "book", "--trade-no", "T1"))) {
      for (String channel : List.of("alipay", "wechat")) {
        for (Map.Entry<String, Path> b : bad.entrySet()) {
          List<String> args = new ArrayList<>(command);
          args.addAll(List.of("--channel", channel, "--bill", b.getValue().toString()));
          Cli.Result r = Cli.run(args.toArray(String[]::new));
          String what = args + " (" + b.getKey() + "): " + r.err();
          assertThat(r.exit()).as(what).isEqualTo(2);
          assertThat(r.err().lines().count()).as(what).isEqualTo(1);
          assertThat(r.err()).as(what).startsWith("paynotify: " + b.getValue() + ": cannot read the bill");
        }
      }
    }
  }

  @Test
  void theDuplicateAuditInReconcileCoversOnlyTheBillsChannelAndWindow() throws Exception {
    db.reset(); // not the sample state: only this bill's payments
    Path bill = AlipayBillGenerator.write(dir.resolve("day.csv.zip"), 20,
        row -> payment("alipay", row.tradeNo(), row.orderNo(), row.amountCents(), row.paidAt()));
    // Orders paid twice on the day before, and on the other channel the same day: other bills' findings.
    payment("alipay", "2026031322001400000000000001", "TWICE-BEFORE", 500, "2026-03-13 10:00:00");
    payment("alipay", "2026031322001400000000000002", "TWICE-BEFORE", 500, "2026-03-13 10:05:00");
    payment("wechat", "4200000000202603140000000001", "TWICE-WECHAT", 700, "2026-03-14 10:00:00");
    payment("wechat", "4200000000202603140000000002", "TWICE-WECHAT", 700, "2026-03-14 10:05:00");

    Cli.Result day = Cli.run("reconcile", "--channel", "alipay", "--bill", bill.toString());
    assertThat(day.exit()).as(day.out() + day.err()).isZero();
    assertThat(day.out()).endsWith("nothing found\n");
    Cli.Result audit = Cli.run("audit", "--json");
    assertThat(audit.exit()).isEqualTo(1);
    assertThat(byKind(new JsonObject(audit.out())).get("order_paid_twice").stream().map(f -> f.getString("order_no")))
        .containsExactlyInAnyOrder("TWICE-BEFORE", "TWICE-WECHAT");

    // An order this bill paid, paid again on the other channel two days later: this bill shows it too.
    String order = AlipayBillGenerator.orderNo(3);
    payment("wechat", "4200000000202603160000000003", order, AlipayBillGenerator.amountCents(3), "2026-03-16 09:00:00");
    Cli.Result again = Cli.run("reconcile", "--channel", "alipay", "--bill", bill.toString(), "--json");
    assertThat(again.exit()).isEqualTo(1);
    Map<String, List<JsonObject>> found = byKind(new JsonObject(again.out()));
    assertThat(found.keySet()).containsExactly("order_paid_twice");
    assertThat(found.get("order_paid_twice")).singleElement().satisfies(f -> assertThat(f.getString("payments"))
        .isEqualTo("alipay:" + AlipayBillGenerator.tradeNo(3) + " wechat:4200000000202603160000000003"));
  }

  private static void payment(String channel, String tradeNo, String orderNo, long cents, String paidAt) {
    db.update("INSERT INTO payments (channel, trade_no, order_no, amount_cents, paid_at) VALUES (?, ?, ?, ?, ?)",
        channel, tradeNo, orderNo, cents, paidAt);
  }

  @Test
  void auditFindsOrdersPaidTwiceAndTradesBookedTwiceOnceTheKeyIsGone() {
    Cli.Result clean = Cli.run("audit", "--json");
    assertThat(clean.exit()).isEqualTo(1);
    assertThat(byKind(new JsonObject(clean.out())).keySet()).containsExactly("order_paid_twice");

    long before = db.count("SELECT MAX(id) FROM payments");
    db.update("ALTER TABLE payments DROP INDEX uk_trade_no");
    try {
      SampleBills.load("payments_duplicates");
      Map<String, List<JsonObject>> found = byKind(new JsonObject(Cli.run("audit", "--json").out()));
      assertThat(found.get("duplicate_trade").stream().map(f -> f.getString("trade_no") + " " + f.getString("order_no")))
          .containsExactlyInAnyOrderElementsOf(SampleBills.ANSWER_KEY.getJsonObject("audit").getJsonArray("duplicate_trade")
              .stream().map(JsonObject.class::cast).map(d -> d.getString("trade_no") + " " + d.getString("order_no"))
              .toList());
      assertThat(found.get("order_paid_twice").stream().map(f -> f.getString("order_no")))
          .containsExactlyInAnyOrderElementsOf(auditOrders());
    } finally {
      db.update("DELETE FROM payments WHERE id > ?", before);
      db.update("ALTER TABLE payments ADD UNIQUE KEY uk_trade_no (channel, trade_no)");
    }
  }

  static List<String> auditOrders() {
    return auditOrders(null);
  }

  /** The answer key's orders paid twice; with a channel, those paid on it (the samples are all of the bills' day). */
  static List<String> auditOrders(String channel) {
    return SampleBills.ANSWER_KEY.getJsonObject("audit").getJsonArray("order_paid_twice").stream()
        .map(JsonObject.class::cast)
        .filter(o -> channel == null || o.getJsonArray("payments").stream().map(JsonObject.class::cast)
            .anyMatch(p -> p.getString("channel").equals(channel)))
        .map(o -> o.getString("order_no")).toList();
  }

  static Map<String, List<JsonObject>> byKind(JsonObject report) {
    return report.getJsonArray("findings").stream().map(JsonObject.class::cast)
        .collect(Collectors.groupingBy(f -> f.getString("kind")));
  }

  /** The listed fields of each entry, as comparable strings. */
  private static Set<String> keys(Map<String, List<JsonObject>> found, String kind, String... fields) {
    return strings(new JsonArray(found.getOrDefault(kind, List.of())), fields);
  }

  private static Set<String> keys(JsonObject expect, String kind, String... fields) {
    return strings(expect.getJsonArray(kind, new JsonArray()), fields);
  }

  private static Set<String> strings(JsonArray entries, String... fields) {
    return entries.stream().map(JsonObject.class::cast)
        .map(e -> Stream.of(fields).map(f -> f + "=" + e.getValue(f)).collect(Collectors.joining(" ")))
        .collect(Collectors.toSet());
  }
}
