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

  private final String statement;
  private final String noun;
  private final String flagWord;

  /**
   * @param statement its binds: the flag, the value twice (null for any), the limit
   * @param noun      what is listed, e.g. {@code anomalies}
   * @param flagWord  what the flag says of them, e.g. {@code open}
   */
  RowListing(String statement, String noun, String flagWord) {
    this.statement = statement;
    this.noun = noun;
    this.flagWord = flagWord;
  }

  abstract boolean flag();

  abstract String value();

  abstract void print(ResultSet row) throws SQLException;

  @Override
  final int run() throws Exception {
    try (CliDatabase db = CliDatabase.open(config);
        Connection conn = db.connect();
        PreparedStatement list = conn.prepareStatement(statement)) {
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
      out().println(n == 0 ? "no " + noun + (flag() ? " " + flagWord : "") : n + " " + noun);
      out().flush();
      return 0;
    }
  }
}
