package paynotify.cli;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.function.Function;
import paynotify.channel.BillSource;
import paynotify.channel.PlatformTime;
import paynotify.cli.options.BillOptions;
import paynotify.config.BillsConfig;
import paynotify.net.OutboundHttp;
import paynotify.reconcile.Bill;
import paynotify.reconcile.BillArchive;
import paynotify.reconcile.BillFormatException;
import paynotify.reconcile.Reconciliation;
import paynotify.reconcile.Report;
import paynotify.reconcile.daily.DayClose;
import paynotify.server.PayNotifyServer;
import paynotify.server.StandaloneBooking;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * reconcile: its arguments checked, then a bill file reconciled or a day's bill fetched and closed ({@link DayClose})
 * on connections of the command's own; exit 0 clean, 1 findings, 2 unusable bill, 4 not made yet.
 */
@Command(name = "reconcile", mixinStandardHelpOptions = true,
    description = "Compare a platform bill with what is booked here, payments and refunds, both directions "
        + "and amounts, for the bill's channel and window; then the duplicate audit for the same channel and "
        + "window. Exit 0: nothing found; 1: findings; 2: unusable, missing or unreadable bill, or configuration; "
        + "3: database failure; 4 (--fetch): the platform has not made the day's bill yet.")
final class ReconcileCommand extends CommandSupport {
  @Mixin
  BillOptions billOptions;

  @Mixin
  ReportOptions reportOptions;

  @Option(names = "--verbose", description = "how long each step took, on stderr")
  boolean verbose;

  @Option(names = "--fetch", description = "ask the platform for the bill of --date (default yesterday, Beijing"
      + " time) instead of --bill, keep it under reconcile.bills_dir, and reconcile it; exit 4 when the platform"
      + " has not made it yet")
  boolean fetch;

  @Option(names = "--repair", paramLabel = "missing_local", description = "with --fetch: book each payment the bill"
      + " shows and nothing here booked, whose order waits unpaid for exactly its amount, as its notification would"
      + " have been (what reconcile.daily.auto_repair does); every other finding is left for a human")
  String repair;

  @Override
  int run() throws Exception {
    if (fetch == (billOptions.file != null)) {
      return fail(ExitCode.UNUSABLE, "give either --bill FILE or --fetch");
    }
    if (repair != null && !"missing_local".equals(repair)) {
      return fail(ExitCode.UNUSABLE, "--repair: '" + repair + "': the only repair is missing_local");
    }
    if (repair != null && !fetch) {
      return fail(ExitCode.UNUSABLE, "--repair books only from a bill fetched from the platform (--fetch): a bill"
          + " file is as good as whoever handed it over; book its rows one by one with repair book");
    }
    if (!fetch) {
      Bill bill = billOptions.bill();
      try (CliDatabase db = CliDatabase.open(config)) {
        return exit(DayClose.given(bill, billOptions.file.toString(), work -> atDesk(db, work)));
      }
    }
    LocalDate today = LocalDate.now(PlatformTime.BEIJING);
    LocalDate day = billOptions.date != null ? billOptions.date : today.minusDays(1);
    if (!day.isBefore(today)) {
      return fail(ExitCode.UNUSABLE, "--date " + day + ": a day's bill exists once the day is over (Beijing time);"
          + " yesterday is " + today.minusDays(1));
    }
    try (CliDatabase db = CliDatabase.open(config)) {
      BillsConfig bills = db.config().bills();
      Function<OutboundHttp, BillSource> source = bills.sources().get(billOptions.platform());
      if (source == null) {
        return fail(ExitCode.UNUSABLE, "--fetch: no " + billOptions.channel + " bill can be fetched: "
            + BillsConfig.needs(billOptions.platform()) + " (docs/operations.md, reconcile)");
      }
      return exit(new DayClose(billOptions.platform(), day).run(source,
          new BillArchive(bills.dir(), bills.keep().toDays()), work -> atDesk(db, work)));
    }
  }

  /** The close's connections (three, and one to record on), report and, with --repair, booking, for its work. */
  private DayClose.Outcome atDesk(CliDatabase db, DayClose.Work work)
      throws IOException, SQLException, BillFormatException {
    try (Connection conn = db.connect();
        Connection bookings = db.connect();
        Connection side = db.connect();
        Connection recording = reportOptions.recording(db);
        Report report = reportOptions.report(out(), recording);
        StandaloneBooking booking = repair == null ? null : new StandaloneBooking(db.settings(), db.config());
        PlatformClients clients = booking == null ? null : PlatformClients.confirming(booking.vertx(), db.config())) {
      Reconciliation reconciliation = new Reconciliation(conn, bookings, side, db.config().orders())
          .timed(verbose ? phase -> System.err.println("paynotify: " + phase) : phase -> { });
      DayClose.AutoRepair repairs = booking == null ? null : new DayClose.AutoRepair(booking.booking(),
          booking.stores(), PayNotifyServer.outbox(db.config()), clients.of(billOptions.platform()),
          db.config().orders(), db.config().recovery().settings().createdAt());
      long start = System.nanoTime();
      return work.at(new DayClose.Desk(reconciliation, report, repairs, rows -> progress(rows, start)));
    }
  }

  /** 0 clean, 1 findings; a close stopped before reporting: 4 when the bill is not made yet, else 2, saying why. */
  private int exit(DayClose.Outcome outcome) {
    if (outcome.stopped() != null) {
      return fail(outcome.notReady() ? ExitCode.NOT_READY : ExitCode.UNUSABLE, outcome.stopped());
    }
    return outcome.findings() == 0 ? 0 : ExitCode.FOUND;
  }

  /** Rows read and rate on stderr, when a person is watching. */
  private static void progress(long rows, long start) {
    if (System.console() != null) {
      double seconds = (System.nanoTime() - start) / 1e9;
      System.err.printf("\rread %,d rows (%,.0f rows/s)", rows, rows / seconds);
    }
  }
}
