package paynotify.cli;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import picocli.CommandLine.Option;

/**
 * A {@code list} subcommand: one statement filtered by a flag and an optional value, a line or two per row,
 * then how many there were.
 */
abstract class RowListing extends CommandSupport {
  @Option(names = "--limit", defaultValue = "200", description = "at most this many (default: ${DEFAULT-VALUE})")
  int limit;

  /** The statement; its binds: the flag, the value twice (null for any), the limit. */
  abstract String statement();

  abstract boolean flag();

  abstract String value();

  abstract void print(ResultSet row) throws SQLException;

  /** What is listed, e.g. {@code anomalies}, and what the flag says of them, e.g. {@code open}. */
  abstract String noun();

  abstract String flagWord();

  @Override
  final int run() throws Exception {
    try (CliDatabase db = CliDatabase.open(config);
        Connection conn = db.connect();
        PreparedStatement list = conn.prepareStatement(statement())) {
      list.setBoolean(1, flag());
      list.setString(2, value());
      list.setString(3, value());
      list.setInt(4, limit);
      int n = 0;
      try (ResultSet rs = list.executeQuery()) {
        while (rs.next()) {
          n++;
          print(rs);
        }
      }
      out().println(n == 0 ? "no " + noun() + (flag() ? " " + flagWord() : "") : n + " " + noun());
      out().flush();
      return 0;
    }
  }
}
