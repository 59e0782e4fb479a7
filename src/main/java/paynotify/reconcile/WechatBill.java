package paynotify.reconcile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import paynotify.channel.Platform;

/**
 * WeChat Pay's trade bill (type ALL): UTF-8 (a BOM may lead), every data value prefixed with one
 * backtick, SUCCESS and REFUND rows, then {@code 总交易单数...} and a summary row. The bill covers
 * its date, {@code [date 00:00, date+1 00:00)}, by 交易时间.
 */
public final class WechatBill implements Bill {
  static final String TIME = "交易时间";
  static final String TRADE_NO = "微信订单号";
  static final String ORDER_NO = "商户订单号";
  static final String STATE = "交易状态";
  static final String SETTLEMENT = "应结订单金额";
  static final String REFUND_ID = "微信退款单号";
  static final String OUT_REFUND_NO = "商户退款单号";
  static final String REFUNDED = "退款金额";
  static final String TOTAL = "订单金额";
  private static final List<String> REQUIRED =
      List.of(TIME, TRADE_NO, ORDER_NO, STATE, SETTLEMENT, REFUND_ID, OUT_REFUND_NO, REFUNDED, TOTAL);
  private static final String SUMMARY_HEADER = "总交易单数";
  private static final Pattern DATE_IN_NAME = Pattern.compile("_(\\d{8})_");

  private final Path file;
  private final LocalDate date;

  /**
   * @param date the bill's date; null: from the file name ({@code <mch>_<yyyymmdd>_ALL.csv}), else
   *             the date of the first row
   */
  public WechatBill(Path file, LocalDate date) {
    this.file = file;
    this.date = date;
  }

  @Override
  public Platform platform() {
    return Platform.WECHAT;
  }

  @Override
  public Summary read(RowSink sink) throws BillFormatException {
    String name = file.toString();
    LocalDate day = date != null ? date : dateFromName(name);
    LocalDate firstRowDay = null;
    long payments = 0;
    long refunds = 0;
    long rows = 0;
    long totalCents = 0;
    long settlementCents = 0;
    long refundCents = 0;
    try (BillInput in = new BillInput(Files.newInputStream(file));
        CSVParser csv = BillCsv.parser(BillCsv.strictReader(in, StandardCharsets.UTF_8), null)) {
      Map<String, Integer> col = null;
      boolean summaryNext = false;
      for (CSVRecord record : csv) {
        in.recordRead();
        long line = csv.getCurrentLineNumber();
        if (col == null) {
          col = BillCsv.columns(record, name, line, REQUIRED);
          continue;
        }
        if (summaryNext) {
          checkSummary(name, line, record, rows, settlementCents, refundCents, totalCents);
          LocalDate billDay = day != null ? day : firstRowDay;
          if (billDay == null) {
            throw new BillFormatException(name, line, null, "no date in the file name and no rows: pass --date");
          }
          return new Summary(billDay.atStartOfDay(), billDay.plusDays(1).atStartOfDay(), payments, refunds,
              totalCents, refundCents);
        }
        if (record.get(0).equals(SUMMARY_HEADER)) {
          summaryNext = true;
          continue;
        }
        rows++;
        String state = value(record, col, STATE);
        long total = Bill.cents(value(record, col, TOTAL), name, line, TOTAL);
        long refunded = Bill.cents(value(record, col, REFUNDED), name, line, REFUNDED);
        settlementCents += Bill.cents(value(record, col, SETTLEMENT), name, line, SETTLEMENT);
        totalCents += total;
        refundCents += refunded;
        String tradeNo = BillCsv.required(value(record, col, TRADE_NO), name, line, TRADE_NO);
        String orderNo = value(record, col, ORDER_NO);
        LocalDateTime at = BillCsv.time(value(record, col, TIME), name, line, TIME);
        if (firstRowDay == null) {
          firstRowDay = at.toLocalDate();
        }
        if (total < 0 || refunded < 0) {
          throw new BillFormatException(name, line, total < 0 ? TOTAL : REFUNDED, "negative amount");
        }
        switch (state) {
          case "SUCCESS" -> {
            payments++;
            sink.accept(new BillRow(false, tradeNo, orderNo, null, null, total, at, line));
          }
          case "REFUND" -> {
            refunds++;
            sink.accept(new BillRow(true, tradeNo, orderNo, BillCsv.required(value(record, col, REFUND_ID), name,
                line, REFUND_ID), value(record, col, OUT_REFUND_NO), refunded, at, line));
          }
          default -> { } // REVOKED and the like: no money moved
        }
      }
      throw new BillFormatException(name, csv.getCurrentLineNumber(), null,
          "no 总交易单数 summary at the end: the file is truncated (or not a WeChat Pay bill)");
    } catch (CharacterCodingException | UncheckedIOException e) {
      throw BillCsv.unreadable(name, e, "UTF-8", "WeChat Pay bills are UTF-8 CSV; an Alipay .zip goes with --channel alipay");
    } catch (IOException e) {
      throw BillCsv.cannotRead(name, e);
    }
  }

  private static void checkSummary(String name, long line, CSVRecord summary, long rows, long settlement,
      long refunded, long total) throws BillFormatException {
    if (summary.size() < 6) {
      throw new BillFormatException(name, line, null, "summary row has " + summary.size() + " values, 7 expected");
    }
    String count = strip(summary.get(0));
    if (!count.matches("\\d+") || Long.parseLong(count) != rows
        || Bill.cents(strip(summary.get(1)), name, line, "应结订单总金额") != settlement
        || Bill.cents(strip(summary.get(2)), name, line, "退款总金额") != refunded
        || Bill.cents(strip(summary.get(5)), name, line, "订单总金额") != total) {
      throw new BillFormatException(name, line, null, "summary says " + count + " rows; read " + rows
          + " whose totals differ: the file is truncated or altered");
    }
  }

  /** The date of {@code <mch>_<yyyymmdd>_ALL.csv}, or null. */
  private static LocalDate dateFromName(String name) {
    Matcher m = DATE_IN_NAME.matcher(Path.of(name).getFileName().toString());
    return m.find() ? LocalDate.parse(m.group(1), DateTimeFormatter.BASIC_ISO_DATE) : null;
  }

  private static String value(CSVRecord record, Map<String, Integer> col, String name) {
    int i = col.get(name);
    return i < record.size() ? strip(record.get(i)) : "";
  }

  /** Exactly one leading backtick comes off (a value may hold more). */
  private static String strip(String value) {
    return value.startsWith("`") ? value.substring(1) : value;
  }
}
