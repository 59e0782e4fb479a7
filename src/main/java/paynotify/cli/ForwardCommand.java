package paynotify.cli;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import paynotify.config.ConfigException;
import paynotify.forward.ForwardSettings;
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
      out().printf("#%-6d %s  %-10s %-17s %-9s %2d attempts  %-29s order %s%s%n", rs.getLong("id"),
          rs.getString("event_id"), rs.getString("endpoint"), rs.getString("type"), state, rs.getInt("attempts"), when,
          orderNo == null ? "-" : orderNo, error == null ? "" : "  last error: " + error.replaceAll("\\s+", " "));
    }
  }

  @Command(name = "retry", mixinStandardHelpOptions = true,
      description = "Requeue a failed event (pending, attempts 0, due now: #N is one endpoint's, an evt_ id every"
          + " endpoint's), or all of them. Running it again changes nothing more. Exit 0: requeued or nothing to do;"
          + " 2: no such event.")
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
        List<Long> ids = rowIds(conn, target.id);
        if (ids.isEmpty()) {
          return fail(ExitCode.UNUSABLE, "no forward event " + target.id);
        }
        for (long id : ids) {
          retry(conn, id);
        }
        out().flush();
        return 0;
      }
    }

    private void retry(Connection conn, long id) throws SQLException {
      try (PreparedStatement requeue = conn.prepareStatement(SqlQueries.REQUEUE_FAILED_EVENT)) {
        requeue.setLong(1, id);
        if (requeue.executeUpdate() == 1) {
          out().println("event #" + id + " requeued: pending, due now");
          return;
        }
      }
      // Not failed: read after the UPDATE, so what it says is why nothing changed.
      try (PreparedStatement find = conn.prepareStatement(SqlQueries.FIND_FORWARD_EVENT)) {
        find.setLong(1, id);
        try (ResultSet rs = find.executeQuery()) {
          if (rs.next()) {
            String state = rs.getString("state");
            out().println("event #" + id + " (" + rs.getString("endpoint") + ") is " + state
                + (state.equals("pending") ? " (" + rs.getInt("attempts") + " attempts, next "
                + time(rs.getTimestamp("next_attempt_at")) + ")" : "") + ": nothing to do");
          }
        }
      }
    }
  }

  @Command(name = "replay", mixinStandardHelpOptions = true,
      description = "Send events again, delivered ones too, with the same id and body: the site dedupes on the id"
          + " (webhook-id). Pending ones are left as they are (they are being sent). Exit 0: sent again, or"
          + " nothing to send; 2: no such event.")
  static final class ReplayCommand extends CommandSupport {
    @ArgGroup(exclusive = true, multiplicity = "1")
    Which which;

    @Option(names = "--endpoint", paramLabel = "NAME", description = "only to this endpoint (default: to each"
        + " endpoint the events were written for)")
    String endpoint;

    static final class Which {
      @Option(names = "--event", paramLabel = "ID", description = "one event: #N of the list (one endpoint's), or"
          + " its evt_ id")
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
        String unknown = unknownEndpoint(db, conn, endpoint);
        if (unknown != null) {
          return fail(ExitCode.UNUSABLE, unknown);
        }
        boolean row = which.event != null && which.event.matches(ROW);
        List<Long> ids = which.event == null ? List.of() : rowIds(conn, which.event);
        if (which.event != null && ids.isEmpty()) {
          return fail(ExitCode.UNUSABLE, "no forward event " + which.event);
        }
        String rowsEndpoint = row ? endpointOf(conn, ids.get(0)) : null;
        if (row && endpoint != null && !endpoint.equals(rowsEndpoint)) {
          return fail(ExitCode.UNUSABLE, "event " + which.event + " is endpoint " + rowsEndpoint + "'s, not "
              + endpoint + "'s (its evt_ id names every endpoint's)");
        }
        PreparedStatement replay;
        if (which.event != null) {
          replay = conn.prepareStatement(row ? SqlQueries.REPLAY_EVENT : SqlQueries.REPLAY_EVENT_ID);
          if (row) {
            replay.setLong(3, ids.get(0));
          } else {
            replay.setString(3, which.event);
          }
        } else if (which.order != null) {
          replay = conn.prepareStatement(SqlQueries.REPLAY_ORDER_EVENTS);
          replay.setString(3, which.order);
        } else {
          replay = conn.prepareStatement(SqlQueries.REPLAY_EVENTS_CREATED);
          replay.setTimestamp(3, Timestamp.valueOf(time("--since", which.range.since)));
          replay.setTimestamp(4, Timestamp.valueOf(which.range.until == null ? LocalDateTime.of(9999, 1, 1, 0, 0)
              : time("--until", which.range.until)));
        }
        replay.setString(1, endpoint);
        replay.setString(2, endpoint);
        int n;
        try (replay) {
          n = replay.executeUpdate();
        }
        if (n == 0 && which.event != null) { // read after the UPDATE: why nothing moved
          boolean any = false;
          for (long id : ids) {
            try (PreparedStatement find = conn.prepareStatement(SqlQueries.FIND_FORWARD_EVENT)) {
              find.setLong(1, id);
              try (ResultSet rs = find.executeQuery()) {
                if (rs.next() && (endpoint == null || endpoint.equals(rs.getString("endpoint")))) {
                  any = true;
                  out().println("event #" + id + " (" + rs.getString("endpoint") + ") is " + rs.getString("state")
                      + ": it is being sent already");
                }
              }
            }
          }
          if (!any) {
            return fail(ExitCode.UNUSABLE, "event " + which.event + " was not written for endpoint " + endpoint);
          }
          out().flush();
          return 0;
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
      description = "Send to an endpoint again after it was disabled (it answered 410 Gone, or refused events 4xx"
          + " in a row: fix its URL or the receiver first): the events waiting go at once. Exit 0 either way.")
  static final class EnableCommand extends CommandSupport {
    @Option(names = "--endpoint", paramLabel = "NAME", description = "this endpoint only (default: every disabled"
        + " one)")
    String endpoint;

    @Override
    int run() throws Exception {
      try (CliDatabase db = CliDatabase.open(config); Connection conn = db.connect();
          PreparedStatement enable = conn.prepareStatement(SqlQueries.ENABLE_ENDPOINTS)) {
        String unknown = unknownEndpoint(db, conn, endpoint);
        if (unknown != null) {
          return fail(ExitCode.UNUSABLE, unknown);
        }
        enable.setString(1, endpoint);
        enable.setString(2, endpoint);
        int n = enable.executeUpdate();
        out().println(n == 0 ? "not disabled: nothing to do"
            : "enabled " + n + " endpoint" + (n == 1 ? "" : "s") + ": the events waiting are sent now");
        out().flush();
        return 0;
      }
    }
  }

  /**
   * Why {@code --endpoint name} names nothing (a typo would otherwise just find "nothing to do"): neither configured
   * nor named by any event or endpoint row; null when it names something, or when none was given.
   */
  private static String unknownEndpoint(CliDatabase db, Connection conn, String name) throws SQLException {
    if (name == null) {
      return null;
    }
    ForwardSettings forward = db.config().forward();
    List<String> configured = forward == null ? List.of() : forward.endpoints().stream().map(e -> e.name()).toList();
    if (configured.contains(name)) {
      return null;
    }
    try (PreparedStatement known = conn.prepareStatement(SqlQueries.ENDPOINT_KNOWN)) {
      known.setString(1, name);
      known.setString(2, name);
      try (ResultSet rs = known.executeQuery()) {
        return rs.next() ? null : "no endpoint " + name + " (configured: " + (configured.isEmpty() ? "none"
            : String.join(", ", configured)) + ")";
      }
    }
  }

  private static String endpointOf(Connection conn, long id) throws SQLException {
    try (PreparedStatement find = conn.prepareStatement(SqlQueries.FIND_FORWARD_EVENT)) {
      find.setLong(1, id);
      try (ResultSet rs = find.executeQuery()) {
        return rs.next() ? rs.getString("endpoint") : null;
      }
    }
  }

  /** #N as given: one endpoint's row. */
  private static final String ROW = "#?\\d{1,18}";

  /** The rows an id names: #N (if it exists), or each endpoint's row of an evt_ id; empty when none. */
  private static List<Long> rowIds(Connection conn, String event) throws SQLException {
    boolean row = event.matches(ROW);
    try (PreparedStatement find = conn.prepareStatement(row ? SqlQueries.FIND_FORWARD_EVENT
        : SqlQueries.FORWARD_EVENT_ID)) {
      if (row) {
        find.setLong(1, Long.parseLong(event.replace("#", "")));
      } else {
        find.setString(1, event);
      }
      List<Long> ids = new ArrayList<>();
      try (ResultSet rs = find.executeQuery()) {
        while (rs.next()) {
          ids.add(rs.getLong("id"));
        }
      }
      return ids;
    }
  }

  private static String time(Timestamp t) {
    return t == null ? "-" : t.toLocalDateTime().withNano(0).toString().replace('T', ' ');
  }
}
