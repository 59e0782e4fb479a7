package paynotify.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonObject;
import java.sql.Connection;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import paynotify.config.AppConfig.DatabaseSettings;
import paynotify.config.AppConfig;
import paynotify.config.ConfigException;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.Http;
import paynotify.testsupport.StripeNotifications;
import paynotify.testsupport.StripeStandIn;
import paynotify.testsupport.TestService;

/**
 * Stripe's events whose webhook was never delivered, fetched from its API (played by {@link StripeStandIn}) and
 * taken as the webhook would have been: booked once through the Stripe channel's reading and the same booking.
 */
class StripeRecoveryTest extends DatabaseTestBase {
  StripeStandIn stripe;
  TestService service;

  @BeforeEach
  void start() {
    stripe = StripeStandIn.start();
    service = TestService.start(db.settings(), stripe.configure(TestService.configuration(new JsonObject()))
        .put("recovery", new JsonObject().put("enabled", true).put("interval_seconds", 3600)));
  }

  @AfterEach
  void stop() {
    service.close();
    stripe.close();
    db.update("DROP TRIGGER IF EXISTS stripe_refuse_payment");
  }

  /** Made an hour ago: before the events the tests have Stripe create for it. */
  void order(String orderNo) {
    db.update("INSERT INTO orders (order_no, amount_cents, channel, created_at) VALUES (?, 8888, 'stripe',"
        + " CONVERT_TZ(NOW(3), @@session.time_zone, '+08:00') - INTERVAL 3600 SECOND)", orderNo);
  }

  static JsonObject paid(String orderNo, String intent) {
    return StripeNotifications.event("evt_" + intent, "checkout.session.completed",
        StripeNotifications.session(orderNo, intent, 8888, StripeNotifications.CURRENCY));
  }

  int fetch() {
    return service.server().recovery().fetchMissedEvents().await();
  }

  @Test
  void anUndeliveredPaymentIsBookedOnceAndItsLateWebhookIsADuplicate() {
    order("S1");
    JsonObject event = paid("S1", "pi_S1");
    stripe.undelivered(event, 120);

    assertThat(fetch()).isEqualTo(1);

    assertThat(db.orderStatus("S1")).isEqualTo("paid");
    assertThat(db.payments("pi_S1")).isEqualTo(1);
    service.awaitLogRecorded();
    assertThat(db.string("SELECT CONCAT(channel, ' ', remote_addr, ' ', outcome) FROM notify_log WHERE idem_key = ?",
        "stripe:pay:pi_S1")).isEqualTo("query stripe events processed");
    assertThat(db.count("SELECT COUNT(*) FROM anomalies WHERE kind = 'callback_missing' AND channel = 'stripe'"))
        .isEqualTo(1);

    // fetched again: done here, not taken twice
    assertThat(fetch()).isZero();
    service.awaitLogRecorded();
    assertThat(db.count("SELECT COUNT(*) FROM notify_log WHERE idem_key = 'stripe:pay:pi_S1'")).isEqualTo(1);

    Http.Reply late = service.send(StripeNotifications.signed(event));
    assertThat(late.status()).isEqualTo(200);
    service.awaitLogRecorded();
    assertThat(db.outcomes("stripe:pay:pi_S1")).isEqualTo("processed,duplicate");
    assertThat(db.payments("pi_S1")).isEqualTo(1);
  }

  @Test
  void onlyUndeliveredEventsWithinMaxAgeAreFetchedEveryPageOfThem() {
    for (int i = 0; i < 45; i++) {
      order("P" + i);
      stripe.undelivered(paid("P" + i, "pi_P" + i), 600);
    }
    order("OLD");
    stripe.undelivered(paid("OLD", "pi_OLD"), 27 * 3600);
    order("DELIVERED");
    stripe.delivered(paid("DELIVERED", "pi_DELIVERED"));

    assertThat(fetch()).isEqualTo(45);

    assertThat(db.count("SELECT COUNT(*) FROM orders WHERE order_no LIKE 'P%' AND status = 'paid'")).isEqualTo(45);
    assertThat(db.orderStatus("OLD")).isEqualTo("unpaid");
    assertThat(db.orderStatus("DELIVERED")).isEqualTo("unpaid");
    assertThat(stripe.requests()).isEqualTo(3); // 20 + 20 + 5
  }

  /**
   * Another endpoint on the account (an old site's) that always fails keeps its events undelivered: 160 of
   * them, newer than our missed payment. A sweep reads at most five pages of 20; the next sweep, on another
   * instance (nothing remembered in memory), goes on where the walk stopped and reaches ours.
   */
  @Test
  void anotherEndpointsUndeliveredEventsDoNotHideOursBehindThem() {
    order("MINE");
    stripe.undelivered(paid("MINE", "pi_MINE"), 3600);
    for (int i = 0; i < 160; i++) {
      stripe.undelivered(paid("OLD-SITE-" + i, "pi_OLD_SITE_" + i), 3000 - 10L * i);
    }

    fetch();
    assertThat(stripe.requests()).isEqualTo(5);
    assertThat(db.orderStatus("MINE")).isEqualTo("unpaid");

    service.close();
    service = TestService.start(db.settings(), stripe.configure(TestService.configuration(new JsonObject()))
        .put("recovery", new JsonObject().put("enabled", true).put("interval_seconds", 3600)));
    assertThat(fetch()).isPositive();
    assertThat(db.orderStatus("MINE")).isEqualTo("paid");
    assertThat(stripe.requests()).isLessThanOrEqualTo(10);

    // walked through: the next sweep asks about what is new only
    assertThat(fetch()).isZero();
    assertThat(stripe.requests()).isLessThanOrEqualTo(11);
  }

  /** More events in one second than a sweep's pages: that second is read whole, not asked again and again. */
  @Test
  void aSecondFullOfEventsDoesNotStopTheWalk() {
    order("MINE");
    stripe.undelivered(paid("MINE", "pi_MINE"), 2000);
    for (int i = 0; i < 130; i++) {
      stripe.undelivered(paid("OLD-SITE-" + i, "pi_OLD_SITE_" + i), 1000);
    }
    for (int sweep = 0; sweep < 3 && !"paid".equals(db.orderStatus("MINE")); sweep++) {
      fetch();
    }
    assertThat(db.orderStatus("MINE")).isEqualTo("paid");
  }

  /** A booking that fails (the database busy) leaves its event to the next sweep, which books it. */
  @Test
  void anEventWhoseBookingFailedIsTakenAgain() throws Exception {
    service.close();
    DatabaseSettings s = db.settings();
    DatabaseSettings oneSecondLockWait = new DatabaseSettings(s.host(), s.port(), s.name(), s.user(), s.password(),
        s.poolSize(), s.maxWaitQueue(), s.connectTimeout(), 1, s.embeddedDir());
    service = TestService.start(oneSecondLockWait, stripe.configure(TestService.configuration(new JsonObject()))
        .put("booking", new JsonObject().put("max_attempts", 1))
        .put("recovery", new JsonObject().put("enabled", true).put("interval_seconds", 3600)));
    for (String orderNo : new String[] {"OLDER", "FAILS", "NEWER"}) {
      order(orderNo);
    }
    stripe.undelivered(paid("OLDER", "pi_OLDER"), 900);
    stripe.undelivered(paid("FAILS", "pi_FAILS"), 600);
    stripe.undelivered(paid("NEWER", "pi_NEWER"), 300);

    try (Connection holder = db.connect()) { // another transaction holds the payment's key: the booking times out
      holder.setAutoCommit(false);
      holder.createStatement().executeUpdate("INSERT INTO idempotent_keys (idem_key, fingerprint)"
          + " VALUES ('stripe:pay:pi_FAILS', REPEAT('0', 64))");
      fetch();
      holder.rollback();
    }
    assertThat(db.orderStatus("FAILS")).isEqualTo("unpaid");
    assertThat(db.orderStatus("NEWER")).isEqualTo("paid");

    fetch();
    assertThat(db.orderStatus("FAILS")).isEqualTo("paid");
    assertThat(db.orderStatus("OLDER")).isEqualTo("paid");
    assertThat(db.payments("pi_FAILS")).isEqualTo(1);
  }

  /**
   * An event whose booking always fails (a trigger refuses its payment, as a database or a mapping that never takes
   * it would) is taken again by the next two sweeps, then passed by the third as a booking_failed anomaly naming it:
   * neither the older events of its walk nor the newer ones after it wait behind it until max_age.
   */
  @Test
  void anEventWhoseBookingAlwaysFailsBecomesAnAnomalyAndHoldsNothingBack() {
    for (String orderNo : new String[] {"OLDER", "FAILS", "NEWER"}) {
      order(orderNo);
    }
    long now = System.currentTimeMillis() / 1000;
    // a walk begun twenty minutes ago, nothing of it taken yet: [now - 1 h, now - 20 min)
    db.update("INSERT INTO missed_events_cursor (platform, walk_from, walk_below, walk_to, version, updated_at)"
        + " VALUES ('stripe', ?, ?, ?, 0, UTC_TIMESTAMP(3))", now - 3600, now - 1200, now - 1200);
    stripe.undelivered(paid("OLDER", "pi_OLDER"), 2400);
    stripe.undelivered(paid("FAILS", "pi_FAILS"), 1800);
    stripe.undelivered(paid("NEWER", "pi_NEWER"), 600);
    db.update("CREATE TRIGGER stripe_refuse_payment BEFORE INSERT ON payments FOR EACH ROW IF NEW.trade_no ="
        + " 'pi_FAILS' THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'payment refused by a trigger'; END IF");

    fetch();
    fetch();
    assertThat(db.orderStatus("OLDER")).as("held above the failing event: taken again, not passed yet")
        .isEqualTo("unpaid");
    assertThat(db.count("SELECT COUNT(*) FROM anomalies WHERE kind = 'booking_failed'")).isZero();

    assertThat(fetch()).as("the third failure: passed, the rest of the walk taken").isEqualTo(1);
    assertThat(db.orderStatus("OLDER")).isEqualTo("paid");
    assertThat(db.string("SELECT CONCAT(channel, ' ', order_no, ' ', trade_no) FROM anomalies"
        + " WHERE kind = 'booking_failed'")).isEqualTo("stripe FAILS pi_FAILS");
    assertThat(db.string("SELECT detail FROM anomalies WHERE kind = 'booking_failed'"))
        .contains("evt_pi_FAILS", "checkout.session.completed", "order FAILS", "payment refused by a trigger");

    assertThat(fetch()).as("the next walk").isEqualTo(1);
    assertThat(db.orderStatus("NEWER")).isEqualTo("paid");
    assertThat(db.orderStatus("FAILS")).isEqualTo("unpaid");
    assertThat(db.payments("pi_FAILS")).isZero();
    assertThat(db.count("SELECT COUNT(*) FROM anomalies WHERE kind = 'booking_failed'")).isEqualTo(1);

    // the cause fixed, Stripe's own retry of the webhook books it, and the anomaly is over
    db.update("DROP TRIGGER stripe_refuse_payment");
    assertThat(service.send(StripeNotifications.signed(paid("FAILS", "pi_FAILS"))).status()).isEqualTo(200);
    assertThat(db.orderStatus("FAILS")).isEqualTo("paid");
    assertThat(db.count("SELECT COUNT(*) FROM anomalies WHERE kind = 'booking_failed' AND resolved_at IS NULL"))
        .isZero();
  }

  @Test
  void anUndeliveredRefundIsBookedAsItsWebhookWouldBe() {
    order("R1");
    stripe.undelivered(paid("R1", "pi_R1"), 600);
    stripe.undelivered(StripeNotifications.event("evt_refund_R1", "charge.refunded", StripeNotifications
        .refundedCharge("pi_R1", 8888, "re_R1", 8888, 8888, StripeNotifications.CURRENCY)), 300);

    assertThat(fetch()).isEqualTo(2);

    assertThat(db.orderStatus("R1")).isEqualTo("refunded");
    assertThat(db.count("SELECT COUNT(*) FROM anomalies WHERE kind = 'callback_missing'")).isEqualTo(1);
  }

  /** A dispute is recorded as its webhook would record it, and leaves the same trace: its anomaly row. */
  @Test
  void anUndeliveredDisputeIsAnAnomalyWithItsRowAsItsWebhookWouldBe() {
    JsonObject dispute = new JsonObject().put("id", "dp_U1").put("object", "dispute").put("amount", 8888)
        .put("currency", StripeNotifications.CURRENCY).put("charge", "ch_pi_U1").put("payment_intent", "pi_U1")
        .put("reason", "fraudulent").put("status", "needs_response");
    stripe.undelivered(StripeNotifications.event("evt_dp_U1", "charge.dispute.created", dispute), 300);

    assertThat(fetch()).isZero();

    assertThat(db.string("SELECT CONCAT(kind, ' ', trade_no) FROM anomalies")).isEqualTo("dispute pi_U1");
    service.awaitLogRecorded();
    assertThat(db.column("SELECT CONCAT(channel, ' ', remote_addr, ' ', outcome) FROM notify_log"))
        .containsExactly("query stripe events anomaly");
    assertThat(fetch()).as("taken once").isZero();
    service.awaitLogRecorded();
    assertThat(db.count("SELECT COUNT(*) FROM notify_log")).isEqualTo(1);
  }

  /** S1: an event Stripe created before the order was (its number handed out again) books nothing. */
  @Test
  void aPaymentMadeBeforeItsOrderExistedIsNotBooked() {
    db.update("INSERT INTO orders (order_no, amount_cents, channel, created_at) VALUES ('REUSED', 8888, 'stripe',"
        + " CONVERT_TZ(NOW(3), @@session.time_zone, '+08:00') - INTERVAL 300 SECOND)");
    stripe.undelivered(paid("REUSED", "pi_REUSED"), 2 * 3600);

    assertThat(fetch()).isZero();

    assertThat(db.orderStatus("REUSED")).isEqualTo("unpaid");
    assertThat(db.payments("pi_REUSED")).isZero();
    assertThat(db.string("SELECT trade_no FROM anomalies WHERE kind = 'paid_before_order'")).isEqualTo("pi_REUSED");
  }

  @Test
  void aTestModeEventOnALiveInstanceIsNotBooked() {
    order("T1");
    stripe.undelivered(paid("T1", "pi_T1").put("livemode", false), 300);
    assertThat(fetch()).isZero();
    assertThat(db.orderStatus("T1")).isEqualTo("unpaid");
  }

  @Test
  void stripeDownBooksNothingAndTheNextSweepTakesItUp() {
    order("D1");
    stripe.undelivered(paid("D1", "pi_D1"), 300);
    stripe.down(true);
    assertThat(fetch()).isZero();
    stripe.down(false);
    assertThat(fetch()).isEqualTo(1);
  }

  @Test
  void aWrongKeyIsRefusedAndBooksNothing() {
    service.close();
    JsonObject wrongKey = stripe.configure(TestService.configuration(new JsonObject()));
    wrongKey.getJsonObject("stripe").put("api_key", "rk_test_not_the_key");
    service = TestService.start(db.settings(), wrongKey.put("recovery", new JsonObject().put("enabled", true)
        .put("interval_seconds", 3600)));
    order("D2");
    stripe.undelivered(paid("D2", "pi_D2"), 300);
    assertThat(fetch()).isZero();
    assertThat(stripe.refusedRequests()).isEqualTo(1);
    assertThat(db.orderStatus("D2")).isEqualTo("unpaid");
  }

  @Test
  void aSecretKeyIsRefusedAtStartForARestrictedOne() {
    JsonObject config = stripe.configure(TestService.configuration(new JsonObject()));
    config.getJsonObject("stripe").put("api_key", "sk_live_can_refund");
    assertThatThrownBy(() -> AppConfig.from(config, "test", Map.of())).isInstanceOf(ConfigException.class)
        .hasMessageContaining("stripe.api_key_file").hasMessageContaining("restricted key");
  }
}
