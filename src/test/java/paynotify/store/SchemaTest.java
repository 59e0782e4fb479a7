package paynotify.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import paynotify.config.AppConfig.DatabaseSettings;
import paynotify.setup.Schema;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.TestDatabase;

/** A NULL in a unique key disables it: every idempotency column is NOT NULL. */
class SchemaTest extends DatabaseTestBase {
  @Test
  void everyColumnOfEveryUniqueKeyIsNotNull() {
    List<String> uniqueColumns = db.column("SELECT CONCAT(s.TABLE_NAME, '.', s.INDEX_NAME, '.', s.COLUMN_NAME,"
        + " ' nullable=', col.IS_NULLABLE) FROM information_schema.STATISTICS s JOIN information_schema.COLUMNS col"
        + "   ON col.TABLE_SCHEMA = s.TABLE_SCHEMA AND col.TABLE_NAME = s.TABLE_NAME"
        + "  AND col.COLUMN_NAME = s.COLUMN_NAME"
        + " WHERE s.TABLE_SCHEMA = ? AND s.NON_UNIQUE = 0 AND s.TABLE_NAME <> 'flyway_schema_history'"
        + " ORDER BY s.TABLE_NAME, s.INDEX_NAME, s.COLUMN_NAME", TestDatabase.NAME);
    assertThat(uniqueColumns).contains(
        "idempotent_keys.PRIMARY.idem_key nullable=NO",
        "payments.uk_trade_no.channel nullable=NO",
        "payments.uk_trade_no.trade_no nullable=NO",
        "orders.uk_order_no.order_no nullable=NO",
        "anomalies.uk_anomalies_dedupe.dedupe_key nullable=NO");
    assertThat(uniqueColumns).noneMatch(col -> col.endsWith("nullable=YES"));
  }

  /**
   * {@code test} on a scratch database migrated up to {@code version} only, the state a release before found;
   * dropped after.
   */
  private static void atVersion(String version, Consumer<TestDatabase> test) {
    TestDatabase scratch = db.scratch(TestDatabase.NAME + "_v" + version);
    try {
      DatabaseSettings at = scratch.settings();
      Flyway.configure().dataSource(at.jdbcUrl(), at.user(), at.password())
          .locations("classpath:db/migration").placeholders(Map.of("time_zone", at.timeZone())).target(version).load()
          .migrate();
      test.accept(scratch);
    } finally {
      scratch.drop();
    }
  }

  /**
   * V10 (N4): due times and leases are UTC from then on; the events still waiting were written in the
   * sessions' zone (database.time_zone, Beijing here) and are moved with them, the others left alone.
   */
  @Test
  void forwardTimesMigrationMovesTheWaitingEventsToUtc() {
    atVersion("9", scratch -> {
      scratch.update("INSERT INTO forward_events (event_id, type, body, state, next_attempt_at, lease_until) VALUES"
          + " ('evt_w', 'payment.succeeded', '{}', 'pending', '2026-12-01 20:00:00', '2026-12-01 20:00:11'),"
          + " ('evt_d', 'payment.succeeded', '{}', 'delivered', '2026-12-01 20:00:00', NULL)");

      Schema.migrate(scratch.settings(), OrdersTable.byDefault(), Set.of(), "test");

      assertThat(scratch.column("SELECT CONCAT_WS(' ', event_id, next_attempt_at, COALESCE(lease_until, '-'))"
          + " FROM forward_events ORDER BY id"))
          .containsExactly("evt_w 2026-12-01 12:00:00.000 2026-12-01 12:00:11.000", "evt_d 2026-12-01 20:00:00.000 -");
    });
  }

  /** V4 changes the refunds' unique key: refunds booked before keep their identity (Alipay's within its trade). */
  @Test
  void refundIdentityMigrationKeepsExistingRefunds() {
    atVersion("3", scratch -> {
      DatabaseSettings at = scratch.settings();
      scratch.update("INSERT INTO refunds (channel, refund_no, trade_no, amount_cents, status) VALUES"
          + " ('alipay', '1', 'T-A', 100, 'settled'), ('wechat', 'RF-W', 'T-W', 200, 'pending')");
      scratch.update("INSERT INTO anomalies (kind, channel, trade_no, detail, dedupe_key) VALUES"
          + " ('refund_without_payment', 'alipay', 'T-A', 'waits', 'refund_without_payment:alipay:1'),"
          + " ('refund_without_payment', 'wechat', 'T-W', 'waits', 'refund_without_payment:wechat:RF-W')");

      Schema.migrate(at, OrdersTable.byDefault(), Set.of(), "test");

      assertThat(scratch.column("SELECT CONCAT(channel, ' [', refund_scope, '] ', refund_no, ' ', trade_no, ' ',"
          + " amount_cents, ' ', status) FROM refunds ORDER BY id"))
          .containsExactly("alipay [T-A] 1 T-A 100 settled", "wechat [] RF-W T-W 200 pending");
      // The same out_biz_no on another trade is another refund now.
      assertThat(scratch.update("INSERT INTO refunds (channel, refund_scope, refund_no, trade_no, amount_cents)"
          + " VALUES ('alipay', 'T-B', '1', 'T-B', 100)")).isEqualTo(1);
      // Open findings take the key the hourly check now makes, so they are not recorded twice.
      assertThat(scratch.column("SELECT dedupe_key FROM anomalies ORDER BY id"))
          .containsExactly("refund_without_payment:alipay:T-A:1", "refund_without_payment:wechat:RF-W");
    });
  }

  /**
   * V20: a refund left waiting by a release before it holds no key; it gets its payment's, so that the
   * payment, when it comes, settles it. A refund whose payment is booked, or whose payment's key is there, gets none.
   */
  @Test
  void refundsWaitingFromBeforeGetTheirPaymentsKey() {
    atVersion("19", scratch -> {
      scratch.update("INSERT INTO refunds (channel, refund_scope, refund_no, trade_no, amount_cents, status) VALUES"
          + " ('alipay', 'T-A', '1', 'T-A', 100, 'pending'), ('alipay', 'T-A', '2', 'T-A', 50, 'pending'),"
          + " ('wechat_v3', '', 'RF-B', 'T-B', 200, 'pending'), ('wechat_v3', '', 'RF-C', 'T-C', 300, 'settled'),"
          + " ('wechat_v3', '', 'RF-D', 'T-D', 400, 'pending')");
      // T-D's payment is booked, its key purged: the hourly check settles RF-D, no payment will claim a key
      scratch.update("INSERT INTO payments (channel, trade_no, order_no, amount_cents, paid_at)"
          + " VALUES ('wechat_v3', 'T-D', 'D', 400, NOW())");
      scratch.update("INSERT INTO idempotent_keys (idem_key, fingerprint) VALUES ('wechat_v3:pay:T-B', REPEAT('b', 64))");

      Schema.migrate(scratch.settings(), OrdersTable.byDefault(), Set.of(), "test");

      assertThat(scratch.column("SELECT CONCAT(idem_key, ' ', LEFT(fingerprint, 15)) FROM idempotent_keys"
          + " ORDER BY idem_key")).containsExactly("alipay:pay:T-A refunds-waiting", "wechat_v3:pay:T-B bbbbbbbbbbbbbbb");
    });
  }

  /**
   * V21: Stripe's walk, where a release before left it, is Stripe's row of every platform's cursor; the old table stays
   * as it was, for a release before started beside this one or after it.
   */
  @Test
  void stripesCursorBecomesStripesRowOfTheMissedEventsCursor() {
    atVersion("20", scratch -> {
      scratch.update("INSERT INTO stripe_events_cursor (id, walk_from, walk_below, walk_to, version, updated_at)"
          + " VALUES (1, 100, 150, 200, 7, UTC_TIMESTAMP(3))");

      Schema.migrate(scratch.settings(), OrdersTable.byDefault(), Set.of(), "test");

      assertThat(scratch.column("SELECT CONCAT(platform, ' ', walk_from, ' ', walk_below, ' ', walk_to, ' ', version)"
          + " FROM missed_events_cursor")).containsExactly("stripe 100 150 200 7");
      scratch.update("INSERT INTO missed_events_cursor (platform, walk_from, walk_below, walk_to, version, updated_at)"
          + " VALUES ('paddle', 0, 0, 0, 0, UTC_TIMESTAMP(3))");
      assertThat(scratch.count("SELECT COUNT(*) FROM missed_events_cursor")).isEqualTo(2);
      assertThat(scratch.column("SELECT CONCAT(id, ' ', walk_from, ' ', walk_below, ' ', walk_to, ' ', version)"
          + " FROM stripe_events_cursor")).containsExactly("1 100 150 200 7");
    });
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
