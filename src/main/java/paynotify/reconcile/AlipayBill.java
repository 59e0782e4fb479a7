package paynotify.reconcile;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipInputStream;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import paynotify.channel.Platform;

/**
 * Alipay's trade bill as downloaded: a zip whose entry names and content are GBK, holding
 * {@code <account>_<date>_业务明细.csv}: {@code #} comments (window, footer totals), a header row,
 * 交易 and 退款 rows whose values end with a tab, refund amounts negative.
 */
public final class AlipayBill implements Bill {
  private static final Charset GBK = Charset.forName("GBK");
  static final String TRADE_NO = "支付宝交易号";
  static final String ORDER_NO = "商户订单号";
  static final String TYPE = "业务类型";
  static final String FINISHED = "完成时间";
  static final String AMOUNT = "订单金额（元）";
  static final String RECEIVED = "商家实收（元）";
  static final String REFUND_NO = "退款批次号/请求号";
  private static final List<String> REQUIRED = List.of(TRADE_NO, ORDER_NO, TYPE, FINISHED, AMOUNT, RECEIVED, REFUND_NO);
  private static final Pattern WINDOW = Pattern.compile("起始日期：\\[(.+?)]\\s*终止日期：\\[(.+?)]");
  private static final DateTimeFormatter WINDOW_TIME = DateTimeFormatter.ofPattern("yyyy年MM月dd日 HH:mm:ss");
  private static final Pattern TRADES = Pattern.compile("#?交易合计：(\\d+)笔，商家实收共(-?[0-9.]+)元");
  private static final Pattern REFUNDS = Pattern.compile("#?退款合计：(\\d+)笔，商家实收退款共(-?[0-9.]+)元");

  private final Path file;

  public AlipayBill(Path file) {
    this.file = file;
  }

  @Override
  public Platform platform() {
    return Platform.ALIPAY;
  }

  @Override
  public Summary read(RowSink sink) throws BillFormatException {
    String name = file.toString();
    try (InputStream raw = Files.newInputStream(file); ZipInputStream zip = new ZipInputStream(raw, GBK)) {
      BillInput unpacked = new BillInput(zip); // every entry's bytes count, the skipped ones' too
      for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
        if (entry.getName().endsWith("_业务明细.csv")) {
          unpacked.recordRead();
          return readDetail(name + "!" + entry.getName(), unpacked, sink);
        }
        unpacked.skipEntry();
      }
    } catch (ZipException | java.io.EOFException e) {
      throw new BillFormatException(name, 0, null, "not a readable zip (" + e.getMessage() + "): is the download complete?");
    } catch (IOException e) {
      throw BillCsv.cannotRead(name, e);
    }
    throw new BillFormatException(name, 0, null,
        "no *_业务明细.csv entry: not an Alipay trade bill zip (pass the .csv.zip as downloaded)");
  }

  private Summary readDetail(String name, BillInput in, RowSink sink) throws IOException, BillFormatException {
    long payments = 0;
    long refunds = 0;
    long paymentCents = 0;
    long refundCents = 0;
    long receivedOnPayments = 0;
    long receivedOnRefunds = 0;
    try (CSVParser csv = BillCsv.parser(BillCsv.strictReader(in, GBK), '#')) {
      Map<String, Integer> col = null;
      LocalDateTime[] window = null;
      for (CSVRecord record : csv) {
        in.recordRead();
        long line = csv.getCurrentLineNumber();
        if (col == null) { // the header row; the comments above it give the window
          col = BillCsv.columns(record, name, line, REQUIRED);
          window = window(name, record.getComment());
          continue;
        }
        String type = value(record, col, TYPE);
        long amount = Bill.cents(value(record, col, AMOUNT), name, line, AMOUNT);
        long received = Bill.cents(value(record, col, RECEIVED), name, line, RECEIVED);
        String tradeNo = BillCsv.required(value(record, col, TRADE_NO), name, line, TRADE_NO);
        String orderNo = value(record, col, ORDER_NO);
        LocalDateTime at = BillCsv.time(value(record, col, FINISHED), name, line, FINISHED);
        switch (type) {
          case "交易" -> {
            if (amount < 0) {
              throw new BillFormatException(name, line, AMOUNT, "negative amount on a 交易 (payment) row");
            }
            payments++;
            paymentCents += amount;
            receivedOnPayments += received;
            sink.accept(new BillRow(false, tradeNo, orderNo, null, null, amount, at, line));
          }
          case "退款" -> {
            if (amount >= 0) {
              throw new BillFormatException(name, line, AMOUNT, "a 退款 (refund) row must have a negative amount");
            }
            String refundNo = BillCsv.required(value(record, col, REFUND_NO), name, line, REFUND_NO);
            refunds++;
            refundCents -= amount;
            receivedOnRefunds += received;
            sink.accept(new BillRow(true, tradeNo, orderNo, refundNo, refundNo, -amount, at, line));
          }
          default -> throw new BillFormatException(name, line, TYPE, "'" + type + "' is neither 交易 nor 退款");
        }
      }
      if (col == null) {
        throw new BillFormatException(name, csv.getCurrentLineNumber(), null, "no header row: not a 业务明细 file");
      }
      checkFooter(name, csv.getTrailerComment(), payments, receivedOnPayments, refunds, receivedOnRefunds);
      return new Summary(window[0], window[1], payments, refunds, paymentCents, refundCents);
    } catch (CharacterCodingException | UncheckedIOException | java.io.EOFException | ZipException e) {
      throw BillCsv.unreadable(name, e, "GBK", "Alipay bills are GBK; was it re-saved as UTF-8?");
    }
  }

  private static LocalDateTime[] window(String name, String comments) throws BillFormatException {
    Matcher m = WINDOW.matcher(String.valueOf(comments));
    if (!m.find()) {
      throw new BillFormatException(name, 0, null, "no #起始日期/终止日期 line: not an Alipay 业务明细 bill");
    }
    try {
      return new LocalDateTime[] {LocalDateTime.parse(m.group(1), WINDOW_TIME), LocalDateTime.parse(m.group(2), WINDOW_TIME)};
    } catch (DateTimeParseException e) {
      throw new BillFormatException(name, 0, null, "unreadable 起始日期/终止日期: " + m.group());
    }
  }

  /** The footer's counts and sums must be what was read: a truncated or altered file stops here. */
  private static void checkFooter(String name, String trailer, long payments, long received, long refunds,
      long refundReceived) throws BillFormatException {
    Matcher trades = TRADES.matcher(String.valueOf(trailer));
    Matcher refundsFooter = REFUNDS.matcher(String.valueOf(trailer));
    if (!trades.find() || !refundsFooter.find()) {
      throw new BillFormatException(name, 0, null, "no #交易合计/#退款合计 footer: the file is truncated");
    }
    if (Long.parseLong(trades.group(1)) != payments
        || Bill.cents(trades.group(2), name, 0, "#交易合计") != received
        || Long.parseLong(refundsFooter.group(1)) != refunds
        || Bill.cents(refundsFooter.group(2), name, 0, "#退款合计") != refundReceived) {
      throw new BillFormatException(name, 0, null, "footer says " + trades.group(1) + " 交易 rows (" + trades.group(2)
          + ") and " + refundsFooter.group(1) + " 退款 rows (" + refundsFooter.group(2) + "); read " + payments
          + " and " + refunds + ": the file is truncated or altered");
    }
  }

  /** A value without the tab Alipay appends to most of them. */
  private static String value(CSVRecord record, Map<String, Integer> col, String name) {
    int i = col.get(name);
    if (i >= record.size()) {
      return "";
    }
    String v = record.get(i);
    if (v.endsWith("\t")) {
      v = v.substring(0, v.length() - 1);
    }
    return v.strip();
  }
}
