package paynotify.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.LemonSqueezyApiStandIn;
import paynotify.testsupport.LemonSqueezyNotifications;
import paynotify.testsupport.TestService;

/**
 * Lemon Squeezy asked through its API (played by {@link LemonSqueezyApiStandIn}), on a site's orders table that keeps
 * Lemon Squeezy's order id and identifier (orders.columns.platform_ref, {@code <id>:<identifier>}): an order whose
 * Order the site kept is asked by its id and booked as its order_created webhook would have been, once the answer's
 * identifier is the one kept; a paid order of the store's list that no payment holds is one anomaly for a human, never
 * a booking.
 */
class LemonSqueezyRecoveryTest extends DatabaseTestBase {
  static final long STORE = LemonSqueezyNotifications.STORE_ID;
  /** The site's table: paynotify's demo columns, and where the site keeps Lemon Squeezy's order id. */
  static final String TABLE = "ls_site_orders";

  LemonSqueezyApiStandIn api = LemonSqueezyApiStandIn.start();
  TestService service;

  @BeforeEach
  void siteTable() {
    db.update("DROP TABLE IF EXISTS " + TABLE);
    db.update("CREATE TABLE " + TABLE + " (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,"
        + " order_no VARCHAR(64) COLLATE utf8mb4_bin NOT NULL, amount_cents BIGINT NOT NULL,"
        + " status VARCHAR(24) NOT NULL DEFAULT 'unpaid', paid_at DATETIME(3) NULL, channel VARCHAR(16) NULL,"
        + " trade_no VARCHAR(64) COLLATE utf8mb4_bin NULL, created_at DATETIME(3) NOT NULL,"
        + " ls_order_id VARCHAR(64) NULL, UNIQUE KEY uk_order_no (order_no)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4");
  }

  @AfterEach
  void stop() {
    if (service != null) {
      service.close();
    }
    api.close();
    db.update("DROP TABLE IF EXISTS " + TABLE);
  }

  void start(String key) {
    JsonObject config = TestService.configuration(new JsonObject())
        .put("orders", new JsonObject().put("table", TABLE).put("columns", new JsonObject()
            .put("platform_ref", "ls_order_id")))
        .put("recovery", new JsonObject().put("enabled", true).put("interval_seconds", 3600)
            .put("min_age_seconds", 60));
    service = TestService.start(db.settings(), key == null ? config : api.configure(config, key));
  }

  /** An unpaid Lemon Squeezy order of the site made an hour ago; {@code ref} what it kept of Lemon Squeezy's Order. */
  void order(String orderNo, long cents, String ref) {
    db.update("INSERT INTO " + TABLE + " (order_no, amount_cents, channel, created_at, ls_order_id) VALUES (?, ?,"
        + " 'lemonsqueezy', CONVERT_TZ(NOW(3), @@session.time_zone, '+08:00') - INTERVAL 3600 SECOND, ?)", orderNo,
        cents, ref);
  }

  /** Lemon Squeezy's order {@code id} of the store, of {@code cents}, in {@code status}, made {@code secondsAgo}. */
  JsonObject made(String id, long cents, String status, long secondsAgo) {
    return api.add(LemonSqueezyNotifications.order(id, cents, LemonSqueezyNotifications.CURRENCY), STORE, status,
        secondsAgo);
  }

  /** What the site keeps of Lemon Squeezy's Order {@code id}: {@code <id>:<identifier>}. */
  static String ref(String id) {
    return LemonSqueezyNotifications.platformRef(id);
  }

  String status(String orderNo) {
    return db.string("SELECT status FROM " + TABLE + " WHERE order_no = ?", orderNo);
  }

  Sweeper.Sweep sweep() {
    return service.server().recovery().sweepOnce().await();
  }

  int fetch() {
    return service.server().recovery().fetchMissedEvents().await();
  }

  int webhook(String orderNo, JsonObject order) {
    return service.send(LemonSqueezyNotifications.signed(LemonSqueezyNotifications.event("order_created", orderNo,
        order))).status();
  }

  long orderless(String trade) {
    return db.count("SELECT COUNT(*) FROM anomalies WHERE kind = 'payment_without_order' AND channel = 'lemonsqueezy'"
        + " AND trade_no = ?", trade);
  }

  @Test
  void anOrderAskedByItsIdIsBookedOnceAndItsLateWebhookIsADuplicate() {
    start(LemonSqueezyApiStandIn.KEY);
    order("L1", 1999, ref("7001"));
    JsonObject paid = made("7001", 1999, "paid", 1800);

    Sweeper.Sweep s = sweep();

    assertThat(s.paid()).isEqualTo(1);
    assertThat(status("L1")).isEqualTo("paid");
    assertThat(db.payments("7001")).isEqualTo(1);
    assertThat(api.requests()).contains("/v1/orders/7001");
    service.awaitLogRecorded();
    assertThat(db.string("SELECT CONCAT(channel, ' ', remote_addr, ' ', outcome) FROM notify_log WHERE idem_key = ?",
        "lemonsqueezy:pay:7001")).isEqualTo("query lemonsqueezy /v1/orders/{id} processed");
    // the Order as the list keeps it: not the buyer's name and e-mail, nor the receipt's signed URL
    assertThat(db.string("SELECT CAST(raw_body AS CHAR) FROM notify_log WHERE idem_key = ?", "lemonsqueezy:pay:7001"))
        .contains("\"identifier\":\"" + LemonSqueezyNotifications.identifier("7001") + "\"", "\"total\":1999")
        .doesNotContain("johndoe@example.com", "John Doe", "signature=");
    // found by asking: callbacks are not arriving
    assertThat(db.count("SELECT COUNT(*) FROM anomalies WHERE kind = 'callback_missing' AND channel = 'lemonsqueezy'"))
        .isEqualTo(1);

    assertThat(webhook("L1", paid)).isEqualTo(200);
    service.awaitLogRecorded();
    assertThat(db.outcomes("lemonsqueezy:pay:7001")).isEqualTo("processed,duplicate");
    assertThat(db.payments("7001")).isEqualTo(1);
    // booked: the list finds it so, and records nothing
    fetch();
    assertThat(orderless("7001")).isZero();
  }

  /** The webhook and the question about the same order, at once and in either order: one payment each. */
  @Test
  void theWebhookAndTheQuestionRacingBookOnePayment() throws Exception {
    start(LemonSqueezyApiStandIn.KEY);
    int rounds = 12;
    List<CompletableFuture<?>> all = new ArrayList<>();
    for (int i = 0; i < rounds; i++) {
      String id = Integer.toString(8000 + i);
      order("RACE" + i, 500, ref(id));
      JsonObject paid = made(id, 500, "paid", 1800);
      all.add(service.sendAsync(LemonSqueezyNotifications.signed(LemonSqueezyNotifications.event("order_created",
          "RACE" + i, paid))));
      all.add(service.server().recovery().check("RACE" + i).toCompletionStage().toCompletableFuture());
    }
    CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get();

    assertThat(db.count("SELECT COUNT(*) FROM payments WHERE order_no LIKE 'RACE%'")).isEqualTo(rounds);
    assertThat(db.count("SELECT COUNT(*) FROM " + TABLE + " WHERE order_no LIKE 'RACE%' AND status = 'paid'"))
        .isEqualTo(rounds);
    // a question that books before its webhook records callback_missing, as it should: which one wins is the race's
    assertThat(db.column("SELECT kind FROM anomalies WHERE kind <> 'callback_missing'")).isEmpty();
  }

  @Test
  void anotherStoresOrderBooksNothing() {
    start(LemonSqueezyApiStandIn.KEY);
    order("L2", 1999, ref("7002"));
    api.add(LemonSqueezyNotifications.order("7002", 1999, LemonSqueezyNotifications.CURRENCY),
        LemonSqueezyNotifications.OTHER_STORE_ID, "paid", 1800);

    CheckAnswer answer = service.server().recovery().check("L2").await();

    assertThat(answer.state()).isEqualTo(CheckAnswer.State.UNPAID);
    assertThat(answer.detail()).contains("untrusted", "store_id '" + LemonSqueezyNotifications.OTHER_STORE_ID + "'");
    assertThat(status("L2")).isEqualTo("unpaid");
    assertThat(db.payments("7002")).isZero();
  }

  /**
   * Refunded since it was paid (the docs' partial refund keeps the status paid): not booked, one paid_then_refunded
   * anomaly, and the order_created webhook delivered late books nothing either.
   */
  @Test
  void aRefundedOrderBooksNothingAndLeavesAnAnomaly() {
    start(LemonSqueezyApiStandIn.KEY);
    order("L3", 1999, ref("7003"));
    order("L4", 2500, ref("7004"));
    made("7003", 1999, "refunded", 1800);
    JsonObject partly = made("7004", 2500, "paid", 1800);
    partly.getJsonObject("attributes").put("refunded_amount", 500);
    api.add(partly, STORE, "paid", 1800);

    sweep();

    assertThat(status("L3")).isEqualTo("unpaid");
    assertThat(status("L4")).isEqualTo("unpaid");
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    assertThat(db.column("SELECT CONCAT(kind, ' ', order_no, ' ', trade_no) FROM anomalies ORDER BY trade_no"))
        .containsExactly("paid_then_refunded L3 7003", "paid_then_refunded L4 7004");

    // the store's list finds 7004 paid and unbooked: its key, taken, says a human is told already
    fetch();
    assertThat(orderless("7004")).isZero();

    assertThat(webhook("L4", partly.copy().put("attributes", partly.getJsonObject("attributes").copy()
        .put("refunded_amount", 0)))).isEqualTo(200);
    assertThat(status("L4")).isEqualTo("unpaid");
    assertThat(db.payments("7004")).isZero();
  }

  /**
   * A refund delivered while its payment's webhook was lost holds the payment's key for it: that is no payment, and
   * the listed order is still one for a human.
   */
  @Test
  void aKeyHeldByARefundWaitingForItsPaymentLeavesTheListedOrderAnAnomaly() {
    start(LemonSqueezyApiStandIn.KEY);
    order("B4", 1999, null);
    made("9301", 1999, "partial_refund", 1800);
    assertThat(service.send(LemonSqueezyNotifications.signed(LemonSqueezyNotifications.refunded("B4", "9301", 1999,
        500))).status()).isEqualTo(200);
    assertThat(db.string("SELECT fingerprint FROM idempotent_keys WHERE idem_key = 'lemonsqueezy:pay:9301'"))
        .isEqualTo("refunds-waiting");

    fetch();

    assertThat(orderless("9301")).isEqualTo(1);
  }

  /** One Lemon Squeezy order pays one order of the site: a second order naming the same id books nothing. */
  @Test
  void aSecondOrderNamingTheSameIdBooksNothing() {
    start(LemonSqueezyApiStandIn.KEY);
    order("L8", 1999, ref("7008"));
    order("L9", 1999, ref("7008"));
    made("7008", 1999, "paid", 1800);

    sweep();

    assertThat(db.payments("7008")).isEqualTo(1);
    assertThat(db.count("SELECT COUNT(*) FROM " + TABLE + " WHERE status = 'paid'")).isEqualTo(1);
    assertThat(db.column("SELECT CONCAT(kind, ' ', trade_no) FROM anomalies ORDER BY kind"))
        .containsExactly("callback_missing 7008", "conflict 7008");
  }

  /**
   * The attack the identifier closes: Lemon Squeezy's order ids are sequential, and a buyer writes one on their own
   * unpaid order through their thank-you page. A bare id is not asked at all; an id with another identifier is asked,
   * and the answer, the Order of another buyer who paid the same price, books nothing: that buyer's webhook books it.
   */
  @Test
  void aGuessedOrderIdBooksNothingAndTheBuyerWhoPaidIsBooked() {
    start(LemonSqueezyApiStandIn.KEY);
    order("VICTIM", 1999, null);
    order("BARE", 1999, "7020");
    order("GUESS", 1999, "7020:" + LemonSqueezyNotifications.identifier("7999"));
    JsonObject victims = made("7020", 1999, "paid", 1800);

    CheckAnswer bare = service.server().recovery().check("BARE").await();
    CheckAnswer guessed = service.server().recovery().check("GUESS").await();
    sweep();

    assertThat(bare.detail()).contains("asked by its own id only", "empty or another platform's id");
    assertThat(guessed.state()).isEqualTo(CheckAnswer.State.UNPAID);
    assertThat(guessed.detail()).contains("untrusted", "answered about another order");
    assertThat(api.requests()).containsOnly("/v1/orders/7020");
    assertThat(status("BARE")).isEqualTo("unpaid");
    assertThat(status("GUESS")).isEqualTo("unpaid");
    assertThat(db.payments("7020")).isZero();

    assertThat(webhook("VICTIM", victims)).isEqualTo(200);
    assertThat(status("VICTIM")).isEqualTo("paid");
    assertThat(db.column("SELECT kind FROM anomalies")).isEmpty();
  }

  @Test
  void anOrderWithoutPlatformRefIsNotAsked() {
    start(LemonSqueezyApiStandIn.KEY);
    order("L5", 1999, null);
    made("7005", 1999, "paid", 1800);

    CheckAnswer answer = service.server().recovery().check("L5").await();
    sweep();

    assertThat(answer.detail()).contains("asked by its own id only", "orders.columns.platform_ref is empty");
    assertThat(api.requests()).noneMatch(r -> r.startsWith("/v1/orders/"));
    assertThat(status("L5")).isEqualTo("unpaid");
  }

  /**
   * The store's list: a paid order no payment holds is one payment_without_order anomaly, however many sweeps see
   * it; a booked one, a young one, a pending one and another store's are none. Its webhook resent books it, and the
   * anomaly is resolved.
   */
  @Test
  void aPaidOrderNoWebhookBookedIsOneAnomalyForAHuman() {
    start(LemonSqueezyApiStandIn.KEY);
    order("B1", 1999, null);
    order("B2", 1500, null);
    JsonObject lost = made("9001", 1999, "paid", 1800);
    JsonObject delivered = made("9002", 1500, "paid", 1700);
    made("9003", 700, "paid", 120); // younger than Lemon Squeezy's retries and the margin: left to its webhook
    made("9004", 700, "pending", 1600);
    api.add(LemonSqueezyNotifications.order("9005", 700, "USD"), LemonSqueezyNotifications.OTHER_STORE_ID, "paid",
        1600);
    assertThat(webhook("B2", delivered)).isEqualTo(200);

    assertThat(fetch()).isZero();
    assertThat(fetch()).isZero();

    assertThat(db.column("SELECT CONCAT(kind, ' ', trade_no, ' ', amount_cents) FROM anomalies"))
        .containsExactly("payment_without_order 9001 1999");
    String detail = db.string("SELECT detail FROM anomalies WHERE trade_no = '9001'");
    assertThat(detail).contains("Lemon Squeezy order #1 (id 9001, 19.99 USD", "resend it (Settings → Webhooks",
        "keep " + ref("9001") + " in orders.columns.platform_ref").doesNotContain("johndoe@example.com", "John Doe");
    assertThat(status("B1")).isEqualTo("unpaid");
    assertThat(api.requests()).allMatch(r -> r.startsWith("/v1/orders?filter[store_id]=" + STORE + "&page[number]=")
        && r.endsWith("&page[size]=10"));

    assertThat(webhook("B1", lost)).isEqualTo(200);
    assertThat(status("B1")).isEqualTo("paid");
    service.server().orderlessPayments().runOnce().await();
    assertThat(db.count("SELECT COUNT(*) FROM anomalies WHERE resolved_at IS NULL")).isZero();
  }

  /** 25 orders, 3 pages: the walk reads to the last, and a paid order at the bottom is found. */
  @Test
  void everyPageOfTheWindowIsRead() {
    start(LemonSqueezyApiStandIn.KEY);
    for (int i = 0; i < 24; i++) {
      made(Integer.toString(9100 + i), 100, "failed", 1000 + i);
    }
    made("9099", 100, "paid", 5000);

    fetch();

    assertThat(orderless("9099")).isEqualTo(1);
    assertThat(api.requests()).hasSize(3);
  }

  /** Lemon Squeezy down (503): nothing recorded, logged; the next sweep reads what it could not. */
  @Test
  void lemonSqueezyDownIsReadAgainNextSweep() {
    start(LemonSqueezyApiStandIn.KEY);
    made("9201", 1999, "paid", 1800);
    api.down(true);

    assertThat(fetch()).isZero();
    assertThat(orderless("9201")).isZero();

    api.down(false);
    fetch();
    assertThat(orderless("9201")).isEqualTo(1);
  }

  @Test
  void nothingIsAskedWithoutAnApiKey() {
    start(null);
    order("N1", 1999, ref("7006"));
    made("7006", 1999, "paid", 1800);

    assertThat(service.server().recovery().clients()).noneMatch(c -> c.startsWith("lemonsqueezy"));
    sweep();
    fetch();
    assertThat(api.requests()).isEmpty();
    assertThat(status("N1")).isEqualTo("unpaid");
  }
}
