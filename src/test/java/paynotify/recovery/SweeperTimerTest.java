package paynotify.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.AlipayStandIn;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.PlatformStandIn;
import paynotify.testsupport.TestService;

/** The sweeper on its own timer: an order whose notification was never sent is paid within two intervals. */
class SweeperTimerTest extends DatabaseTestBase {
  private static final int INTERVAL_SECONDS = 5;

  @Test
  void aPaymentWhoseNotificationWasNeverSentIsBookedWithinTwoSweeps() throws Exception {
    try (PlatformStandIn alipay = AlipayStandIn.start();
        TestService service = TestService.start(db.settings(), alipay.configure(TestService.configuration(
            new JsonObject().put("recovery", new JsonObject().put("enabled", true)
                .put("interval_seconds", INTERVAL_SECONDS).put("min_age_seconds", 30)))))) {
      db.update("INSERT INTO orders (order_no, amount_cents, channel, created_at) VALUES ('T1', 8888, 'alipay',"
          + " CONVERT_TZ(NOW(3), @@session.time_zone, '+08:00') - INTERVAL 300 SECOND)");
      alipay.paid("T1", "2026120422001400081", "88.88");
      long start = System.nanoTime();

      long paid = db.countWithin(Duration.ofSeconds(2L * INTERVAL_SECONDS + 2), 1,
          "SELECT COUNT(*) FROM orders WHERE order_no = 'T1' AND status = 'paid'");

      assertThat(paid).as("order T1 paid within two sweep intervals").isEqualTo(1);
      System.out.printf("sweeper: order T1 found paid and booked %d ms after it was made payable%n",
          Duration.ofNanos(System.nanoTime() - start).toMillis());
      assertThat(alipay.queries("T1")).isEqualTo(1);
    }
  }
}
