package paynotify.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import paynotify.testsupport.SampleBills;

/** The two bill formats, read as the answer key says, and refused when they cannot be trusted. */
class BillReadingTest {
  @TempDir
  Path dir;

  private static JsonObject parse(int bill) {
    return SampleBills.ANSWER_KEY.getJsonArray("bills").getJsonObject(bill).getJsonObject("parse");
  }

  @Test
  void alipaySampleReadsAsTheAnswerKeySays() throws Exception {
    List<BillRow> rows = new ArrayList<>();
    Bill.Summary s = new AlipayBill(SampleBills.ALIPAY).read(rows::add);
    JsonObject expect = parse(0);
    assertThat(s.paymentRows()).isEqualTo(expect.getLong("trade_rows"));
    assertThat(s.refundRows()).isEqualTo(expect.getLong("refund_rows"));
    assertThat(s.paymentCents()).isEqualTo(expect.getLong("trade_amount_cents"));
    assertThat(s.refundCents()).isEqualTo(expect.getLong("refund_amount_cents"));
    assertThat(s.from()).hasToString("2026-03-14T00:00");
    assertThat(s.to()).hasToString("2026-03-15T00:00");
    assertThat(rows).hasSize(50).allSatisfy(r -> {
      assertThat(r.tradeNo()).doesNotContain("\t").hasSize(28);
      assertThat(r.amountCents()).isPositive();
    });
  }

  @Test
  void wechatSampleReadsAsTheAnswerKeySays() throws Exception {
    List<BillRow> rows = new ArrayList<>();
    Bill.Summary s = new WechatBill(SampleBills.WECHAT, null).read(rows::add);
    JsonObject expect = parse(1);
    assertThat(s.paymentRows()).isEqualTo(expect.getLong("trade_rows"));
    assertThat(s.refundRows()).isEqualTo(expect.getLong("refund_rows"));
    assertThat(s.paymentCents()).isEqualTo(expect.getLong("trade_amount_cents"));
    assertThat(s.refundCents()).isEqualTo(expect.getLong("refund_amount_cents"));
    assertThat(rows).allSatisfy(r -> assertThat(r.tradeNo()).doesNotStartWith("`"));
    assertThat(rows.stream().filter(BillRow::refund)).allSatisfy(r -> assertThat(r.refundNo()).startsWith("503"));
  }

  @Test
  void wechatBillWithABomAndCrlfReadsTheSame() throws Exception {
    Path copy = Files.writeString(dir.resolve("1543681851_20260314_ALL.csv"),
        "\uFEFF" + SampleBills.wechat().replace("\n", "\r\n"), StandardCharsets.UTF_8);
    assertThat(new WechatBill(copy, null).read(row -> { }).paymentRows()).isEqualTo(45);
  }

  @Test
  void corruptZipIsRefused() throws Exception {
    byte[] zip = Files.readAllBytes(SampleBills.ALIPAY);
    Path corrupt = Files.write(dir.resolve("corrupt.csv.zip"), Arrays.copyOf(zip, zip.length / 2));
    assertThatThrownBy(() -> new AlipayBill(corrupt).read(row -> { }))
        .isInstanceOf(BillFormatException.class).hasMessageContaining("corrupt.csv.zip");
  }

  @Test
  void utf8WhereGbkIsExpectedIsRefused() throws Exception {
    Path utf8 = SampleBills.alipayZip(dir.resolve("utf8.csv.zip"), SampleBills.alipayDetail(), StandardCharsets.UTF_8);
    assertThatThrownBy(() -> new AlipayBill(utf8).read(row -> { }))
        .isInstanceOf(BillFormatException.class).hasMessageContaining("GBK");
  }

  @Test
  void wechatBillPassedAsAlipayIsRefused() {
    assertThatThrownBy(() -> new AlipayBill(SampleBills.WECHAT).read(row -> { }))
        .isInstanceOf(BillFormatException.class).hasMessageContaining("not an Alipay trade bill");
  }

  @Test
  void alipayZipPassedAsWechatIsRefused() {
    assertThatThrownBy(() -> new WechatBill(SampleBills.ALIPAY, null).read(row -> { }))
        .isInstanceOf(BillFormatException.class).hasMessageContaining("UTF-8");
  }

  /** A zip's entries are bounded once unpacked: one past 256 MiB (the 汇总 one, only skipped) stops the read. */
  @Test
  void aZipEntryUnpackingPastTheBoundIsRefused() throws Exception {
    Path bomb = SampleBills.alipayZipWithLargeSummary(dir.resolve("bomb.csv.zip"), 300L << 20);
    assertThat(Files.size(bomb)).isLessThan(2 << 20); // deflate packs a repeated line a thousandfold
    assertThatThrownBy(() -> new AlipayBill(bomb).read(row -> { })).isInstanceOf(BillFormatException.class)
        .hasMessageContaining("bomb.csv.zip").hasMessageContaining("256 MiB");
  }

  /** commons-csv holds a value, and the comment lines before a record, in one buffer: more than 1 MiB is no bill. */
  @Test
  void aBlockOfCommentsOrAHugeValueIsRefused() throws Exception {
    Path comments = SampleBills.alipayZipWithComments(dir.resolve("comments.csv.zip"), 2L << 20);
    assertThatThrownBy(() -> new AlipayBill(comments).read(row -> { })).isInstanceOf(BillFormatException.class)
        .hasMessageContaining("comments.csv.zip").hasMessageContaining("1 MiB");

    Path huge = Files.writeString(dir.resolve("1543681851_20260314_ALL.csv"), SampleBills.wechat()
        .replaceFirst("\"`年度会员,自动续费\"", "\"`" + "x".repeat(2 << 20) + "\""), StandardCharsets.UTF_8);
    assertThatThrownBy(() -> new WechatBill(huge, null).read(row -> { })).isInstanceOf(BillFormatException.class)
        .hasMessageContaining("1 MiB");
  }

  @Test
  void truncatedBillsAreRefused() throws Exception {
    String detail = SampleBills.alipayDetail();
    Path alipay = SampleBills.alipayZip(dir.resolve("a.csv.zip"), detail.substring(0, detail.length() * 2 / 3)
        .substring(0, detail.substring(0, detail.length() * 2 / 3).lastIndexOf('\n') + 1), SampleBills.GBK);
    assertThatThrownBy(() -> new AlipayBill(alipay).read(row -> { }))
        .isInstanceOf(BillFormatException.class).hasMessageContaining("truncated");

    String wechat = SampleBills.wechat();
    Path cut = Files.writeString(dir.resolve("1543681851_20260314_ALL.csv"),
        wechat.substring(0, wechat.indexOf("总交易单数")));
    assertThatThrownBy(() -> new WechatBill(cut, null).read(row -> { }))
        .isInstanceOf(BillFormatException.class).hasMessageContaining("truncated");
  }

  @Test
  void negativeAmountOnAPaymentRowNamesLineAndColumn() throws Exception {
    var negative = SampleBills.alipayDetailWithNegativePayment();
    Path bad = SampleBills.alipayZip(dir.resolve("neg.csv.zip"), negative.getKey(), SampleBills.GBK);
    assertThatThrownBy(() -> new AlipayBill(bad).read(r -> { }))
        .isInstanceOf(BillFormatException.class)
        .hasMessageContaining(":" + negative.getValue() + " (订单金额（元）)").hasMessageContaining("negative");
  }

  @Test
  void amountsAreExactCents() throws Exception {
    assertThat(Bill.cents("-12.30", "f", 1, "c")).isEqualTo(-1230);
    assertThat(Bill.cents("154233.18", "f", 1, "c")).isEqualTo(15423318);
    for (String bad : new String[] {"12.3", "1e3", "12.345", "", "--1.00", "1,000.00"}) {
      assertThatThrownBy(() -> Bill.cents(bad, "f", 7, "c")).as(bad).isInstanceOf(BillFormatException.class)
          .hasMessageContaining("f:7 (c)");
    }
  }
}
