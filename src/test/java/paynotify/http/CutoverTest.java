package paynotify.http;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import paynotify.config.AppConfig;
import paynotify.setup.Schema;
import paynotify.testsupport.ChannelFixture;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.SiteTable;
import paynotify.testsupport.TestDatabase;
import paynotify.testsupport.TestService;

/**
 * The switch of docs/integration.md section 7, against the real service: notify.php books through
 * paynotify's payments table with the guide's own statements (read from the guide, so that they
 * cannot drift), and each of the two then finds the other's trades booked. On dujiaoka's own
 * {@code orders} every statement is the guide's; on a table without trade columns only the order's
 * two statements are the site's, and which trade paid an order is known from moved_order alone.
 */
class CutoverTest extends DatabaseTestBase {
  private static final ChannelFixture ALIPAY = ChannelFixture.alipay();
  /** A database of its own: the guide's statements name dujiaoka's table `orders`, as the site has it. */
  private static final TestDatabase site = db.scratch(TestDatabase.NAME + "_cutover");
  private static final SiteTable DUJIAOKA = SiteTable.dujiaoka(site).as(site, "orders");
  private static final SiteTable STATUS_ONLY = SiteTable.statusOnly(site);
  private static final Map<SiteTable, NotifyPhp> notifyPhp = Map.of(
      DUJIAOKA, new NotifyPhp(DUJIAOKA, Guide.statement("UPDATE orders"), true, Guide.statement("SELECT")),
      // as the guide says to adapt them for another table
      STATUS_ONLY, new NotifyPhp(STATUS_ONLY,
          "UPDATE shop_orders SET pay_status = 1 WHERE out_trade_no = ? AND pay_status = 0 AND total_fee = ?", false,
          "SELECT pay_status, NULL FROM shop_orders WHERE out_trade_no = ? FOR UPDATE"));
  private static final Map<SiteTable, TestService> services = new HashMap<>();

  @BeforeAll
  static void createTheSiteAndStartPaynotifyOnIt() {
    for (SiteTable table : List.of(DUJIAOKA, STATUS_ONLY)) {
      table.create();
      Schema.migrate(site.settings(), AppConfig.from(TestService.configuration(table.overrides()),
          "test", Map.of()).orders(), Set.of(), "test"); // dujiaoka's orders exists first: V1 leaves it alone
      services.put(table, TestService.start(site.settings(), table.overrides()));
    }
  }

  @AfterAll
  static void stopAndDrop() {
    services.values().forEach(TestService::close);
    site.drop();
  }

  @BeforeEach
  void emptyTheSite() {
    site.reset(); // dujiaoka's orders among paynotify's tables
    STATUS_ONLY.empty();
  }

  static Stream<SiteTable> sites() {
    return Stream.of(DUJIAOKA, STATUS_ONLY);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sites")
  void aTradeNotifyPhpBookedIsADuplicateToPaynotify(SiteTable table) throws Exception {
    table.insertOrder("O1", 1000);
    assertThat(php(table).book("T1", "O1", 1000)).isEqualTo("booked");
    assertThat(table.status("O1")).isEqualTo(table.paid());
    String booked = booked(table, "O1");

    assertThat(service(table).send(ALIPAY.payment("O1", "T1", 1000, 0))).matches(ALIPAY.success());
    assertThat(site.outcomes("alipay:pay:T1")).isEqualTo("duplicate");
    assertThat(booked(table, "O1")).isEqualTo(booked).contains("T1 O1 1000 moved=1");
  }

  /** On the status-only table only notify.php's moved_order = 1 says that T1 paid the order. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("sites")
  void aSecondTradeIsASecondPaymentNamingTheTradeNotifyPhpBooked(SiteTable table) throws Exception {
    table.insertOrder("O2", 1000);
    assertThat(php(table).book("T1", "O2", 1000)).isEqualTo("booked");

    assertThat(service(table).send(ALIPAY.payment("O2", "T2", 1000, 0))).matches(ALIPAY.success());
    assertThat(site.payments("T2")).isEqualTo(1);
    assertThat(table.status("O2")).isEqualTo(table.paid());
    assertThat(site.string("SELECT CONCAT(kind, ' ', dedupe_key, ': ', detail) FROM anomalies"))
        .startsWith("second_payment second_payment:alipay:pay:T2: ").contains("already paid by ", "trade T1");
  }

  /** dujiaoka maps no refund status (its order stays paid); on the other, moved_order lets the refund move it. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("sites")
  void aRefundOfATradeNotifyPhpBookedMovesItsOrder(SiteTable table) throws Exception {
    table.insertOrder("O3", 1000);
    assertThat(php(table).book("T1", "O3", 1000)).isEqualTo("booked");

    assertThat(service(table).send(ALIPAY.refund("O3", "T1", 1000, "R1", 1000, 1000, 0))).matches(ALIPAY.success());
    assertThat(site.string("SELECT status FROM refunds WHERE trade_no = 'T1'")).isEqualTo("settled");
    assertThat(table.status("O3")).isEqualTo(table.afterFullRefund());
    assertThat(site.count("SELECT COUNT(*) FROM anomalies")).isZero();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sites")
  void notifyPhpFindsATradePaynotifyBookedADuplicate(SiteTable table) throws Exception {
    table.insertOrder("O4", 1000);
    assertThat(service(table).send(ALIPAY.payment("O4", "T1", 1000, 0))).matches(ALIPAY.success());
    String booked = booked(table, "O4");

    assertThat(php(table).book("T1", "O4", 1000)).isEqualTo("duplicate");
    assertThat(booked(table, "O4")).isEqualTo(booked);
  }

  /** notify.php's anomaly is the one paynotify would record: later copies of the trade are duplicates to it. */
  @Test
  void notifyPhpRecordsWhyAnOrderDidNotMoveAsPaynotifyWould() throws Exception {
    DUJIAOKA.insertOrder("O5", 1000);
    assertThat(service(DUJIAOKA).send(ALIPAY.payment("O5", "T1", 1000, 0))).matches(ALIPAY.success());
    assertThat(php(DUJIAOKA).book("T2", "O5", 1000)).isEqualTo("check");
    assertThat(php(DUJIAOKA).book("T3", "O6", 1000)).isEqualTo("check");
    assertThat(service(DUJIAOKA).send(ALIPAY.payment("O5", "T2", 1000, 1))).matches(ALIPAY.success());

    assertThat(site.outcomes("alipay:pay:T2")).isEqualTo("duplicate");
    assertThat(site.column("SELECT CONCAT(kind, ' ', dedupe_key, ' ', order_no, ' ', amount_cents) FROM anomalies"
        + " ORDER BY id")).containsExactly("second_payment second_payment:alipay:pay:T2 O5 1000",
            "unknown_order unknown_order:alipay:pay:T3 O6 1000");
    assertThat(site.string("SELECT moved_order FROM payments WHERE trade_no = 'T2'")).isEqualTo("0");
  }

  /** The old notify.php marked the order paid by T1 before the change: no anomaly, and T1 is its payer. */
  @Test
  void anOrderMarkedPaidByTheSameTradeBeforeTheChangeIsADuplicate() throws Exception {
    DUJIAOKA.insertOrder("O7", 1000);
    site.update("UPDATE orders SET status = 2, trade_no = 'T1' WHERE order_sn = 'O7'");

    assertThat(php(DUJIAOKA).book("T1", "O7", 1000)).isEqualTo("duplicate");
    assertThat(site.string("SELECT moved_order FROM payments WHERE trade_no = 'T1'")).isEqualTo("1");
    assertThat(site.count("SELECT COUNT(*) FROM anomalies")).isZero();
  }

  static Stream<Arguments> sitesAndEnds() {
    return sites().flatMap(table -> Stream.of(Arguments.of(table, true), Arguments.of(table, false)));
  }

  /**
   * notify.php's transaction is still open after its statements when paynotify is sent the same trade:
   * paynotify's UPDATE of the order waits on the order row notify.php marked. After notify.php's COMMIT paynotify answers
   * success as a duplicate and books nothing; after a ROLLBACK it books the trade itself.
   */
  @ParameterizedTest(name = "{0} commit={1}")
  @MethodSource("sitesAndEnds")
  void paynotifyRacingNotifyPhpWaitsForItsTransaction(SiteTable table, boolean commit) throws Exception {
    table.insertOrder("O8", 1000);
    CompletableFuture<Reply> reply;
    try (Connection php = site.connect()) {
      php.setAutoCommit(false);
      assertThat(php(table).bookUncommitted(php, "T1", "O8", 1000)).isEqualTo("booked");
      reply = service(table).sendAsync(ALIPAY.payment("O8", "T1", 1000, 0));
      awaitPaynotifyWaiting();
      assertThat(reply).isNotDone();
      if (commit) {
        php.commit();
      } else {
        php.rollback();
      }
    }

    assertThat(reply.get(10, SECONDS)).matches(ALIPAY.success());
    assertThat(site.outcomes("alipay:pay:T1")).isEqualTo(commit ? "duplicate" : "processed");
    // moved_order = 1 either way; the idempotency key is paynotify's, kept only when it booked
    assertThat(booked(table, "O8"))
        .isEqualTo("T1 O8 1000 moved=1 | " + (commit ? 0 : 1) + " | 0 | order " + table.paid());
  }

  /**
   * paynotify's UPDATE of the order is seen running: it waits on notify.php's row (it would end at once
   * otherwise). By the process list: INNODB_TRX of some servers does not list that transaction.
   */
  private static void awaitPaynotifyWaiting() throws InterruptedException {
    for (int i = 0; i < 300; i++) {
      if (site.count("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE DB = ?"
          + " AND INFO LIKE 'UPDATE `%` SET %'", site.settings().name()) > 0) {
        return;
      }
      Thread.sleep(10);
    }
    throw new AssertionError("paynotify never waited on notify.php's row lock");
  }

  /** What booking wrote: payments (with moved_order), anomalies, idempotency keys, the order's status. */
  private static String booked(SiteTable table, String orderNo) {
    return site.string("SELECT CONCAT_WS(' | ', (SELECT GROUP_CONCAT(trade_no, ' ', order_no, ' ', amount_cents,"
        + " ' moved=', moved_order ORDER BY id) FROM payments), (SELECT COUNT(*) FROM idempotent_keys),"
        + " (SELECT COUNT(*) FROM anomalies))") + " | order " + table.status(orderNo);
  }

  private static TestService service(SiteTable table) {
    return services.get(table);
  }

  private static NotifyPhp php(SiteTable table) {
    return notifyPhp.get(table);
  }

  /** The SQL of section 7's book_payment, as the guide writes it. */
  static final class Guide {
    private static final List<String> STATEMENTS = read();

    private static List<String> read() {
      try {
        String guide = Files.readString(Path.of("docs/integration.md"));
        String section = guide.substring(guide.indexOf("## 7. "), guide.indexOf("## 8. "));
        String php = section.substring(section.indexOf("```php"));
        php = php.substring(0, php.indexOf("```", 6)).replaceAll("'\\s*\\.\\s*'", ""); // 'a' . 'b' is 'ab'
        Matcher sql = Pattern.compile("'((?:SELECT|INSERT|UPDATE) [^']*)'").matcher(php);
        List<String> statements = new ArrayList<>();
        while (sql.find()) {
          statements.add(sql.group(1));
        }
        // a statement added to the guide must be added to NotifyPhp too
        assertThat(statements).as("book_payment's statements in docs/integration.md section 7").hasSize(5);
        return statements;
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }

    static String statement(String start) {
      List<String> found = STATEMENTS.stream().filter(s -> s.startsWith(start)).toList();
      assertThat(found).as("the guide's statement starting with " + start).hasSize(1);
      return found.get(0);
    }
  }

  /**
   * book_payment as docs/integration.md section 7 writes it, statement by statement with the guide's
   * texts; on the site's table, its own two statements (the guide's for dujiaoka) and status values.
   */
  record NotifyPhp(SiteTable table, String markPaid, boolean markPaidSetsTradeNo, String orderRow) {
    private static final String INSERT_PAYMENT = Guide.statement("INSERT INTO payments");
    private static final String SET_MOVED_ORDER = Guide.statement("UPDATE payments");
    private static final String INSERT_ANOMALY = Guide.statement("INSERT INTO anomalies");
    private static final String PAID_AT = "2026-11-29 10:15:09"; // gmt_payment of ChannelFixture's payments

    String book(String tradeNo, String orderNo, long cents) throws SQLException {
      try (Connection c = site.connect()) {
        c.setAutoCommit(false);
        String result = bookUncommitted(c, tradeNo, orderNo, cents);
        c.commit();
        return result;
      }
    }

    /** Everything up to the COMMIT; 'duplicate' has rolled back already, as in PHP. */
    String bookUncommitted(Connection c, String tradeNo, String orderNo, long cents) throws SQLException {
      try {
        update(c, INSERT_PAYMENT, "alipay", tradeNo, orderNo, cents, PAID_AT);
      } catch (SQLException e) {
        if (e.getErrorCode() != 1062) {
          throw e;
        }
        c.rollback();
        return "duplicate";
      }
      int moved = markPaidSetsTradeNo ? update(c, markPaid, tradeNo, orderNo, cents)
          : update(c, markPaid, orderNo, cents);
      String result = moved == 1 ? "booked" : "check";
      if (result.equals("check")) {
        String[] order = orderRow(c, orderNo);
        String kind = order == null ? "unknown_order"
            : tradeNo.equals(order[1]) ? null
            : order[0].equals(table.unpaid()) ? "amount_mismatch"
            : order[0].equals(table.paid())
                ? (order[1] == null || order[1].isEmpty() ? "already_paid" : "second_payment")
            : order[0].equals(table.closed()) ? "paid_after_close"
            : "unexpected_order_status";
        if (kind == null) {
          result = "duplicate";
        } else {
          update(c, INSERT_ANOMALY, kind, "alipay", orderNo, tradeNo, cents, "notify.php: alipay trade " + tradeNo
              + " paid " + cents + " cents, order " + orderNo + (order == null ? " unknown"
                  : " has status " + order[0] + ", trade_no '" + order[1] + "'"), kind + ":alipay:pay:" + tradeNo);
        }
      }
      if (!result.equals("check")) {
        update(c, SET_MOVED_ORDER, "alipay", tradeNo);
      }
      return result;
    }

    /** The locked order's status and trade_no, or null when the table has no such order. */
    private String[] orderRow(Connection c, String orderNo) throws SQLException {
      try (PreparedStatement ps = prepare(c, orderRow, orderNo); ResultSet rs = ps.executeQuery()) {
        return rs.next() ? new String[] {rs.getString(1), rs.getString(2)} : null;
      }
    }

    private static int update(Connection c, String sql, Object... args) throws SQLException {
      try (PreparedStatement ps = prepare(c, sql, args)) {
        return ps.executeUpdate();
      }
    }

    private static PreparedStatement prepare(Connection c, String sql, Object... args) throws SQLException {
      PreparedStatement ps = c.prepareStatement(sql);
      for (int i = 0; i < args.length; i++) {
        ps.setObject(i + 1, args[i]);
      }
      return ps;
    }
  }
}
