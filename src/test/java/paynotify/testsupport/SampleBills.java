package paynotify.testsupport;

import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;
import paynotify.channel.Money;

/** The shared sample bills (src/test/resources/bills, a copy of shared/bills) and their local state. */
public final class SampleBills {
  public static final Path DIR = Path.of("src", "test", "resources", "bills");
  public static final Path ALIPAY = DIR.resolve("alipay/20888507821268420156_20260314.csv.zip");
  public static final Path WECHAT = DIR.resolve("wechat/1543681851_20260314_ALL.csv");
  public static final Charset GBK = Charset.forName("GBK");
  public static final JsonObject ANSWER_KEY;

  static {
    try {
      ANSWER_KEY = new JsonObject(Files.readString(DIR.resolve("answer_key.json")));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private SampleBills() {}

  /** Loads {@code local/<name>.sql} into the test database (statements end with ';' at a line end). */
  public static void load(String name) {
    load(name, null);
  }

  /** @param sqlMode the session's sql_mode while loading, or null for the server's */
  private static void load(String name, String sqlMode) {
    try {
      String sql = Files.readString(DIR.resolve("local/" + name + ".sql"));
      for (String statement : sql.split(";\\s*\\n")) {
        String body = statement.lines().filter(l -> !l.startsWith("--")).reduce("", (a, b) -> a + "\n" + b).strip();
        if (!body.isEmpty()) {
          TestDatabase.get().updateInMode(sqlMode, body);
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** orders, payments and refunds of the samples: the state the answer key was made for. */
  public static void loadLocalState() {
    load("orders");
    // Made before the days their bills cover (a payment found for an order created after it was paid is not booked)
    TestDatabase.get().update("UPDATE orders SET created_at = '2026-03-12 00:00:00'");
    load("payments");
    // The samples predate refund_scope: loaded as then (not strict: the column takes ''), then Alipay's
    // refunds get their trade, as migration V4 does.
    load("refunds", "");
    TestDatabase.get().update("UPDATE refunds SET refund_scope = trade_no WHERE channel = 'alipay'");
  }

  /** The text of the Alipay sample's detail entry. */
  public static String alipayDetail() throws IOException {
    try (InputStream in = Files.newInputStream(ALIPAY); ZipInputStream zip = new ZipInputStream(in, GBK)) {
      for (ZipEntry e = zip.getNextEntry(); e != null; e = zip.getNextEntry()) {
        if (e.getName().endsWith("_业务明细.csv")) {
          return new String(zip.readAllBytes(), GBK);
        }
      }
    }
    throw new IllegalStateException("no detail entry");
  }

  /** The detail with the 订单金额 of its first 交易 (payment) row made negative; and that row's line number. */
  public static Map.Entry<String, Integer> alipayDetailWithNegativePayment() throws IOException {
    String[] lines = alipayDetail().split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      if (lines[i].contains("\t,交易\t,")) {
        lines[i] = lines[i].replaceFirst("\t,([0-9]+\\.[0-9]{2}),([0-9]+\\.[0-9]{2}),", "\t,-$1,$2,");
        return Map.entry(String.join("\n", lines), i + 1);
      }
    }
    throw new IllegalStateException("no payment row");
  }

  /** A zip like Alipay's (GBK entry name), holding {@code detail} encoded in {@code charset}. */
  public static Path alipayZip(Path file, String detail, Charset charset) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ZipOutputStream zip = new ZipOutputStream(bytes, GBK)) {
      zip.putNextEntry(new ZipEntry("20888507821268420156_20260314_业务明细.csv"));
      zip.write(detail.getBytes(charset));
      zip.closeEntry();
    }
    Files.createDirectories(file.getParent());
    return Files.write(file, bytes.toByteArray());
  }

  /**
   * A crafted Alipay zip, about a thousandth of {@code bytes}: its detail entry opens with {@code bytes} of
   * {@code #} comment lines, then holds the sample's detail.
   */
  public static Path alipayZipWithComments(Path file, long bytes) throws IOException {
    try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(file), GBK)) {
      zip.putNextEntry(new ZipEntry("20888507821268420156_20260314_业务明细.csv"));
      repeat(zip, "#" + "-".repeat(98) + "\n", bytes);
      zip.write(alipayDetail().getBytes(GBK));
      zip.closeEntry();
    }
    return file;
  }

  /**
   * A crafted Alipay zip, about a thousandth of {@code bytes}: an entry that is not the detail (the 汇总 one,
   * which is skipped) unpacks to {@code bytes}, then the sample's detail entry.
   */
  public static Path alipayZipWithLargeSummary(Path file, long bytes) throws IOException {
    try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(file), GBK)) {
      zip.putNextEntry(new ZipEntry("20888507821268420156_20260314_业务明细(汇总).csv"));
      repeat(zip, "#".repeat(99) + "\n", bytes);
      zip.closeEntry();
      zip.putNextEntry(new ZipEntry("20888507821268420156_20260314_业务明细.csv"));
      zip.write(alipayDetail().getBytes(GBK));
      zip.closeEntry();
    }
    return file;
  }

  private static void repeat(OutputStream out, String line, long bytes) throws IOException {
    byte[] block = line.repeat(655).getBytes(GBK);
    for (long written = 0; written < bytes; written += block.length) {
      out.write(block);
    }
  }

  /**
   * A WeChat ALL bill of about {@code bytes}: the sample's header, payments like its first row (each a trade of
   * its own, 29.90), and the summary that adds them up.
   */
  public static byte[] wechatOfSize(long bytes) throws IOException {
    String[] sample = wechat().split("\n");
    String row = sample[1];
    String trade = "4200002527202603146264603784";
    StringBuilder bill = new StringBuilder(sample[0]).append('\n');
    int rows = 0;
    while (bill.length() * 1.1 < bytes) { // a few of the header's characters are 3 bytes in UTF-8
      bill.append(row.replace(trade, String.format("42000025272026031%011d", rows++))).append('\n');
    }
    String total = Money.format(2990L * rows);
    bill.append("总交易单数,应结订单总金额,退款总金额,充值券退款总金额,手续费总金额,订单总金额,申请退款总金额\n`").append(rows)
        .append(",`").append(total).append(",`0.00,`0.00,`0.00,`").append(total).append(",`0.00\n");
    return bill.toString().getBytes(StandardCharsets.UTF_8);
  }

  public static String wechat() throws IOException {
    return Files.readString(WECHAT, StandardCharsets.UTF_8);
  }
}
