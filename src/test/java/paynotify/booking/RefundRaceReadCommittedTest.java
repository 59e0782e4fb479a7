package paynotify.booking;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
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
import paynotify.store.Isolation;
import paynotify.store.OrdersTable;
import paynotify.store.Stores;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.TestService;

/**
 * A refund racing its payment with the booking's own sessions at READ COMMITTED, where a locking read
 * that finds nothing takes no gap lock: the two must still meet. They do at the payment's key, which a
 * refund that finds no payment holds. (Pinned at REPEATABLE READ, a refund's gap lock did it alone: at
 * READ COMMITTED 77 of these 300 races left the refund pending beside its paid order.)
 */
class RefundRaceReadCommittedTest extends DatabaseTestBase {
  private static final LocalDateTime PAID = LocalDateTime.of(2026, 12, 6, 10, 0);

  private Vertx vertx;
  private Stores stores;
  private EventBooking booking;

  @BeforeEach
  void aBookingOnReadCommittedSessions() {
    vertx = Vertx.vertx();
    AppConfig config = AppConfig.from(TestService.configuration(new JsonObject()), "test", Map.of());
    Stores pinned = Pools.stores(vertx, db.settings(), config.retention().rejectedRowsPerSecond());
    pinned.db().close();
    stores = new Stores(Pools.connect(vertx, db.settings(), "booking", Isolation.READ_COMMITTED), pinned.reads(),
        pinned.log(), pinned.rejected(), pinned.logPool(), pinned.status());
    booking = new EventBooking(vertx, stores, config.booking(), OrdersTable.byDefault(), SiteEvents.OFF);
  }

  @AfterEach
  void close() {
    stores.close().await();
    vertx.close().await();
  }

  /** 300 full refunds, each booked at once with its own payment, in a seeded order, 16 races at a time. */
  @Test
  void aRefundRacingItsPaymentIsAlwaysSettled() {
    Random random = new Random(20261206);
    int races = 300;
    for (int i = 0; i < races; i++) {
      db.insertOrder("RC" + i, 1000 + i);
    }
    List<Future<BookingResult>> booked = new ArrayList<>();
    for (int i = 0; i < races; i++) {
      NotifyEvent payment = new NotifyEvent(Platform.STRIPE, EventKind.PAYMENT, "RC" + i, "pi_RC" + i, 1000 + i, PAID,
          "succeeded");
      NotifyEvent refund = NotifyEvent.refund(Platform.STRIPE, "RC" + i, "pi_RC" + i, 1000 + i, "refunded",
          new Refund("re_RC" + i, Scope.PLATFORM, true, PAID));
      boolean refundFirst = random.nextBoolean();
      booked.add(booking.book(refundFirst ? refund : payment));
      booked.add(booking.book(refundFirst ? payment : refund));
      if (i % 16 == 15) {
        Future.join(booked).await();
      }
    }
    Future.join(booked).await();

    assertThat(booked).allSatisfy(b -> assertThat(b.result().outcome()).isEqualTo(Outcome.PROCESSED));
    assertThat(db.count("SELECT COUNT(*) FROM refunds WHERE status = 'pending'")).isZero();
    assertThat(db.count("SELECT COUNT(*) FROM refunds WHERE status = 'settled'")).isEqualTo(races);
    assertThat(db.count("SELECT COUNT(*) FROM orders WHERE status = 'refunded'")).isEqualTo(races);
    assertThat(db.count("SELECT COUNT(*) FROM idempotent_keys WHERE fingerprint = 'refunds-waiting'")).isZero();
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
  }
}
