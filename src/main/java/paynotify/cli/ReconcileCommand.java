package paynotify.cli;

import java.io.IOException;
import java.sql.Connection;
import java.time.LocalDate;
import java.util.function.Function;
import paynotify.channel.BillSource;
import paynotify.channel.PlatformTime;
import paynotify.config.BillsConfig;
import paynotify.net.OutboundFailure;
import paynotify.net.OutboundHttp;
import paynotify.reconcile.Bill;
import paynotify.reconcile.BillArchive;
import paynotify.reconcile.DayWithoutTrades;
import paynotify.reconcile.Reconciliation;
import paynotify.reconcile.Report;
import paynotify.reconcile.daily.BillRepair;
import paynotify.reconcile.daily.FetchedBill;
import paynotify.server.PayNotifyServer;
import paynotify.server.StandaloneBooking;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** reconcile: a platform bill against the bookings; exit 0 clean, 1 findings, 2 unusable bill, 4 not made yet. */
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
      return reconcile(billOptions.bill(), billOptions.file.toString(), null);
    }
    LocalDate today = LocalDate.now(PlatformTime.BEIJING);
    LocalDate day = billOptions.date != null ? billOptions.date : today.minusDays(1);
    if (!day.isBefore(today)) {
      return fail(ExitCode.UNUSABLE, "--date " + day + ": a day's bill exists once the day is over (Beijing time);"
          + " yesterday is " + today.minusDays(1));
    }
    FetchedBill fetched;
    try (CliDatabase db = CliDatabase.open(config)) {
      BillsConfig bills = db.config().bills();
      Function<OutboundHttp, BillSource> source = bills.sources().get(billOptions.platform());
      if (source == null) {
        return fail(ExitCode.UNUSABLE, "--fetch: no " + billOptions.channel + " bill can be fetched: "
            + BillsConfig.needs(billOptions.platform()) + " (docs/operations.md, reconcile)");
      }
      fetched = FetchedBill.fetch(source, new BillArchive(bills.dir(), bills.keep().toDays()), billOptions.channel,
          day);
    } catch (OutboundFailure e) {
      return fail(e.kind() == OutboundFailure.Kind.NOT_READY ? ExitCode.NOT_READY : ExitCode.UNUSABLE,
          "--fetch: " + e.getMessage());
    } catch (IOException e) {
      return fail(ExitCode.UNUSABLE, "--fetch: the bill could not be kept: " + e.getMessage()
          + " (reconcile.bills_dir must be writable)");
    }
    return fetched.file() == null
        ? reconcile(new DayWithoutTrades(billOptions.platform(), day), "(no trades on " + day + ", as the platform says)",
            day)
        : reconcile(billOptions.bill(fetched.file(), day), fetched.file().toString(), day);
  }

  /** @param day the day the bill must cover (a fetched one), null: whatever the file says (--bill) */
  private int reconcile(Bill platformBill, String billName, LocalDate day) throws Exception {
    try (CliDatabase db = CliDatabase.open(config);
        Connection conn = db.connect();
        Connection bookings = db.connect();
        Connection side = db.connect();
        Connection recording = reportOptions.recording(db);
        Report report = reportOptions.report(out(), recording);
        StandaloneBooking booking = repair == null ? null : new StandaloneBooking(db.settings(), db.config());
        PlatformClients clients = booking == null ? null : PlatformClients.confirming(booking.vertx(), db.config())) {
      Reconciliation reconciliation = new Reconciliation(conn, bookings, side, db.config().orders())
          .timed(verbose ? phase -> System.err.println("paynotify: " + phase) : phase -> { });
      long start = System.nanoTime();
      Bill.Summary read = reconciliation.load(platformBill, rows -> progress(rows, start));
      if (day != null && (!read.from().equals(day.atStartOfDay()) || !read.to().equals(day.plusDays(1).atStartOfDay()))) {
        return fail(ExitCode.UNUSABLE, billName + " covers " + read.from() + " to " + read.to() + ", not the day asked"
            + " for (" + day + "): not reconciled");
      }
      report.bill(platformBill.platform().code(), billName, read);
      BillRepair repairs = booking == null ? null : new BillRepair(report, booking.booking(), booking.stores(),
          PayNotifyServer.outbox(db.config()), clients.of(platformBill.platform()), db.config().orders(),
          db.config().recovery().settings().createdAt(), platformBill.platform(), day);
      reconciliation.compare(platformBill.platform().code(), read, repairs == null ? report : repairs);
      if (repairs != null) {
        repairs.repair();
      }
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
