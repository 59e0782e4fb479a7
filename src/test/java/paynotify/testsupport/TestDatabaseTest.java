package paynotify.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The helper's reading of a time: the text a test compares back in SQL must order as the time does. */
class TestDatabaseTest extends DatabaseTestBase {

  @Test
  void aTimeReadsAsTheServerWritesItToItsColumnsScale() {
    assertThat(db.column("SELECT CAST(t AS DATETIME(3)) FROM (SELECT '2026-12-06 21:43:15.063' AS t"
        + " UNION ALL SELECT '2026-12-06 21:43:15.630' UNION ALL SELECT '2026-12-06 21:43:15') times ORDER BY 1"))
        .containsExactly("2026-12-06 21:43:15.000", "2026-12-06 21:43:15.063", "2026-12-06 21:43:15.630");
    assertThat(db.string("SELECT CAST('2026-12-06 21:43:15.5' AS DATETIME)")).isEqualTo("2026-12-06 21:43:15");
    // As NodeReceiverTest waits for a delivery later than the one it read.
    String read = db.string("SELECT CAST('2026-12-06 21:43:15.063' AS DATETIME(3))");
    assertThat(db.string("SELECT CAST('2026-12-06 21:43:15.557' AS DATETIME(3)) > ?", read)).isEqualTo("1");
  }
}
