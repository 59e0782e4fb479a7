package paynotify.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import paynotify.channel.PlatformTime;
import paynotify.testsupport.AlipayNotifications;
import paynotify.testsupport.AlipayStandIn;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.Http;
import paynotify.testsupport.PlatformStandIn.Mode;
import paynotify.testsupport.PlatformStandIn;
import paynotify.testsupport.TestService;

/**
 * The sweeper against Alipay's order API played by a local stand-in that checks every request's signature
 * and signs its answers: what it finds paid is booked once, through the notification's own booking; what
 * it cannot trust, or cannot reach, books nothing and costs only that order a later try.
 */
class RecoveryTest extends DatabaseTestBase {
  static final String AMOUNT = "88.88";
  static final long CENTS = 8888;

  AlipayStandIn alipay;
  TestService service;

  @BeforeEach
  void start() {
    alipay = AlipayStandIn.start();
    service = TestService.start(db.settings(), recovery(new JsonObject()));
  }

  @AfterEach
  void stop() {
    if (service != null) {
      service.close();
    }
    alipay.close();
  }

  /** The test configuration with the stand-in's keys and recovery on (its timer far away: sweeps are run here). */
  JsonObject recovery(JsonObject more) {
    JsonObject config = alipay.configure(TestService.configuration(new JsonObject()));
    return config.put("recovery", new JsonObject().put("enabled", true).put("interval_seconds", 3600)
        .put("min_age_seconds", 60).mergeIn(more));
  }

  /**
   * An unpaid Alipay order made {@code secondsAgo} by the service's clock (its sessions' zone, Beijing by default);
   * its channel column says Alipay, so WeChat Pay (on in the test configuration) is not asked about it.
   */
  void order(String orderNo, long secondsAgo) {
    db.update("INSERT INTO orders (order_no, amount_cents, channel, created_at) VALUES (?, ?, 'alipay',"
        + " CONVERT_TZ(NOW(3), @@session.time_zone, '+08:00') - INTERVAL ? SECOND)", orderNo, CENTS, secondsAgo);
  }

  Sweeper.Sweep sweep() {
    return service.server().recovery().sweepOnce().await();
  }

  @Test
  void anOrderWhoseNotificationNeverCameIsFoundPaidAndBookedOnce() {
    order("R1", 300);
    alipay.paid("R1", "2026120422001400001", AMOUNT);

    Sweeper.Sweep s = sweep();

    assertThat(s.asked()).isEqualTo(1);
    assertThat(s.paid()).isEqualTo(1);
    assertThat(db.orderStatus("R1")).isEqualTo("paid");
    assertThat(db.payments("2026120422001400001")).isEqualTo(1);
    service.awaitLogRecorded();
    assertThat(db.string("SELECT CONCAT(channel, ' ', remote_addr, ' ', outcome) FROM notify_log WHERE idem_key = ?",
        "alipay:pay:2026120422001400001")).isEqualTo("query alipay.trade.query processed");
    assertThat(db.count("SELECT COUNT(*) FROM anomalies WHERE kind = 'callback_missing' AND channel = 'alipay'"))
        .isEqualTo(1);

    // The notification, late: a duplicate, answered success
    Http.Reply late = service.postAlipay(AlipayNotifications.signedBody(
        AlipayNotifications.payment("R1", "2026120422001400001", AMOUNT)));
    assertThat(late.body()).isEqualTo("success");
    service.awaitLogRecorded();
    assertThat(db.outcomes("alipay:pay:2026120422001400001")).isEqualTo("processed,duplicate");
    assertThat(db.payments("2026120422001400001")).isEqualTo(1);

    // Booked and done: not asked again
    assertThat(sweep().asked()).isZero();
    assertThat(alipay.queries("R1")).isEqualTo(1);
  }

  /**
   * S1: the order number was handed out again (the site's database restored from last night's backup): Alipay's
   * trade under it was paid three days before this order existed. Not booked: an anomaly names both times and the
   * trade, and the order is asked about no more. A trade paid a couple of minutes before its order's row is the
   * two clocks disagreeing: booked.
   */
  @Test
  void aTradePaidBeforeItsOrderWasCreatedIsAnAnomalyNotABooking() {
    LocalDateTime now = LocalDateTime.now(PlatformTime.BEIJING).withNano(0);
    order("R1050", 300);
    alipay.paid("R1050", "2026110122001400001", AMOUNT);
    alipay.paidAt("R1050", now.minusDays(3));
    order("SKEW", 300);
    alipay.paid("SKEW", "2026120422001400002", AMOUNT);
    alipay.paidAt("SKEW", now.minusSeconds(300 + 120));

    Sweeper.Sweep s = sweep();

    assertThat(s.asked()).isEqualTo(2);
    assertThat(s.paid()).isEqualTo(1);
    assertThat(db.orderStatus("SKEW")).isEqualTo("paid");
    assertThat(db.orderStatus("R1050")).isEqualTo("unpaid");
    assertThat(db.payments("2026110122001400001")).isZero();
    assertThat(db.string("SELECT CONCAT(trade_no, ': ', detail) FROM anomalies WHERE kind = 'paid_before_order'"))
        .startsWith("2026110122001400001: ")
        .contains("paid " + now.minusDays(3).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")))
        .contains("created " + db.string("SELECT DATE_FORMAT(created_at, '%Y-%m-%d %H:%i:%s') FROM orders"
            + " WHERE order_no = 'R1050'"));
    assertThat(db.string("SELECT done FROM order_checks WHERE order_no = 'R1050'")).isEqualTo("1");
    // the return page's check, past the cooldown, finds the same, and it is recorded once
    db.update("UPDATE order_checks SET last_checked_at = last_checked_at - INTERVAL 15 SECOND");
    CheckAnswer checked = service.server().recovery().check("R1050").await();
    assertThat(checked.state()).isEqualTo(CheckAnswer.State.UNPAID);
    assertThat(checked.detail()).contains("before");
    assertThat(db.count("SELECT COUNT(*) FROM anomalies WHERE kind = 'paid_before_order'")).isEqualTo(1);
  }

  /**
   * A site that keeps UTC (database.time_zone +00:00, created_at written so): the platform's Beijing time is
   * compared as the instant it is, not as the wall-clock digits.
   */
  @Test
  void thePaymentsTimeAndTheOrdersAreComparedInTheirOwnZones() {
    service.close();
    service = TestService.start(TestService.inTimeZone(db.settings(), "+00:00"), recovery(new JsonObject()));
    LocalDateTime now = LocalDateTime.now(PlatformTime.BEIJING).withNano(0);
    for (String orderNo : new String[] {"UTC1", "UTC2"}) {
      db.update("INSERT INTO orders (order_no, amount_cents, channel, created_at) VALUES (?, ?, 'alipay',"
          + " UTC_TIMESTAMP(3) - INTERVAL 300 SECOND)", orderNo, CENTS);
    }
    alipay.paid("UTC1", "2026120422001400111", AMOUNT); // a minute ago: after its order
    alipay.paidAt("UTC1", now.minusSeconds(60));
    alipay.paid("UTC2", "2026120422001400112", AMOUNT); // two hours ago: before it, though 14:00 > 08:00
    alipay.paidAt("UTC2", now.minusHours(2));

    sweep();

    assertThat(db.orderStatus("UTC1")).isEqualTo("paid");
    assertThat(db.orderStatus("UTC2")).isEqualTo("unpaid");
    assertThat(db.count("SELECT COUNT(*) FROM anomalies WHERE kind = 'paid_before_order' AND order_no = 'UTC2'"))
        .isEqualTo(1);
  }

  /** S1: orders.columns.created_at: "" (the site's table has none): a check neither asks nor books an order it cannot age. */
  @Test
  void withoutACreationColumnACheckNeitherAsksNorBooks() {
    service.close();
    JsonObject config = recovery(new JsonObject()).put("orders", new JsonObject()
        .put("columns", new JsonObject().put("created_at", "")));
    config.getJsonObject("recovery").put("enabled", false);
    service = TestService.start(db.settings(), config);
    order("NC1", 300);
    alipay.paid("NC1", "2026120422001400121", AMOUNT);

    CheckAnswer answer = service.server().recovery().check("NC1").await();

    assertThat(answer.state()).isEqualTo(CheckAnswer.State.UNPAID);
    assertThat(answer.detail()).contains("no orders.columns.created_at");
    assertThat(alipay.queries("NC1")).isZero();
    assertThat(db.payments("2026120422001400121")).isZero();
  }

  @Test
  void callbackMissingIsRecordedOncePerPlatformAndDay() {
    for (int i = 0; i < 3; i++) {
      order("M" + i, 300);
      alipay.paid("M" + i, "20261204220014000" + i, AMOUNT);
    }
    assertThat(sweep().paid()).isEqualTo(3);
    assertThat(db.count("SELECT COUNT(*) FROM anomalies WHERE kind = 'callback_missing'")).isEqualTo(1);
  }

  @Test
  void theNotificationAndTheQueryRacingBookOnePayment() throws Exception {
    int rounds = 20;
    List<CompletableFuture<?>> all = new ArrayList<>();
    for (int i = 0; i < rounds; i++) {
      String orderNo = "RACE" + i;
      String trade = "20261204220015" + String.format("%06d", i);
      order(orderNo, 300);
      alipay.paid(orderNo, trade, AMOUNT);
      all.add(service.postAlipayAsync(AlipayNotifications.signedBody(AlipayNotifications.payment(orderNo, trade,
          AMOUNT))));
      all.add(service.server().recovery().check(orderNo).toCompletionStage().toCompletableFuture());
    }
    CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get();
    assertThat(db.count("SELECT COUNT(*) FROM payments WHERE order_no LIKE 'RACE%'")).isEqualTo(rounds);
    assertThat(db.count("SELECT COUNT(*) FROM orders WHERE order_no LIKE 'RACE%' AND status = 'paid'"))
        .isEqualTo(rounds);
  }

  @Test
  void aWrongAmountIsAnAnomalyAndTheOrderStaysUnpaid() {
    order("A1", 300);
    alipay.paid("A1", "2026120422001400011", "0.01");
    sweep();
    assertThat(db.orderStatus("A1")).isEqualTo("unpaid");
    assertThat(db.count("SELECT COUNT(*) FROM anomalies WHERE kind = 'amount_mismatch' AND order_no = 'A1'"))
        .isEqualTo(1);
  }

  @Test
  void waitingUnknownAndClosedTradesBookNothing() {
    order("W1", 300);
    alipay.waiting("W1");
    order("N1", 300); // no trade at Alipay: a QR code not scanned yet
    order("C1", 300);
    alipay.closed("C1");

    Sweeper.Sweep s = sweep();

    assertThat(s.asked()).isEqualTo(3);
    assertThat(s.paid()).isZero();
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    assertThat(db.string("SELECT GROUP_CONCAT(CONCAT(order_no, ':', done, ':', last_state) ORDER BY order_no)"
        + " FROM order_checks")).isEqualTo("C1:1:TRADE_CLOSED,N1:0:ACQ.TRADE_NOT_EXIST,W1:0:WAIT_BUYER_PAY");
    // asked again only after its back-off (1 minute)
    assertThat(sweep().asked()).isZero();
  }

  @Test
  void anAnswerWhoseSignatureDoesNotVerifyBooksNothing() {
    order("B1", 300);
    alipay.paid("B1", "2026120422001400021", AMOUNT);
    alipay.mode(Mode.BAD_SIGNATURE);
    Sweeper.Sweep s = sweep();
    assertThat(s.failed()).isEqualTo(1);
    assertThat(db.orderStatus("B1")).isEqualTo("unpaid");
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    assertThat(db.string("SELECT last_state FROM order_checks WHERE order_no = 'B1'")).isEqualTo("no answer");
  }

  @Test
  void aPlatformDownCostsTheOrderALaterTryAndNothingElse() {
    order("D1", 300);
    alipay.paid("D1", "2026120422001400031", AMOUNT);
    alipay.mode(Mode.DOWN);
    assertThat(sweep().failed()).isEqualTo(1);
    assertThat(db.count("SELECT COUNT(*) FROM order_checks WHERE order_no = 'D1' AND attempts = 1 AND NOT done"
        + " AND next_check_at > UTC_TIMESTAMP(3) + INTERVAL 50 SECOND")).isEqualTo(1);
    // the notify path goes on
    Http.Reply notified = service.postAlipay(AlipayNotifications.signedBody(
        AlipayNotifications.payment("D1", "2026120422001400031", AMOUNT)));
    assertThat(notified.body()).isEqualTo("success");
    assertThat(db.orderStatus("D1")).isEqualTo("paid");
  }

  @Test
  void anOrderOlderThanMaxAgeIsNotAskedAboutAndCheckDoesNotBookIt() {
    order("OLD", 27 * 3600);
    alipay.paid("OLD", "2026120422001400041", AMOUNT);
    assertThat(sweep().asked()).isZero();
    assertThat(alipay.queries("OLD")).isZero();

    CheckAnswer answer = service.server().recovery().check("OLD").await();
    assertThat(answer.state()).isEqualTo(CheckAnswer.State.UNPAID);
    assertThat(answer.detail()).contains("max_age");
    assertThat(alipay.queries("OLD")).isZero();
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
  }

  @Test
  void aSweepAsksAtTheRateCapOldestDueFirst() {
    // 2 a minute: the two that have waited longest now, and nothing more within the minute
    restartCapped(2);
    order("OLDER", 900);
    order("NEWER", 300);
    order("NEWEST", 200);
    assertThat(sweep().asked()).isEqualTo(2);
    assertThat(alipay.queries("OLDER") + alipay.queries("NEWER")).isEqualTo(2);
    assertThat(alipay.queries("NEWEST")).isZero();
    assertThat(sweep().asked()).isZero();
    assertThat(alipay.queries("NEWEST")).isZero();
  }

  @Test
  void aTwoHourOldOrderIsAskedOnTimeAmongFiveHundredFreshOnes() {
    restartCapped(5);
    order("REAL", 2 * 3600);
    asked("REAL", 6); // hourly by now, and due
    alipay.paid("REAL", "2026120422001400111", AMOUNT);
    StringBuilder fresh = new StringBuilder("INSERT INTO orders (order_no, amount_cents, channel, created_at) VALUES ");
    for (int i = 0; i < 500; i++) { // anyone can make unpaid orders: 500 in the last few minutes
      fresh.append(i == 0 ? "" : ", ").append("('FRESH").append(i)
          .append("', 100, 'alipay', CONVERT_TZ(NOW(3), @@session.time_zone, '+08:00') - INTERVAL 180 SECOND)");
    }
    db.update(fresh.toString());

    for (int i = 0; i < 3; i++) {
      sweep();
    }

    assertThat(alipay.queries("REAL")).isEqualTo(1);
    assertThat(db.orderStatus("REAL")).isEqualTo("paid");
  }

  @Test
  void aFailureOfOursLeavesTheOrdersBackoffAsItWas() {
    service.close();
    service = TestService.start(db.settings(), recovery(new JsonObject().put("timeout_ms", 500)));
    order("T1", 2 * 3600);
    asked("T1", 6);
    alipay.mode(Mode.SLOW); // our time limit cuts the question
    assertThat(sweep().failed()).isEqualTo(1);
    assertThat(db.count("SELECT attempts FROM order_checks WHERE order_no = 'T1'")).isEqualTo(6);
    // asked again within a minute, not in an hour
    assertThat(db.count("SELECT COUNT(*) FROM order_checks WHERE order_no = 'T1' AND lease_owner IS NULL"
        + " AND next_check_at <= UTC_TIMESTAMP(3) + INTERVAL 61 SECOND")).isEqualTo(1);
  }

  @Test
  void checksSpendAtMostHalfTheBudgetAndTheSweeperTheRest() {
    restartCapped(2);
    List<CheckAnswer> answers = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      order("Q" + i, 300);
      alipay.waiting("Q" + i);
      answers.add(service.server().recovery().check("Q" + i).await());
    }
    assertThat(answers).extracting(CheckAnswer::state).containsOnly(CheckAnswer.State.UNPAID);
    assertThat(answers).filteredOn(a -> a.detail().startsWith("not asked now")).hasSize(4);
    assertThat(IntStream.range(0, 5).map(i -> alipay.queries("Q" + i)).sum()).isEqualTo(1);
    assertThat(sweep().asked()).isEqualTo(1);
  }

  /** The service again, with at most {@code perMinute} questions a minute and a sweep a minute. */
  void restartCapped(int perMinute) {
    service.close();
    service = TestService.start(db.settings(), recovery(new JsonObject().put("max_queries_per_minute", perMinute)
        .put("interval_seconds", 60)));
  }

  /** The order asked about {@code attempts} times already, its last an hour ago, due now. */
  void asked(String orderNo, int attempts) {
    db.update("INSERT INTO order_checks (order_no, attempts, next_check_at, last_state, last_checked_at, created_at)"
        + " VALUES (?, ?, UTC_TIMESTAMP(3), 'WAIT_BUYER_PAY', UTC_TIMESTAMP(3) - INTERVAL 1 HOUR,"
        + " UTC_TIMESTAMP(3) - INTERVAL 2 HOUR)", orderNo, attempts);
  }

  @Test
  void anOrderYoungerThanMinAgeIsLeftToItsNotification() {
    order("NEW", 10);
    alipay.paid("NEW", "2026120422001400051", AMOUNT);
    assertThat(sweep().asked()).isZero();
  }

  @Test
  void twoInstancesAskAboutEachOrderOnce() {
    try (TestService second = TestService.start(db.settings(), recovery(new JsonObject()))) {
      for (int i = 0; i < 10; i++) {
        order("TWO" + i, 300);
        alipay.waiting("TWO" + i);
      }
      var a = service.server().recovery().sweepOnce();
      var b = second.server().recovery().sweepOnce();
      assertThat(a.await().asked() + b.await().asked()).isEqualTo(10);
      for (int i = 0; i < 10; i++) {
        assertThat(alipay.queries("TWO" + i)).as("TWO" + i).isEqualTo(1);
      }
    }
  }

  @Test
  void twoInstancesSweepingTheSameOrdersAtOnceBothFinish() {
    // Both claim each order at the same moment: a claim that loses the race (a deadlock between the two
    // INSERT IGNOREs' share locks and the leases' UPDATEs) is run again, not the end of the sweep.
    try (TestService second = TestService.start(db.settings(), recovery(new JsonObject().put("max_queries_per_minute", 1000)))) {
      service.close();
      service = TestService.start(db.settings(), recovery(new JsonObject().put("max_queries_per_minute", 1000)));
      for (int round = 0; round < 4; round++) {
        for (int i = 0; i < 40; i++) {
          order("BOTH" + round + "_" + i, 300);
          alipay.waiting("BOTH" + round + "_" + i);
        }
        var a = service.server().recovery().sweepOnce();
        var b = second.server().recovery().sweepOnce();
        assertThat(a.await().asked() + b.await().asked()).as("round " + round).isEqualTo(40);
      }
    }
  }

  @Test
  void checkAnswersTheOrdersStateAfterBookingWhatWasFound() {
    order("K1", 300);
    alipay.waiting("K1");
    assertThat(service.server().recovery().check("K1").await().state()).isEqualTo(CheckAnswer.State.UNPAID);
    alipay.paid("K1", "2026120422001400061", AMOUNT);
    db.update("UPDATE order_checks SET last_checked_at = last_checked_at - INTERVAL 15 SECOND"); // 15 s later
    CheckAnswer paid = service.server().recovery().check("K1").await();
    assertThat(paid.state()).isEqualTo(CheckAnswer.State.PAID);
    assertThat(paid.platformStatus()).isEqualTo("TRADE_SUCCESS");
    assertThat(db.orderStatus("K1")).isEqualTo("paid");
    // paid now: answered from the table, the platform not asked again
    assertThat(service.server().recovery().check("K1").await().state()).isEqualTo(CheckAnswer.State.PAID);
    assertThat(alipay.queries("K1")).isEqualTo(2);
    assertThat(service.server().recovery().check("NOPE").await().state()).isEqualTo(CheckAnswer.State.UNKNOWN);
  }

  @Test
  void pastCloseAfterOnlyATradeThatExistsIsClosedAndAPaymentRacingTheCloseIsBooked() {
    service.close();
    service = TestService.start(db.settings(), recovery(new JsonObject().put("close_unpaid_after_minutes", 30)));
    order("NF", 40 * 60); // no trade at Alipay yet: a cashier page not opened, still payable
    order("CL", 40 * 60);
    alipay.closed("CL"); // closed at Alipay already (a close whose table update was lost)
    order("RACE", 40 * 60);
    alipay.paidWhenClosed("RACE", "2026120422001400091", AMOUNT);

    sweep();

    assertThat(alipay.closes("NF")).isZero();
    assertThat(db.orderStatus("NF")).isEqualTo("unpaid");
    assertThat(db.orderStatus("CL")).isEqualTo("closed");
    assertThat(alipay.closes("RACE")).isEqualTo(1);
    assertThat(db.orderStatus("RACE")).isEqualTo("paid");
    assertThat(db.payments("2026120422001400091")).isEqualTo(1);
  }

  @Test
  void aCheckRightAfterPayingIsNoEvidenceOfAMissingCallback() {
    order("YOUNG", 5);
    alipay.paid("YOUNG", "2026120422001400101", AMOUNT);
    assertThat(service.server().recovery().check("YOUNG").await().state()).isEqualTo(CheckAnswer.State.PAID);
    assertThat(db.count("SELECT COUNT(*) FROM anomalies WHERE kind = 'callback_missing'")).isZero();
  }

  @Test
  void anOrderUnpaidPastCloseAfterIsClosedAtThePlatformThenInTheTable() {
    service.close();
    service = TestService.start(db.settings(), recovery(new JsonObject().put("close_unpaid_after_minutes", 30)));
    order("X1", 40 * 60);
    alipay.waiting("X1");
    order("X2", 10 * 60);
    alipay.waiting("X2");

    sweep();

    assertThat(alipay.closes("X1")).isEqualTo(1);
    assertThat(alipay.state("X1")).isEqualTo("TRADE_CLOSED");
    assertThat(db.orderStatus("X1")).isEqualTo("closed");
    assertThat(alipay.closes("X2")).isZero();
    assertThat(db.orderStatus("X2")).isEqualTo("unpaid");
  }

  /** An order asked about before: its next question an hour away. */
  void backedOff(String orderNo) {
    db.update("INSERT INTO order_checks (order_no, attempts, next_check_at, last_checked_at, created_at) VALUES (?, 3,"
        + " UTC_TIMESTAMP(3) + INTERVAL 1 HOUR, UTC_TIMESTAMP(3) - INTERVAL 10 MINUTE, UTC_TIMESTAMP(3))", orderNo);
  }

  /**
   * Issue 41: after the database refused writes from 250 to 100 s ago (Recovery.askFirst, the window starting a
   * minute before), the window's unpaid orders are the next sweep's first, whatever their back-off says: with one
   * question this minute, it goes to the window's order, not to the order due by age.
   */
  @Test
  void theOrdersOfAWindowTheDatabaseRefusedWritesInComeFirst() {
    service.close();
    service = TestService.start(db.settings(), recovery(new JsonObject().put("max_queries_per_minute", 1)));
    order("DUE", 900); // never asked: due
    order("W1", 200);
    backedOff("W1");
    alipay.paid("W1", "2026120422001400201", AMOUNT);

    service.server().recovery().askFirst(Instant.now().minusSeconds(310), Instant.now().minusSeconds(100));
    Sweeper.Sweep s = sweep();

    assertThat(s.asked()).isEqualTo(1);
    assertThat(alipay.queries("W1")).isEqualTo(1);
    assertThat(alipay.queries("DUE")).isZero();
    assertThat(db.orderStatus("W1")).isEqualTo("paid");
  }

  /**
   * The window's orders are asked about once, then go back to their back-off; one made outside the window, and one
   * of a platform that cannot be asked (epusdt: no order API here), are left to theirs.
   */
  @Test
  void aWindowsOrdersAreAskedFirstOnceAndOnlyThoseAPlatformCanBeAskedAbout() {
    for (String orderNo : new String[] {"W1", "W2"}) {
      order(orderNo, 200);
      backedOff(orderNo);
    }
    order("BEFORE", 1000);
    backedOff("BEFORE");
    db.update("INSERT INTO orders (order_no, amount_cents, channel, created_at) VALUES ('WE', ?, 'epusdt',"
        + " CONVERT_TZ(NOW(3), @@session.time_zone, '+08:00') - INTERVAL 200 SECOND)", CENTS);
    backedOff("WE");
    assertThat(sweep().asked()).as("all backed off").isZero();

    service.server().recovery().askFirst(Instant.now().minusSeconds(310), Instant.now().minusSeconds(100));

    assertThat(sweep().asked()).isEqualTo(2);
    assertThat(List.of(alipay.queries("W1"), alipay.queries("W2"), alipay.queries("BEFORE"), alipay.queries("WE")))
        .containsExactly(1, 1, 0, 0);
    assertThat(sweep().asked()).as("asked once: back to their back-off").isZero();
    assertThat(db.string("SELECT next_check_at > UTC_TIMESTAMP(3) FROM order_checks WHERE order_no = 'W1'"))
        .isEqualTo("1");
  }
}
