package paynotify.cli;

import java.sql.Connection;
import paynotify.reconcile.Reconciliation;
import paynotify.reconcile.Report;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** audit: the duplicate queries alone, for a quick daily check. */
@Command(name = "audit", mixinStandardHelpOptions = true,
    description = "Trades booked more than once and orders paid by more than one trade. Exit 0: nothing "
        + "found; 1: findings; 3: database failure.")
final class AuditCommand extends CommandSupport {
  @Mixin
  ReportOptions reportOptions;

  @Override
  int run() throws Exception {
    try (CliDatabase db = CliDatabase.open(config);
        Connection conn = db.connect();
        Connection recording = reportOptions.recording(db);
        Report report = reportOptions.report(out(), recording)) {
      new Reconciliation(conn).audit(report);
      return report.finish() == 0 ? 0 : ExitCode.FOUND;
    }
  }
}
