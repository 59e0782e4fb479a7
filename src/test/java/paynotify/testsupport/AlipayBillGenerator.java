package paynotify.testsupport;

import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import paynotify.channel.Money;

/**
 * Writes Alipay trade bills of any size in the downloaded format (zip, GBK names and content,
 * comments, tabs, footer totals), one payment per row on 2026-03-14, streamed: the file can be
 * far larger than memory. Like a real bill, its rows come in time order and their trade numbers do
 * not (bookings made as the notifications arrive are then in time order too, not in trade order).
 */
public final class AlipayBillGenerator {
  public static final String HEADER = "支付宝交易号,商户订单号,业务类型,商品名称,创建时间,完成时间,门店编号,门店名称,操作员,"
      + "终端号,对方账户,订单金额（元）,商家实收（元）,支付宝红包（元）,集分宝（元）,支付宝优惠（元）,商家优惠（元）,"
      + "券核销金额（元）,券名称,商家红包消费金额（元）,卡消费金额（元）,退款批次号/请求号,服务费（元）,分润（元）,备注";

  private AlipayBillGenerator() {}

  /** A row of the generated bill, for loading the matching payments. */
  public record Row(String tradeNo, String orderNo, long amountCents, String paidAt) {}

  public interface RowConsumer {
    void accept(Row row) throws Exception;
  }

  /** Distinct for every i (the multiplier is prime to 10^14), in no particular order. */
  public static String tradeNo(int i) {
    return String.format("20260314220014%014d", i * 7_919_000_003L % 100_000_000_000_000L);
  }

  public static String orderNo(int i) {
    return String.format("GEN%012d", i);
  }

  public static long amountCents(int i) {
    return 100 + (i * 7919L) % 100_000;
  }

  /** Row i of {@code rows}, spread over the day in order. */
  private static String paidAt(int i, int rows) {
    int second = (int) (i * 86_400L / rows);
    return String.format("2026-03-14 %02d:%02d:%02d", second / 3600, second / 60 % 60, second % 60);
  }

  /** {@code rows} payments, each also handed to {@code onRow}. */
  public static Path write(Path file, int rows, RowConsumer onRow) throws Exception {
    Files.createDirectories(file.toAbsolutePath().getParent());
    long total = 0;
    try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(file), SampleBills.GBK)) {
      zip.putNextEntry(new ZipEntry("20880000000000000000_20260314_业务明细.csv"));
      BufferedWriter out = new BufferedWriter(new OutputStreamWriter(zip, SampleBills.GBK), 1 << 16);
      out.write("#支付宝业务明细查询\n#账号：[20880000000000000000]\n"
          + "#起始日期：[2026年03月14日 00:00:00]   终止日期：[2026年03月15日 00:00:00]\n"
          + "#-----------------------------------------业务明细列表----------------------------------------\n");
      out.write(HEADER);
      out.write('\n');
      for (int i = 0; i < rows; i++) {
        Row row = new Row(tradeNo(i), orderNo(i), amountCents(i), paidAt(i, rows));
        String yuan = Money.format(row.amountCents());
        out.write(row.tradeNo() + "\t," + row.orderNo() + "\t,交易\t,\"会员,\"\"年卡\"\"\"," + row.paidAt() + ","
            + row.paidAt() + ",\t,\t,\t,\t,**李(181****5791)\t," + yuan + "," + yuan
            + ",0.00,0.00,0.00,0.00,0.00,,0.00\t,0.00,\t,0.00,0.00,\n");
        total += row.amountCents();
        onRow.accept(row);
      }
      out.write("#-----------------------------------------业务明细列表结束------------------------------------\n");
      out.write("#交易合计：" + rows + "笔，商家实收共" + Money.format(total) + "元，商家优惠共0.00元\n");
      out.write("#退款合计：0笔，商家实收退款共0.00元，商家优惠退款共0.00元\n");
      out.write("#导出时间：[2026年03月15日 05:46:49]\n");
      out.flush();
      zip.closeEntry();
    }
    return file;
  }

}
