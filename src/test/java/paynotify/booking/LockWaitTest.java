package paynotify.booking;

import static org.assertj.core.api.Assertions.assertThat;
import static paynotify.testsupport.AlipayNotifications.payment;
import static paynotify.testsupport.AlipayNotifications.retry;
import static paynotify.testsupport.AlipayNotifications.signedBody;

import io.vertx.core.json.JsonObject;
import java.sql.Connection;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import paynotify.config.AppConfig.DatabaseSettings;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.TestService;

/**
 * A booking stuck behind a row lock: lock-wait timeouts (1205) are retried a bounded number of
 * times, and a request that outlives http.request_timeout_ms is answered with failure.
 */
class LockWaitTest extends DatabaseTestBase {
  /** The service's sessions give up on a row lock after one second. */
  private static DatabaseSettings oneSecondLockWait() {
    DatabaseSettings s = db.settings();
    return new DatabaseSettings(s.host(), s.port(), s.name(), s.user(), s.password(), 8, 1000,
        Duration.ofSeconds(5), 1, null);
  }

  /** Another transaction holds the key row of {@code tradeNo} for {@code millis}, then rolls back. */
  private static CompletableFuture<Void> holdKeyLock(String tradeNo, long millis) throws Exception {
    Connection holder = db.connect();
    holder.setAutoCommit(false);
    holder.createStatement().executeUpdate("INSERT INTO idempotent_keys (idem_key, fingerprint)"
        + " VALUES ('alipay:pay:" + tradeNo + "', REPEAT('0', 64))");
    return CompletableFuture.runAsync(() -> {
      try (holder) {
        Thread.sleep(millis);
        holder.rollback();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
  }

  @Test
  void lockWaitTimeoutIsRetriedThenBooked() throws Exception {
    db.insertOrder("L1", 100);
    try (TestService service = TestService.start(oneSecondLockWait(), new JsonObject())) {
      CompletableFuture<Void> released = holdKeyLock("TL1", 1500);
      long start = System.nanoTime();
      Reply reply = service.postAlipay(signedBody(payment("L1", "TL1", "1.00")));
      released.join();

      assertThat(reply).isEqualTo(new Reply(200, "success"));
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThan(Duration.ofMillis(1400));
    }
    assertThat(db.payments("TL1")).isEqualTo(1);
    assertThat(db.outcomes("alipay:pay:TL1")).isEqualTo("processed");
  }

  @Test
  void withoutRetriesTheSameLockWaitIsAnsweredWithFailure() throws Exception {
    db.insertOrder("L2", 100);
    Map<String, String> params = payment("L2", "TL2", "1.00");
    try (TestService service = TestService.start(oneSecondLockWait(),
        new JsonObject().put("booking", new JsonObject().put("max_attempts", 1)))) {
      CompletableFuture<Void> released = holdKeyLock("TL2", 1500);
      assertThat(service.postAlipay(signedBody(params))).isEqualTo(new Reply(503, "fail"));
      released.join();
      assertThat(db.payments("TL2")).isZero();

      assertThat(service.postAlipay(signedBody(retry(params, 1)))).isEqualTo(new Reply(200, "success"));
    }
    assertThat(db.payments("TL2")).isEqualTo(1);
    assertThat(db.outcomes("alipay:pay:TL2")).isEqualTo("error,processed");
  }

  @Test
  void requestTimeoutAnswersFailureAndTheRetryIsADuplicateOfTheLateCommit() throws Exception {
    db.insertOrder("L3", 100);
    Map<String, String> params = payment("L3", "TL3", "1.00");
    try (TestService service = TestService.start(db.settings(),
        new JsonObject().put("http", new JsonObject().put("port", 0).put("request_timeout_ms", 500)))) {
      CompletableFuture<Void> released = holdKeyLock("TL3", 1500);
      assertThat(service.postAlipay(signedBody(params))).isEqualTo(new Reply(503, "fail"));
      released.join();
      // The booking went on after the failure reply and committed; the platform's retry is a duplicate.
      for (int i = 0; i < 50 && db.payments("TL3") == 0; i++) {
        Thread.sleep(100);
      }
      assertThat(service.postAlipay(signedBody(retry(params, 1)))).isEqualTo(new Reply(200, "success"));
    }
    assertThat(db.payments("TL3")).isEqualTo(1);
    assertThat(db.outcomes("alipay:pay:TL3")).isEqualTo("processed,duplicate");
  }
}
