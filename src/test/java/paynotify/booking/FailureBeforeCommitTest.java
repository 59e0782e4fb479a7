package paynotify.booking;

import static org.assertj.core.api.Assertions.assertThat;
import static paynotify.testsupport.AlipayNotifications.payment;
import static paynotify.testsupport.AlipayNotifications.retry;
import static paynotify.testsupport.AlipayNotifications.signedBody;

import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import paynotify.setup.EmbeddedDatabase;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.Http;
import paynotify.testsupport.ServiceTestBase;
import paynotify.testsupport.TestDatabase;
import paynotify.testsupport.TestService;

/**
 * Success only after COMMIT, and a failed attempt leaves no idempotency key behind: otherwise
 * the platform's retry would be acknowledged as a duplicate of a booking that never happened.
 */
class FailureBeforeCommitTest extends ServiceTestBase {
  @AfterEach
  void removeInjectedFailures() {
    db.update("DROP TRIGGER IF EXISTS fail_payment_insert");
    db.update("DROP TRIGGER IF EXISTS fail_order_update");
  }

  /** A trigger that makes the database itself raise an error, inside the booking transaction. */
  private static void injectFailure(String name, String when, String condition) {
    db.update("CREATE TRIGGER " + name + " " + when + " FOR EACH ROW BEGIN IF " + condition
        + " THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'injected failure'; END IF; END");
  }

  // A real error raised by the database inside the transaction, after the key insert.
  @Test
  void keyDoesNotOutliveRollback() {
    db.insertOrder("F1", 700);
    injectFailure("fail_payment_insert", "BEFORE INSERT ON payments", "NEW.trade_no = 'TF1'");
    Map<String, String> params = payment("F1", "TF1", "7.00");

    assertThat(service.postAlipay(signedBody(params))).isEqualTo(new Reply(503, "fail"));
    assertThat(db.count("SELECT COUNT(*) FROM idempotent_keys")).isZero();
    assertThat(db.payments("TF1")).isZero();
    assertThat(db.orderStatus("F1")).isEqualTo("unpaid");

    db.update("DROP TRIGGER fail_payment_insert");
    assertThat(service.postAlipay(signedBody(retry(params, 1)))).isEqualTo(new Reply(200, "success"));
    assertThat(db.payments("TF1")).isEqualTo(1);
    assertThat(db.orderStatus("F1")).isEqualTo("paid");
    assertThat(db.outcomes("alipay:pay:TF1")).isEqualTo("error,processed");
  }

  @Test
  void failureAtTheOrderUpdateRollsBackKeyAndPayment() {
    db.insertOrder("F2", 700);
    injectFailure("fail_order_update", "BEFORE UPDATE ON orders", "NEW.order_no = 'F2'");
    Map<String, String> params = payment("F2", "TF2", "7.00");

    assertThat(service.postAlipay(signedBody(params)).status()).isEqualTo(503);
    assertThat(db.count("SELECT COUNT(*) FROM idempotent_keys")).isZero();
    assertThat(db.payments("TF2")).isZero();

    db.update("DROP TRIGGER fail_order_update");
    assertThat(service.postAlipay(signedBody(retry(params, 1)))).isEqualTo(new Reply(200, "success"));
    assertThat(db.payments("TF2")).isEqualTo(1);
    assertThat(db.orderStatus("F2")).isEqualTo("paid");
  }

  // The database really stopped, then started again: the retry is booked.
  @Test
  void retryAfterDatabaseOutageIsBooked() throws Exception {
    Path dir = Path.of("target", "outage-mariadb");
    try (EmbeddedDatabase own = EmbeddedDatabase.start(dir, TestDatabase.NAME)) {
      var settings = TestDatabase.settings("127.0.0.1", own.port(), "");
      TestDatabase.createFresh(settings);
      try (var c = DriverManager.getConnection(settings.jdbcUrl(), "root", "");
          var s = c.createStatement()) {
        s.execute("INSERT INTO orders (order_no, amount_cents) VALUES ('D1', 1234)");
      }
      Map<String, String> params = payment("D1", "TD1", "12.34");
      try (TestService onOwn = TestService.start(settings,
          new JsonObject().put("database", new JsonObject().put("connect_timeout_ms", 1000)))) {
        own.stop();
        assertThat(EmbeddedDatabase.runningPort(dir)).as("no port recorded while stopped").isNull();
        assertThat(onOwn.postAlipay(signedBody(params))).isEqualTo(new Reply(503, "fail"));
        assertThat(Http.get(onOwn.port(), "/health").status()).isEqualTo(503);

        own.restart();
        assertThat(EmbeddedDatabase.runningPort(dir)).as("the tools find it again").isEqualTo(own.port());
        assertThat(Http.get(onOwn.port(), "/health").status()).isEqualTo(200);
        assertThat(onOwn.postAlipay(signedBody(retry(params, 1)))).isEqualTo(new Reply(200, "success"));
      }
      try (var c = DriverManager.getConnection(settings.jdbcUrl(), "root", "");
          var s = c.createStatement();
          var rs = s.executeQuery("SELECT (SELECT COUNT(*) FROM payments WHERE trade_no = 'TD1'),"
              + " (SELECT status FROM orders WHERE order_no = 'D1'),"
              + " (SELECT GROUP_CONCAT(outcome) FROM notify_log WHERE idem_key = 'alipay:pay:TD1')")) {
        rs.next();
        assertThat(rs.getInt(1)).isEqualTo(1);
        assertThat(rs.getString(2)).isEqualTo("paid");
        assertThat(rs.getString(3)).isEqualTo("processed");
      }
    }
  }
}
