package paynotify.app;

import java.nio.file.Path;
import java.sql.Connection;
import java.time.LocalDate;
import paynotify.reconcile.AlipayBill;
import paynotify.reconcile.Bill;
import paynotify.reconcile.Reconciliation;
import paynotify.reconcile.Report;
import paynotify.reconcile.WechatBill;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** reconcile: a platform bill against the bookings; exit 0 clean, 1 findings, 2 unusable bill. */
@Command(name = "reconcile", mixinStandardHelpOptions = true,
    description = {"Compare a platform bill with what is booked here, both directions, for the bill's channel and",
        "window; then the duplicate audit. Exit 0: nothing found; 1: findings; 2: unusable bill or",
        "configuration; 3: database failure."})
final class ReconcileCommand extends CommandSupport {
  @Option(names = "--channel", required = true, description = "alipay or wechat")
  String channel;

  @Option(names = "--bill", required = true, description = "Alipay: the .csv.zip as downloaded; WeChat: the ALL .csv")
  Path bill;

  @Option(names = "--date", description = "WeChat bill date (yyyy-MM-dd) when the file name lacks it")
  LocalDate date;

  @Option(names = "--json", description = "one JSON document instead of text lines")
  boolean json;

  @Option(names = "--record", description = "store each finding as an anomaly (once: re-running adds nothing)")
  boolean record;

  @Option(names = "--verbose", description = "how long each step took, on stderr")
  boolean verbose;

  @Override
  int run() throws Exception {
    Bill platformBill = bill(channel, bill, date);
    try (CliDatabase db = CliDatabase.open(config);
        Connection conn = db.connect();
        Connection lookups = db.connect();
        Connection recording = record ? db.connect() : null;
        Report report = new Report(out(), json, recording)) {
      Reconciliation reconciliation = new Reconciliation(conn, lookups)
          .timed(verbose ? phase -> System.err.println("paynotify: " + phase) : phase -> { });
      long start = System.nanoTime();
      Bill.Summary read = reconciliation.load(platformBill, rows -> progress(rows, start));
      report.bill(platformBill.channel(), bill.toString(), read);
      reconciliation.compare(platformBill.channel(), read, report);
      reconciliation.audit(report);
      return report.finish() == 0 ? 0 : FOUND;
    }
  }

  static Bill bill(String channel, Path file, LocalDate date) {
    return switch (channel) {
      case "alipay" -> new AlipayBill(file);
      case "wechat" -> new WechatBill(file, date);
      default -> throw new ConfigException("--channel: '" + channel + "' is not alipay or wechat");
    };
  }

  /** Rows read and rate on stderr, when a person is watching. */
  private static void progress(long rows, long start) {
    if (System.console() != null) {
      double seconds = (System.nanoTime() - start) / 1e9;
      System.err.printf("\rread %,d rows (%,.0f rows/s)", rows, rows / seconds);
    }
  }
}
