package paynotify.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import paynotify.reconcile.Report;
import picocli.CommandLine.Option;

/** How a command reports its findings: {@code --json}, {@code --record}. */
final class ReportOptions {
  @Option(names = "--json", description = "one JSON document instead of text lines")
  boolean json;

  @Option(names = "--record", description = "store each finding as an anomaly (once: re-running adds nothing)")
  boolean record;

  /** A connection of its own for recording, or null when findings are only printed. */
  Connection recording(CliDatabase db) throws SQLException {
    return record ? db.connect() : null;
  }

  Report report(PrintWriter out, Connection recording) throws IOException, SQLException {
    return new Report(out, json, recording);
  }
}
