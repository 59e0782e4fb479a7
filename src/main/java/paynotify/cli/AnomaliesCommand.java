package paynotify.cli;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import paynotify.channel.Money;
import paynotify.store.SqlQueries;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** anomalies: what needs a human, and the record that someone looked. */
@Command(name = "anomalies", mixinStandardHelpOptions = true,
    subcommands = {AnomaliesCommand.ListCommand.class, AnomaliesCommand.ResolveCommand.class},
    description = "List anomalies, or mark one resolved with a note.")
final class AnomaliesCommand extends ParentCommand {
  @Command(name = "list", mixinStandardHelpOptions = true, description = "Oldest first.")
  static final class ListCommand extends RowListing {
    @Option(names = "--open", description = "only the unresolved ones")
    boolean open;

    @Option(names = "--kind", description = "only this kind (e.g. amount_mismatch, missing_local, over_refund)")
    String kind;

    ListCommand() {
      super(SqlQueries.LIST_ANOMALIES, "anomalies", "open");
    }

    @Override
    boolean flag() {
      return open;
    }

    @Override
    String value() {
      return kind;
    }

    @Override
    void print(ResultSet rs) throws SQLException {
      Object cents = rs.getObject("amount_cents");
      out().printf("#%d  %s  %-22s %-7s order %s  trade %s  %s%n    %s%n", rs.getLong("id"),
          rs.getTimestamp("created_at").toLocalDateTime().withNano(0), rs.getString("kind"),
          rs.getString("channel"), rs.getString("order_no"), rs.getString("trade_no"),
          cents == null ? "" : Money.format(((Number) cents).longValue()), rs.getString("detail"));
      if (rs.getTimestamp("resolved_at") != null) {
        out().printf("    resolved %s: %s%n", rs.getTimestamp("resolved_at").toLocalDateTime().withNano(0),
            rs.getString("resolution_note"));
      }
    }
  }

  @Command(name = "resolve", mixinStandardHelpOptions = true, description = "Mark an anomaly resolved, with a note.")
  static final class ResolveCommand extends CommandSupport {
    @Parameters(index = "0", description = "the anomaly's id (#N in the list)")
    long id;

    @Option(names = "--note", required = true, description = "what was done about it")
    String note;

    @Override
    int run() throws Exception {
      try (CliDatabase db = CliDatabase.open(config);
          Connection conn = db.connect();
          PreparedStatement resolve = conn.prepareStatement(SqlQueries.RESOLVE_ANOMALY);
          PreparedStatement exists = conn.prepareStatement(SqlQueries.ANOMALY_EXISTS)) {
        resolve.setString(1, note);
        resolve.setLong(2, id);
        if (resolve.executeUpdate() == 1) {
          out().println("anomaly #" + id + " resolved");
          out().flush();
          return 0;
        }
        exists.setLong(1, id);
        try (ResultSet rs = exists.executeQuery()) {
          return fail(ExitCode.FOUND, rs.next() ? "anomaly #" + id + " was already resolved" : "no anomaly #" + id);
        }
      }
    }
  }
}
