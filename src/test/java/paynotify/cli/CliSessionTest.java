package paynotify.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.Cli;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.ServerSetting;

/** The tools' sessions (reconcile, audit, anomalies) are pinned like the service's, whatever the server's defaults. */
class CliSessionTest extends DatabaseTestBase {
  @Test
  void toolSessionsArePinned() throws Exception {
    try (ServerSetting rc = ServerSetting.isolation(db, "READ-COMMITTED");
        ServerSetting lax = ServerSetting.set(db, "sql_mode", "");
        ServerSetting utc = ServerSetting.set(db, "time_zone", "+00:00");
        CliDatabase cli = CliDatabase.open(Cli.config());
        Connection conn = cli.connect();
        ResultSet rs = conn.createStatement().executeQuery("SELECT @@sql_mode,"
            + " (SELECT COUNT(*) FROM information_schema.SESSION_VARIABLES"
            + "  WHERE VARIABLE_NAME IN ('TX_ISOLATION', 'TRANSACTION_ISOLATION') AND VARIABLE_VALUE = 'REPEATABLE-READ'), @@time_zone")) {
      rs.next();
      assertThat(rs.getString(1)).startsWith("STRICT_ALL_TABLES");
      assertThat(rs.getLong(2)).isPositive();
      assertThat(rs.getString(3)).isEqualTo("+08:00");
    }
  }
}
