package paynotify.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.mysqlclient.MySQLException;
import io.vertx.sqlclient.ClosedConnectionException;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** Which errors say the database refuses writes, and the reason the owner reads for each. */
class DbErrorsTest {
  static MySQLException error(int code, String message) {
    return new MySQLException(message, code, "HY000");
  }

  @Test
  void aFullDiskIsSaidWithItsCode() {
    assertThat(DbErrors.refusal(error(1114, "The table 'idempotent_keys' is full"))).isEqualTo("disk full (1114)");
    assertThat(DbErrors.refusal(error(1021, "Disk full (./paynotify/); waiting for someone to free some space...")))
        .isEqualTo("disk full (1021)");
    assertThat(DbErrors.refusal(error(3, "Error writing file './binlog.000003' (Errcode: 28)")))
        .isEqualTo("disk full (3)");
    assertThat(DbErrors.refusal(error(1030, "Got error 28 \"No space left on device\" from storage engine InnoDB")))
        .isEqualTo("disk full (1030)");
    assertThat(DbErrors.refusal(new IOException("No space left on device")))
        .isEqualTo("disk full (no space left on device)");
  }

  @Test
  void writeAndCommitErrorsAreAFullDiskOnlyWithErrno28() {
    assertThat(DbErrors.refusal(error(1026, "Error writing file './ib_logfile0' (errno: 28 \"No space left on device\")")))
        .isEqualTo("disk full (1026)");
    assertThat(DbErrors.refusal(error(1180, "Got error 28 \"No space left on device\" during COMMIT")))
        .isEqualTo("disk full (1180)");
    assertThat(DbErrors.refusal(error(1878, "Temporary file write failure: errno: 28"))).isEqualTo("disk full (1878)");
    assertThat(DbErrors.refusal(error(1026, "Error writing file './x' (errno: 5 \"Input/output error\")"))).isNull();
    assertThat(DbErrors.refusal(error(1180, "Got error 280 during COMMIT"))).isNull();
    assertThat(DbErrors.refusal(error(1878, "Temporary file write failure"))).isNull();
  }

  @Test
  void readOnlyTooManyConnectionsAndOutOfMemory() {
    assertThat(DbErrors.refusal(error(1290, "The MariaDB server is running with the --read-only option")))
        .isEqualTo("read-only (1290)");
    assertThat(DbErrors.refusal(error(1836, "Running in read-only mode"))).isEqualTo("read-only (1836)");
    assertThat(DbErrors.refusal(error(1792, "Cannot execute statement in a READ ONLY transaction")))
        .isEqualTo("read-only (1792)");
    assertThat(DbErrors.refusal(error(1040, "Too many connections"))).isEqualTo("too many connections (1040)");
    assertThat(DbErrors.refusal(error(1037, "Out of memory; restart server"))).isEqualTo("out of memory (1037)");
    assertThat(DbErrors.refusal(error(1041, "Out of memory; check if mysqld"))).isEqualTo("out of memory (1041)");
  }

  @Test
  void aBadStatementALostRaceOrADeadServerIsNoRefusal() {
    assertThat(DbErrors.refusal(error(1062, "Duplicate entry"))).isNull();
    assertThat(DbErrors.refusal(error(1213, "Deadlock found"))).isNull();
    assertThat(DbErrors.refusal(error(1030, "Got error 168 from storage engine"))).isNull();
    assertThat(DbErrors.refusal(error(1064, "You have an error in your SQL syntax near 'No space left on device'")))
        .as("the text of a server's other answer is not read").isNull();
    assertThat(DbErrors.refusal(ClosedConnectionException.INSTANCE)).isNull();
    assertThat(DbErrors.refusal(null)).isNull();
  }
}
