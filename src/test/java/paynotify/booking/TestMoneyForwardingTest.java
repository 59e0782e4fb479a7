package paynotify.booking;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import paynotify.channel.EventKind;
import paynotify.channel.NotifyEvent.Refund;
import paynotify.channel.NotifyEvent.Scope;
import paynotify.channel.NotifyEvent;
import paynotify.channel.Platform;
import paynotify.config.AppConfig;
import paynotify.server.Pools;
import paynotify.store.OrdersTable;
import paynotify.store.Stores;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.TestService;

/**
 * A platform's test money (PayPal's sandbox, Stripe's test mode) is told to the site as such: every
 * event a test-mode notification books says {@code "livemode": false}, beside its id and type; live
 * money says true. Booked here through the booking itself, with events built {@code inTestMode()}.
 */
class TestMoneyForwardingTest extends DatabaseTestBase {
  private static final LocalDateTime PAID = LocalDateTime.of(2026, 11, 29, 10, 15, 9);

  private Vertx vertx;
  private Stores stores;
  private EventBooking booking;

  @BeforeEach
  void aBookingThatTellsEverything() {
    vertx = Vertx.vertx();
    AppConfig config = AppConfig.from(TestService.configuration(new JsonObject()
        .put("booking", new JsonObject().put("trade_closed_closes_order", true))), "test", Map.of());
    stores = Pools.stores(vertx, db.settings(), config.retention().rejectedRowsPerSecond());
    booking = new EventBooking(vertx, stores, config.booking(), OrdersTable.byDefault(),
        new SiteEvents(SiteEvents.TYPES.stream().collect(Collectors.toMap(type -> type, type -> List.of("site")))));
  }

  @AfterEach
  void close() {
    stores.close().await();
    vertx.close().await();
  }

  private void book(NotifyEvent e) {
    booking.book(e).await();
  }

  private static NotifyEvent payment(String order, String trade, long cents) {
    return new NotifyEvent(Platform.STRIPE, EventKind.PAYMENT, order, trade, cents, PAID, "succeeded");
  }

  private static NotifyEvent refund(String order, String trade, String refundNo, long cents) {
    return NotifyEvent.refund(Platform.STRIPE, order, trade, cents, "refunded", new Refund(refundNo, Scope.PLATFORM, true, PAID));
  }

  private static List<JsonObject> told(String order) {
    return db.column("SELECT body FROM forward_events WHERE order_no = ? ORDER BY id", order).stream()
        .map(JsonObject::new).toList();
  }

  @Test
  void testMoneyIsToldAsNotLive() {
    db.insertOrder("TM1", 1000);
    book(payment("TM1", "pi_TM1", 1000).inTestMode());
    book(refund("TM1", "pi_TM1", "re_TM1", 400).inTestMode());
    db.insertOrder("TM2", 1000);
    book(new NotifyEvent(Platform.STRIPE, EventKind.CLOSE, "TM2", "pi_TM2", 1000, null, "canceled").inTestMode());
    db.insertOrder("TM3", 1000);
    book(payment("TM3", "pi_TM3", 999).inTestMode()); // another amount: anomaly.created

    assertThat(told("TM1")).extracting(e -> e.getString("type")).containsExactly("payment.succeeded", "refund.succeeded");
    assertThat(told("TM2")).extracting(e -> e.getString("type")).containsExactly("order.closed");
    assertThat(told("TM3")).extracting(e -> e.getString("type")).containsExactly("anomaly.created");
    for (String order : List.of("TM1", "TM2", "TM3")) {
      assertThat(told(order)).allSatisfy(e -> assertThat(e.getValue("livemode")).as(e.encode()).isEqualTo(false));
    }
  }

  @Test
  void liveMoneyIsToldAsLive() {
    db.insertOrder("TM4", 1000);
    book(refund("TM4", "pi_TM4", "re_TM4", 1000)); // before its payment: settled by it, told with it
    book(payment("TM4", "pi_TM4", 1000));

    assertThat(told("TM4")).extracting(e -> e.getString("type")).containsExactly("payment.succeeded", "refund.succeeded");
    assertThat(told("TM4")).allSatisfy(e -> assertThat(e.getValue("livemode")).as(e.encode()).isEqualTo(true));
  }

  @Test
  void aTestModeRefundBeforeItsPaymentIsToldAsNotLive() {
    db.insertOrder("TM5", 1000);
    book(refund("TM5", "pi_TM5", "re_TM5", 1000).inTestMode());
    book(payment("TM5", "pi_TM5", 1000).inTestMode());

    assertThat(told("TM5")).hasSize(2)
        .allSatisfy(e -> assertThat(e.getValue("livemode")).as(e.encode()).isEqualTo(false));
  }
}
