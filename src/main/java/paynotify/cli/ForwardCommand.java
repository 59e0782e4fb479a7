package paynotify.cli;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import paynotify.store.SqlQueries;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** forward: the outbox of events for the site (forward_events), to look at and to replay. */
@Command(name = "forward", mixinStandardHelpOptions = true,
    subcommands = {ForwardCommand.ListCommand.class, ForwardCommand.RetryCommand.class},
    description = "List the events forwarded to the site, or requeue failed ones.")
final class ForwardCommand extends ParentCommand {
  @Command(name = "list", mixinStandardHelpOptions = true, description = "Newest first, one line per event.")
  static final class ListCommand extends RowListing {
    @Option(names = "--failed", description = "only the failed ones (delivery gave up: `forward retry` requeues them)")
    boolean failed;

    @Option(names = "--order", description = "only the events of this order")
    String order;

    ListCommand() {
      super(SqlQueries.LIST_FORWARD_EVENTS, "events", "failed");
    }

    @Override
    boolean flag() {
      return failed;
    }

    @Override
    String value() {
      return order;
    }

    @Override
    void print(ResultSet rs) throws SQLException {
      String state = rs.getString("state");
      // a delivered event is due never: when it was delivered says more
      String when = state.equals("delivered") ? "delivered " + time(rs.getTimestamp("delivered_at"))
          : "next " + time(rs.getTimestamp("next_attempt_at"));
      String orderNo = rs.getString("order_no");
      String error = rs.getString("last_error");
      out().printf("#%-6d %s  %-17s %-9s %2d attempts  %-29s order %s%s%n", rs.getLong("id"),
          rs.getString("event_id"), rs.getString("type"), state, rs.getInt("attempts"), when,
          orderNo == null ? "-" : orderNo, error == null ? "" : "  last error: " + error.replaceAll("\\s+", " "));
    }
  }

  @Command(name = "retry", mixinStandardHelpOptions = true,
      description = "Requeue a failed event (pending, attempts 0, due now), or all of them. Running it again "
          + "changes nothing more. Exit 0: requeued or nothing to do; 2: no such event.")
  static final class RetryCommand extends CommandSupport {
    @ArgGroup(exclusive = true, multiplicity = "1")
    Target target;

    static final class Target {
      @Parameters(index = "0", paramLabel = "ID", description = "the event: #N of the list, or its evt_ id")
      String id;

      @Option(names = "--all-failed", description = "every failed event")
      boolean allFailed;
    }

    @Override
    int run() throws Exception {
      try (CliDatabase db = CliDatabase.open(config); Connection conn = db.connect()) {
        if (target.allFailed) {
          try (PreparedStatement all = conn.prepareStatement(SqlQueries.REQUEUE_ALL_FAILED_EVENTS)) {
            int n = all.executeUpdate();
            out().println(n == 0 ? "no failed events: nothing to do" : "requeued " + n + " failed events");
            out().flush();
            return 0;
          }
        }
        Long id = id(conn);
        if (id == null) {
          return fail(ExitCode.UNUSABLE, "no forward event " + target.id);
        }
        try (PreparedStatement requeue = conn.prepareStatement(SqlQueries.REQUEUE_FAILED_EVENT)) {
          requeue.setLong(1, id);
          if (requeue.executeUpdate() == 1) {
            out().println("event #" + id + " requeued: pending, due now");
            out().flush();
            return 0;
          }
        }
        // Not failed (or no such id): read after the UPDATE, so what it says is why nothing changed.
        try (PreparedStatement find = conn.prepareStatement(SqlQueries.FIND_FORWARD_EVENT)) {
          find.setLong(1, id);
          try (ResultSet rs = find.executeQuery()) {
            if (!rs.next()) {
              return fail(ExitCode.UNUSABLE, "no forward event " + target.id);
            }
            String state = rs.getString("state");
            out().println("event #" + id + " is " + state + (state.equals("pending")
                ? " (" + rs.getInt("attempts") + " attempts, next " + time(rs.getTimestamp("next_attempt_at")) + ")"
                : "") + ": nothing to do");
            out().flush();
            return 0;
          }
        }
      }
    }

    /** The row's id: #N as given, or that of an evt_ id; null when there is no such event. */
    private Long id(Connection conn) throws Exception {
      if (target.id.matches("#?\\d{1,18}")) {
        return Long.parseLong(target.id.replace("#", ""));
      }
      try (PreparedStatement find = conn.prepareStatement(SqlQueries.FORWARD_EVENT_ID)) {
        find.setString(1, target.id);
        try (ResultSet rs = find.executeQuery()) {
          return rs.next() ? rs.getLong(1) : null;
        }
      }
    }
  }

  private static String time(Timestamp t) {
    return t == null ? "-" : t.toLocalDateTime().withNano(0).toString().replace('T', ' ');
  }
}
