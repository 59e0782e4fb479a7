package paynotify.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static paynotify.testsupport.AlipayNotifications.payment;
import static paynotify.testsupport.AlipayNotifications.retry;
import static paynotify.testsupport.AlipayNotifications.signedBody;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClientOptions;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vertx.mysqlclient.MySQLConnectOptions;
import io.vertx.sqlclient.PoolOptions;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.TestService;

/** Expired keys go, in bounded batches; uk_trade_no still catches a re-push after that. */
@ExtendWith(VertxExtension.class)
class KeyPurgeTest extends DatabaseTestBase {
  private Database pool;
  private Vertx vertx;

  @BeforeEach
  void setUp(Vertx vertx) {
    this.vertx = vertx;
    var s = db.settings();
    pool = Database.connect(vertx, new MySQLConnectOptions().setHost(s.host()).setPort(s.port())
        .setDatabase(s.name()).setUser(s.user()).setPassword(s.password()), new PoolOptions(), new NetClientOptions(), Database.sessionSetup(5, Database.BEIJING));
  }

  @AfterEach
  void tearDown() {
    pool.close();
  }

  @Test
  void purgeRemovesOnlyExpiredKeysInBatches(VertxTestContext ctx) {
    // 2,500 keys 8 days old, 10 keys 6 days old, 3 notify_log rows 31 days old, 2 recent ones.
    db.update("INSERT INTO idempotent_keys (idem_key, fingerprint, created_at)"
        + " SELECT CONCAT('alipay:pay:old-', seq), REPEAT('a', 64), NOW(3) - INTERVAL 8 DAY FROM seq_1_to_2500");
    db.update("INSERT INTO idempotent_keys (idem_key, fingerprint, created_at)"
        + " SELECT CONCAT('alipay:pay:new-', seq), REPEAT('a', 64), NOW(3) - INTERVAL 6 DAY FROM seq_1_to_10");
    db.update("INSERT INTO notify_log (channel, outcome, body_bytes, received_at)"
        + " SELECT 'alipay', 'processed', 0, NOW(3) - INTERVAL 31 DAY FROM seq_1_to_3");
    db.update("INSERT INTO notify_log (channel, outcome, body_bytes) SELECT 'alipay', 'processed', 0 FROM seq_1_to_2");

    KeyPurge purge = new KeyPurge(vertx, pool, Duration.ofDays(7), Duration.ofDays(30), Duration.ofDays(3), Duration.ofDays(30), 1000);
    purge.runOnce().onComplete(ctx.succeeding(report -> ctx.verify(() -> {
      assertThat(report.keysDeleted()).isEqualTo(2500);
      assertThat(report.logRowsDeleted()).isEqualTo(3);
      // keys: 1000 + 1000 + 500 (short batch: done); notify_log: 3 (short batch: done); rejected rows: no
      // row left past their retention; events: none
      assertThat(report.statements()).isEqualTo(6);
      assertThat(db.count("SELECT COUNT(*) FROM idempotent_keys WHERE idem_key LIKE 'alipay:pay:old-%'")).isZero();
      assertThat(db.count("SELECT COUNT(*) FROM idempotent_keys")).isEqualTo(10);
      assertThat(db.count("SELECT COUNT(*) FROM notify_log")).isEqualTo(2);
      ctx.completeNow();
    })));
  }

  /** Delivered events go after their retention, by id in batches; pending and failed ones stay whatever their age. */
  @Test
  void purgeRemovesOnlyDeliveredEventsPastRetention(VertxTestContext ctx) {
    db.update("INSERT INTO forward_events (event_id, endpoint, type, body, state, delivered_at)"
        + " SELECT CONCAT('evt_old', seq), 'site', 'payment.succeeded', '{}', 'delivered', NOW(3) - INTERVAL 31 DAY"
        + " FROM seq_1_to_250");
    db.update("INSERT INTO forward_events (event_id, endpoint, type, body, state, delivered_at, created_at) VALUES"
        + " ('evt_recent', 'site', 'payment.succeeded', '{}', 'delivered', NOW(3) - INTERVAL 29 DAY, NOW(3) - INTERVAL 40 DAY),"
        + " ('evt_failed', 'site', 'payment.succeeded', '{}', 'failed', NULL, NOW(3) - INTERVAL 40 DAY),"
        + " ('evt_pending', 'site', 'payment.succeeded', '{}', 'pending', NULL, NOW(3) - INTERVAL 40 DAY)");

    new KeyPurge(vertx, pool, Duration.ofDays(7), Duration.ofDays(30), Duration.ofDays(3), Duration.ofDays(30), 100).runOnce()
        .onComplete(ctx.succeeding(report -> ctx.verify(() -> {
          assertThat(report.eventsDeleted()).isEqualTo(250);
          assertThat(db.column("SELECT event_id FROM forward_events ORDER BY event_id"))
              .containsExactly("evt_failed", "evt_pending", "evt_recent");
          ctx.completeNow();
        })));
  }

  /**
   * S2: refused requests' rows (anyone can send those) go after retention.rejected_days, sooner than
   * the other rows of notify_log.
   */
  @Test
  void rejectedRowsGoAfterTheirOwnShorterRetention() {
    db.update("INSERT INTO notify_log (channel, outcome, body_bytes, received_at)"
        + " SELECT 'alipay', 'rejected', 0, NOW(3) - INTERVAL 4 DAY FROM seq_1_to_1500");
    db.update("INSERT INTO notify_log (channel, outcome, body_bytes, received_at)"
        + " SELECT 'alipay', 'processed', 0, NOW(3) - INTERVAL 4 DAY FROM seq_1_to_2");
    db.update("INSERT INTO notify_log (channel, outcome, body_bytes, received_at)"
        + " SELECT 'alipay', 'rejected', 0, NOW(3) - INTERVAL 2 DAY FROM seq_1_to_3");
    try (TestService service = TestService.start(db.settings(),
        new JsonObject().put("retention", new JsonObject().put("rejected_days", 3)))) {
      service.server().purge().runOnce().await();
    }
    assertThat(db.count("SELECT COUNT(*) FROM notify_log WHERE outcome = 'rejected'")).isEqualTo(3);
    assertThat(db.count("SELECT COUNT(*) FROM notify_log WHERE outcome = 'processed'")).isEqualTo(2);
  }

  @Test
  void batchSizeAboveOneThousandIsRefused() {
    assertThatThrownBy(
        () -> new KeyPurge(vertx, pool, Duration.ofDays(7), Duration.ofDays(30), Duration.ofDays(3), Duration.ofDays(30), 1001))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void duplicateOlderThanRetentionIsCaughtByTradeNo() {
    db.insertOrder("P1", 300);
    Map<String, String> params = payment("P1", "TP1", "3.00");
    try (TestService service = TestService.start()) {
      assertThat(service.postAlipay(signedBody(params))).isEqualTo(new Reply(200, "success"));
      db.update("UPDATE idempotent_keys SET created_at = NOW(3) - INTERVAL 8 DAY");

      var report = service.server().purge().runOnce().await();
      assertThat(report.keysDeleted()).isEqualTo(1);
      assertThat(db.count("SELECT COUNT(*) FROM idempotent_keys")).isZero();

      assertThat(service.postAlipay(signedBody(retry(params, 1)))).isEqualTo(new Reply(200, "success"));
    }
    assertThat(db.payments("TP1")).isEqualTo(1);
    assertThat(db.outcomes("alipay:pay:TP1")).isEqualTo("processed,duplicate");
    assertThat(db.string("SELECT detail FROM notify_log WHERE outcome = 'duplicate'")).contains("trade");
  }
}
