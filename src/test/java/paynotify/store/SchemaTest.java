package paynotify.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.TestDatabase;

/** 4. A NULL in a unique key disables it: every idempotency column is NOT NULL. */
@Tag("db")
class SchemaTest {
  private static final TestDatabase db = TestDatabase.get();

  @Test
  void everyColumnOfEveryUniqueKeyIsNotNull() throws Exception {
    List<String> uniqueColumns = new ArrayList<>();
    try (Connection c = db.connect();
        var ps = c.prepareStatement("SELECT s.TABLE_NAME, s.INDEX_NAME, s.COLUMN_NAME, col.IS_NULLABLE"
            + " FROM information_schema.STATISTICS s JOIN information_schema.COLUMNS col"
            + "   ON col.TABLE_SCHEMA = s.TABLE_SCHEMA AND col.TABLE_NAME = s.TABLE_NAME"
            + "  AND col.COLUMN_NAME = s.COLUMN_NAME"
            + " WHERE s.TABLE_SCHEMA = ? AND s.NON_UNIQUE = 0 AND s.TABLE_NAME <> 'flyway_schema_history'"
            + " ORDER BY 1, 2, 3")) {
      ps.setString(1, TestDatabase.NAME);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          uniqueColumns.add(rs.getString(1) + "." + rs.getString(2) + "." + rs.getString(3) + " nullable="
              + rs.getString(4));
        }
      }
    }
    assertThat(uniqueColumns).contains(
        "idempotent_keys.PRIMARY.idem_key nullable=NO",
        "payments.uk_trade_no.channel nullable=NO",
        "payments.uk_trade_no.trade_no nullable=NO",
        "orders.uk_order_no.order_no nullable=NO",
        "anomalies.uk_anomalies_dedupe.dedupe_key nullable=NO");
    assertThat(uniqueColumns).noneMatch(col -> col.endsWith("nullable=YES"));
  }

  @Test
  void bookedFieldsAreNotNull() {
    for (String column : List.of("idempotent_keys.fingerprint", "payments.order_no", "payments.amount_cents",
        "payments.paid_at", "orders.amount_cents", "orders.status", "notify_log.outcome")) {
      String[] t = column.split("\\.");
      assertThat(db.string("SELECT IS_NULLABLE FROM information_schema.COLUMNS"
          + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND COLUMN_NAME = ?", TestDatabase.NAME, t[0], t[1]))
          .as(column).isEqualTo("NO");
    }
  }
}
