package paynotify.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import paynotify.cli.ExitCode;
import paynotify.config.AppConfig.DatabaseSettings;
import paynotify.testsupport.AlipayStandIn;
import paynotify.testsupport.Cli;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.Http;
import paynotify.testsupport.PlatformStandIn;
import paynotify.testsupport.ServiceProcess;
import paynotify.testsupport.TestService;
import paynotify.testsupport.WechatV2StandIn;
import paynotify.testsupport.WechatV3StandIn;

/**
 * "Is it paid?" asked now, as the site's return page does: over the admin listener (with its token) and
 * with {@code paynotify check}; each against every platform that can be asked, played by its stand-in.
 */
class CheckOrderTest extends DatabaseTestBase {
  private static final String TOKEN = "check-admin-token-0123456789";

  static Stream<Arguments> platforms() {
    return Stream.of(
        Arguments.of("alipay", (Supplier<PlatformStandIn>) AlipayStandIn::start, "88.88", "TRADE_SUCCESS"),
        Arguments.of("wechat v2", (Supplier<PlatformStandIn>) WechatV2StandIn::start, "8888", "SUCCESS"),
        Arguments.of("wechat v3", (Supplier<PlatformStandIn>) WechatV3StandIn::start, "8888", "SUCCESS"));
  }

  void order(String orderNo) {
    db.update("INSERT INTO orders (order_no, amount_cents, created_at) VALUES (?, 8888,"
        + " CONVERT_TZ(NOW(3), @@session.time_zone, '+08:00') - INTERVAL 300 SECOND)", orderNo);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("platforms")
  void theAdminListenerAsksBooksAndAnswersTheState(String name, Supplier<PlatformStandIn> start, String amount,
      String status) throws Exception {
    int admin = ServiceProcess.freePort();
    try (PlatformStandIn platform = start.get(); TestService service = withAdmin(platform, admin)) {
      order("H1");
      platform.waiting("H1");
      assertThat(Http.postWithToken(admin, "/orders/H1/check", TOKEN)).extracting(r -> r.status(), r -> state(r))
          .containsExactly(200, "unpaid");

      platform.paid("H1", "4200001234202612041234567890", amount);
      fifteenSecondsLater("H1");
      Http.Reply paid = Http.postWithToken(admin, "/orders/H1/check", TOKEN);
      assertThat(paid.status()).isEqualTo(200);
      assertThat(new JsonObject(paid.body()).getString("state")).isEqualTo("paid");
      assertThat(new JsonObject(paid.body()).getBoolean("fulfil")).isTrue();
      assertThat(new JsonObject(paid.body()).getString("platform_status")).isEqualTo(status);
      assertThat(db.orderStatus("H1")).isEqualTo("paid");
      assertThat(db.count("SELECT COUNT(*) FROM payments WHERE order_no = 'H1'")).isEqualTo(1);

      assertThat(Http.postWithToken(admin, "/orders/NONE/check", TOKEN)).extracting(CheckOrderTest::state)
          .isEqualTo("unknown");
      assertThat(Http.postWithToken(admin, "/orders/H1/check", "wrong-token").status()).isEqualTo(401);
    }
  }

  @Test
  void theCommandAsksBooksAndSaysTheStateInItsExitCode() {
    try (PlatformStandIn alipay = AlipayStandIn.start()) {
      String yaml = "alipay: " + alipay.configure(TestService.configuration(new JsonObject())).getJsonObject("alipay").encode() + "\n";
      order("C1");
      alipay.waiting("C1");
      Cli.Result unpaid = Cli.runConfigured(yaml, "check", "C1");
      assertThat(unpaid.exit()).as(unpaid.err()).isEqualTo(ExitCode.FOUND);
      assertThat(unpaid.out()).startsWith("unpaid: ");

      alipay.paid("C1", "2026120422001400071", "88.88");
      fifteenSecondsLater("C1");
      Cli.Result paid = Cli.runConfigured(yaml, "check", "C1", "--json");
      assertThat(paid.exit()).as(paid.err()).isZero();
      assertThat(new JsonObject(paid.out().trim()).getString("state")).isEqualTo("paid");
      assertThat(new JsonObject(paid.out().trim()).getBoolean("fulfil")).isTrue();
      assertThat(db.orderStatus("C1")).isEqualTo("paid");
      assertThat(db.string("SELECT channel FROM notify_log WHERE idem_key = 'alipay:pay:2026120422001400071'"))
          .isEqualTo("query");
    }
  }

  @Test
  void withoutAPlatformToAskTheCommandSaysWhatToSet() {
    Cli.Result r = Cli.run("check", "C2");
    assertThat(r.exit()).isEqualTo(ExitCode.UNUSABLE);
    assertThat(r.err()).contains("alipay.app_private_key_file");
  }

  @Test
  void aHundredChecksOfOneWaitingOrderInAFewSecondsAskThePlatformOnce() throws Exception {
    int admin = ServiceProcess.freePort();
    try (PlatformStandIn alipay = AlipayStandIn.start(); TestService service = withAdmin(alipay, admin)) {
      order("F1");
      alipay.waiting("F1");
      ExecutorService pages = Executors.newFixedThreadPool(10); // ten buyers' tabs reloading at once
      try {
        List<Future<Http.Reply>> replies = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
          replies.add(pages.submit(() -> Http.postWithToken(admin, "/orders/F1/check", TOKEN)));
        }
        for (Future<Http.Reply> reply : replies) {
          assertThat(reply.get()).extracting(Http.Reply::status, CheckOrderTest::state).containsExactly(200, "unpaid");
        }
      } finally {
        pages.shutdown();
      }
      assertThat(alipay.queries("F1")).isBetween(1, 3);
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"refunded", "partially_refunded"})
  void aRefundedOrderIsAnsweredAsItIsAndNotToBeFulfilled(String status) throws Exception {
    int admin = ServiceProcess.freePort();
    try (PlatformStandIn alipay = AlipayStandIn.start(); TestService service = withAdmin(alipay, admin)) {
      order("RF1");
      db.update("UPDATE orders SET status = ? WHERE order_no = 'RF1'", status);
      JsonObject answer = new JsonObject(Http.postWithToken(admin, "/orders/RF1/check", TOKEN).body());
      assertThat(answer.getString("state")).isEqualTo(status);
      assertThat(answer.getBoolean("fulfil")).isFalse();
      assertThat(alipay.queries("RF1")).isZero();
    }
  }

  // A site whose creation column may be empty on an order (played here by paid_at, NULL while unpaid): the check
  // cannot tell the order's age, says so, and does not ask.
  @Test
  void anOrderWithoutACreationTimeIsAnsweredFromTheTableSayingWhy() {
    try (AlipayStandIn alipay = AlipayStandIn.start(); TestService service = TestService.start(db.settings(),
        alipay.configure(TestService.configuration(new JsonObject()
            .put("orders", new JsonObject().put("columns", new JsonObject().put("paid_at", "").put("created_at", "paid_at")))
            .put("recovery", new JsonObject().put("enabled", true).put("interval_seconds", 3600)))))) {
      order("N1");
      alipay.paid("N1", "2026120422001400081", "88.88");

      CheckAnswer answer = service.server().recovery().check("N1").await();

      assertThat(answer.state()).isEqualTo(CheckAnswer.State.UNPAID);
      assertThat(answer.detail()).startsWith("not asked: the order's age is not known (no orders.columns.created_at,"
          + " or none on this order)");
      assertThat(alipay.queries("N1")).isZero();
    }
  }

  // Two checks of one order meet on its order_checks row: on Galera the loser of a certification conflict gets a
  // deadlock (1213), elsewhere it may wait out innodb_lock_wait_timeout (1205). Either way its claim is run again
  // and the return page gets its answer, not an error. Played with a lock held past a one-second timeout: a real
  // deadlock on these one-statement transactions cannot be provoked on cue, and TransientRetry takes 1205 and 1213
  // alike.
  @Test
  void aCheckWhoseClaimWaitsOutALockClaimsAgain() throws Exception {
    DatabaseSettings s = db.settings();
    DatabaseSettings oneSecond = new DatabaseSettings(s.host(), s.port(), s.name(), s.user(), s.password(),
        s.poolSize(), s.maxWaitQueue(), s.connectTimeout(), 1, s.embeddedDir(), s.security(), s.timeZone());
    try (AlipayStandIn alipay = AlipayStandIn.start(); TestService service = TestService.start(oneSecond,
        alipay.configure(TestService.configuration(new JsonObject()
            .put("recovery", new JsonObject().put("enabled", true).put("interval_seconds", 3600)))));
        Connection otherCheck = db.connect(); Statement sql = otherCheck.createStatement()) {
      order("L1");
      alipay.waiting("L1");
      otherCheck.setAutoCommit(false);
      sql.executeUpdate("INSERT INTO order_checks (order_no, next_check_at, created_at)"
          + " VALUES ('L1', UTC_TIMESTAMP(3), UTC_TIMESTAMP(3))"); // not committed: the row is locked
      long waits = rowLockWaits();

      CompletableFuture<CheckAnswer> check = service.server().recovery().check("L1").toCompletionStage()
          .toCompletableFuture();
      while (rowLockWaits() < waits + 2 && !check.isDone()) { // waited out once, and waiting again
        Thread.sleep(20);
      }
      otherCheck.rollback();

      assertThat(check.get(10, TimeUnit.SECONDS).state()).isEqualTo(CheckAnswer.State.UNPAID);
      assertThat(alipay.queries("L1")).isEqualTo(1);
    }
  }

  private static long rowLockWaits() {
    return db.count("SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS"
        + " WHERE VARIABLE_NAME = 'INNODB_ROW_LOCK_WAITS'");
  }

  /** The service with its admin listener on {@code admin}, asking {@code platform}; the sweeper's timer far away. */
  private TestService withAdmin(PlatformStandIn platform, int admin) {
    return TestService.start(db.settings(), platform.configure(TestService.configuration(
        new JsonObject().put("admin", new JsonObject().put("port", admin).put("token", TOKEN))
            .put("recovery", new JsonObject().put("enabled", true).put("interval_seconds", 3600)))));
  }

  /** The order's last question made 15 s older: a check now asks the platform again. */
  private void fifteenSecondsLater(String orderNo) {
    db.update("UPDATE order_checks SET last_checked_at = last_checked_at - INTERVAL 15 SECOND WHERE order_no = ?",
        orderNo);
  }

  private static String state(Http.Reply r) {
    return new JsonObject(r.body()).getString("state");
  }

}
