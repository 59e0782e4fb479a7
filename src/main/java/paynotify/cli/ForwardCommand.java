package paynotify.cli;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import paynotify.config.ConfigException;
import paynotify.store.SqlQueries;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** forward: the outbox of events for the site (forward_events), to look at and to replay. */
@Command(name = "forward", mixinStandardHelpOptions = true,
    subcommands = {ForwardCommand.ListCommand.class, ForwardCommand.RetryCommand.class,
        ForwardCommand.ReplayCommand.class, ForwardCommand.EnableCommand.class},
    description = "List the events forwarded to the site, requeue failed ones, or send delivered ones again.")
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

    private Long id(Connection conn) throws Exception {
      return rowId(conn, target.id);
    }
  }

  @Command(name = "replay", mixinStandardHelpOptions = true,
      description = "Send events again, delivered ones too, with the same id and body: the site dedupes on the id"
          + " (webhook-id). Pending ones are left as they are (they are being sent). Exit 0: sent again, or"
          + " nothing to send; 2: no such event.")
  static final class ReplayCommand extends CommandSupport {
    @ArgGroup(exclusive = true, multiplicity = "1")
    Which which;

    static final class Which {
      @Option(names = "--event", paramLabel = "ID", description = "one event: #N of the list, or its evt_ id")
      String event;

      @Option(names = "--order", description = "every event of this order")
      String order;

      @ArgGroup(exclusive = false)
      Range range;
    }

    static final class Range {
      @Option(names = "--since", required = true, paramLabel = "TIME",
          description = "events written from this time on (database.time_zone): 2026-12-05 or 2026-12-05T10:00")
      String since;

      @Option(names = "--until", paramLabel = "TIME", description = "... and before this time (default: now)")
      String until;
    }

    @Override
    int run() throws Exception {
      try (CliDatabase db = CliDatabase.open(config); Connection conn = db.connect()) {
        PreparedStatement replay;
        if (which.event != null) {
          Long id = rowId(conn, which.event);
          if (id == null) {
            return fail(ExitCode.UNUSABLE, "no forward event " + which.event);
          }
          replay = conn.prepareStatement(SqlQueries.REPLAY_EVENT);
          replay.setLong(1, id);
        } else if (which.order != null) {
          replay = conn.prepareStatement(SqlQueries.REPLAY_ORDER_EVENTS);
          replay.setString(1, which.order);
        } else {
          replay = conn.prepareStatement(SqlQueries.REPLAY_EVENTS_CREATED);
          replay.setTimestamp(1, Timestamp.valueOf(time("--since", which.range.since)));
          replay.setTimestamp(2, Timestamp.valueOf(which.range.until == null ? LocalDateTime.of(9999, 1, 1, 0, 0)
              : time("--until", which.range.until)));
        }
        int n;
        try (replay) {
          n = replay.executeUpdate();
        }
        if (n == 0 && which.event != null) { // read after the UPDATE: why nothing moved
          try (PreparedStatement find = conn.prepareStatement(SqlQueries.FIND_FORWARD_EVENT)) {
            find.setLong(1, rowId(conn, which.event));
            try (ResultSet rs = find.executeQuery()) {
              if (!rs.next()) {
                return fail(ExitCode.UNUSABLE, "no forward event " + which.event);
              }
              out().println("event " + which.event + " is " + rs.getString("state") + ": it is being sent already");
              out().flush();
              return 0;
            }
          }
        }
        out().println(n == 0 ? "nothing to send again (only delivered and failed events are; purged ones are gone)"
            : "sending " + n + " event" + (n == 1 ? "" : "s") + " again: pending, due now");
        out().flush();
        return 0;
      }
    }

    private static LocalDateTime time(String option, String value) {
      try {
        return value.length() == 10 ? LocalDate.parse(value).atStartOfDay()
            : LocalDateTime.parse(value.replace(' ', 'T'));
      } catch (DateTimeParseException e) {
        throw new ConfigException(option + ": '" + value + "' is not a date (2026-12-05) or a time (2026-12-05T10:00)");
      }
    }
  }

  @Command(name = "enable", mixinStandardHelpOptions = true,
      description = "Send to the site's endpoint again after it answered 410 Gone (fix forward.url or the site's"
          + " receiver first): the events waiting go at once. Exit 0 either way.")
  static final class EnableCommand extends CommandSupport {
    @Override
    int run() throws Exception {
      try (CliDatabase db = CliDatabase.open(config); Connection conn = db.connect();
          PreparedStatement enable = conn.prepareStatement(SqlQueries.ENABLE_ENDPOINT)) {
        out().println(enable.executeUpdate() == 1 ? "enabled: the events waiting are sent now"
            : "not disabled: nothing to do");
        out().flush();
        return 0;
      }
    }
  }

  /** The row's id: #N as given, or that of an evt_ id; null when there is no such event. */
  private static Long rowId(Connection conn, String event) throws Exception {
    if (event.matches("#?\\d{1,18}")) {
      return Long.parseLong(event.replace("#", ""));
    }
    try (PreparedStatement find = conn.prepareStatement(SqlQueries.FORWARD_EVENT_ID)) {
      find.setString(1, event);
      try (ResultSet rs = find.executeQuery()) {
        return rs.next() ? rs.getLong(1) : null;
      }
    }
  }

  private static String time(Timestamp t) {
    return t == null ? "-" : t.toLocalDateTime().withNano(0).toString().replace('T', ' ');
  }
}
