package paynotify.booking;

import static org.assertj.core.api.Assertions.assertThat;
import static paynotify.testsupport.AlipayNotifications.payment;
import static paynotify.testsupport.AlipayNotifications.signedBody;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.AlipayNotifications;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.ServiceTestBase;

/**
 * What a notification costs the database, statement by statement, read from the server's own
 * general log. A first delivery runs four, as the seed's notify.php booking does with its key:
 * <ol>
 *   <li>the idempotency key: decides the race between copies, and tells (by a key its refunds held)
 *       whether refunds came before the payment,
 *   <li>the order's UPDATE, as notify.php's: unpaid -> paid,
 *   <li>the payment row: the trade's own unique key, and whether that UPDATE moved the order,
 *   <li>COMMIT: success only after it.
 * </ol>
 * No read before them: a first delivery has nothing to find. A repeat of a key this process booked
 * runs only the read of that key. notify_log's rows are written by other sessions, in batches, and are
 * left out (every statement of a session that wrote notify_log in the window).
 */
class StatementBudgetTest extends ServiceTestBase {
  private static final Reply SUCCESS = new Reply(200, "success");

  @AfterEach
  void logOff() {
    db.update("SET GLOBAL general_log = 0");
  }

  @Test
  void aFirstDeliveryRunsFourStatementsAndARepeatOne() {
    db.insertOrder("SB0", 100);
    db.insertOrder("SB1", 1000);
    Map<String, String> params = payment("SB1", "TSB1", "10.00");
    // The sessions the service will use exist already: their setup is not what is counted.
    Map<String, String> warmUp = payment("SB0", "TSB0", "1.00");
    service.postAlipay(signedBody(warmUp));
    service.postAlipay(signedBody(AlipayNotifications.retry(warmUp, 1)));

    List<String> first = statementsOf(() -> assertThat(service.postAlipay(signedBody(params))).isEqualTo(SUCCESS));
    assertThat(first).hasSize(4); // in this order, sent together: the log's times may tie
    assertThat(first).anyMatch(s -> s.startsWith("INSERT INTO idempotent_keys"))
        .anyMatch(s -> s.startsWith("UPDATE `orders` SET")).anyMatch(s -> s.startsWith("INSERT INTO payments"))
        .anyMatch(s -> s.equals("COMMIT"));
    // TSB0 was booked on new sessions, its statements prepared between the UPDATE and the insert: ROW_COUNT() held.
    assertThat(db.column("SELECT CONCAT(trade_no, ' ', moved_order) FROM payments ORDER BY id"))
        .containsExactly("TSB0 1", "TSB1 1");

    List<String> repeat = statementsOf(() -> assertThat(service.postAlipay(
        signedBody(AlipayNotifications.retry(params, 1)))).isEqualTo(SUCCESS));
    assertThat(repeat).singleElement().asString().startsWith("SELECT fingerprint FROM idempotent_keys");
    assertThat(db.outcomes("alipay:pay:TSB1")).isEqualTo("processed,duplicate");
  }

  /** The statements the server ran while {@code request} ran, but those of the notify_log writers. */
  private static List<String> statementsOf(Runnable request) {
    service.awaitLogRecorded();
    db.update("TRUNCATE TABLE mysql.general_log");
    db.update("SET GLOBAL log_output = 'TABLE', general_log = 1");
    request.run();
    service.awaitLogRecorded();
    db.update("SET GLOBAL general_log = 0");
    return db.column("SELECT CAST(argument AS CHAR) FROM mysql.general_log g"
        + " WHERE command_type IN ('Execute', 'Query') AND thread_id <> CONNECTION_ID()"
        + " AND CAST(argument AS CHAR) NOT LIKE 'SET GLOBAL%'"
        + " AND thread_id NOT IN (SELECT thread_id FROM mysql.general_log"
        + "   WHERE CAST(argument AS CHAR) LIKE '%notify_log%' OR CAST(argument AS CHAR) LIKE '%general_log%')"
        + " ORDER BY event_time");
  }
}
