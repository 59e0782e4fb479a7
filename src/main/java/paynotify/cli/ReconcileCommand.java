package paynotify.cli;

import java.sql.Connection;
import paynotify.reconcile.Bill;
import paynotify.reconcile.Reconciliation;
import paynotify.reconcile.Report;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** reconcile: a platform bill against the bookings; exit 0 clean, 1 findings, 2 unusable bill. */
@Command(name = "reconcile", mixinStandardHelpOptions = true,
    description = "Compare a platform bill with what is booked here, payments and refunds, both directions "
        + "and amounts, for the bill's channel and window; then the duplicate audit for the same channel and "
        + "window. Exit 0: nothing found; 1: findings; 2: unusable, missing or unreadable bill, or configuration; "
        + "3: database failure.")
final class ReconcileCommand extends CommandSupport {
  @Mixin
  BillOptions billOptions;

  @Mixin
  ReportOptions reportOptions;

  @Option(names = "--verbose", description = "how long each step took, on stderr")
  boolean verbose;

  @Override
  int run() throws Exception {
    Bill platformBill = billOptions.bill();
    try (CliDatabase db = CliDatabase.open(config);
        Connection conn = db.connect();
        Connection bookings = db.connect();
        Connection side = db.connect();
        Connection recording = reportOptions.recording(db);
        Report report = reportOptions.report(out(), recording)) {
      Reconciliation reconciliation = new Reconciliation(conn, bookings, side, db.config().orders())
          .timed(verbose ? phase -> System.err.println("paynotify: " + phase) : phase -> { });
      long start = System.nanoTime();
      Bill.Summary read = reconciliation.load(platformBill, rows -> progress(rows, start));
      report.bill(platformBill.platform().code(), billOptions.file.toString(), read);
      reconciliation.compare(platformBill.platform().code(), read, report);
      reconciliation.audit(report);
      return report.finish() == 0 ? 0 : ExitCode.FOUND;
    }
  }

  /** Rows read and rate on stderr, when a person is watching. */
  private static void progress(long rows, long start) {
    if (System.console() != null) {
      double seconds = (System.nanoTime() - start) / 1e9;
      System.err.printf("\rread %,d rows (%,.0f rows/s)", rows, rows / seconds);
    }
  }
}
