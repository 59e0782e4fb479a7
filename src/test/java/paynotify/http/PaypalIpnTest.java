package paynotify.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import paynotify.channel.PlatformTime;
import paynotify.testsupport.ChannelFixture;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.Notification;
import paynotify.testsupport.PaypalNotifications;
import paynotify.testsupport.PaypalVerifier;
import paynotify.testsupport.ServiceTestBase;

/**
 * PayPal IPN on the real service, with a real HTTP server playing PayPal's verification endpoint
 * ({@link PaypalVerifier}): what only PayPal does (three identical IPNs, windows-1252, asking PayPal,
 * Refunded with parent_txn_id, Pending then Completed). The common guarantees: {@link ChannelContractTest}.
 */
class PaypalIpnTest extends ServiceTestBase {
  private static final ChannelFixture PAYPAL = ChannelFixture.paypal();
  private static final PaypalVerifier VERIFIER = PaypalVerifier.get();

  @AfterEach
  void verifierBackUp() {
    VERIFIER.mode(PaypalVerifier.Mode.NORMAL);
  }

  /** As PayPal posts it (windows-1252), issued to the verifier. */
  private static Reply send(Map<String, String> ipn) {
    return service.send(PaypalNotifications.genuine(ipn));
  }

  // django-paypal #243: PayPal sent one transaction's IPN three times at once.
  @Test
  void threeIdenticalIpnsAtOnceBookOnceAndAllGet200() {
    db.insertOrder("P1", 1999);
    Notification ipn = PaypalNotifications.genuine(PaypalNotifications.payment("P1", "9TX11111AA222222B", 1999));
    int askedBefore = VERIFIER.asked();

    List<CompletableFuture<Reply>> replies = Stream.generate(() -> service.sendAsync(ipn)).limit(3).toList();

    assertThat(replies).allSatisfy(r -> assertThat(r.join()).isEqualTo(new Reply(200, "")));
    assertThat(VERIFIER.asked() - askedBefore).isEqualTo(3); // each copy asked PayPal, none was trusted unasked
    assertThat(VERIFIER.lastContentType()).isEqualTo("application/x-www-form-urlencoded");
    assertThat(db.payments("9TX11111AA222222B")).isEqualTo(1);
    assertThat(db.orderStatus("P1")).isEqualTo("paid");
    assertThat(db.column("SELECT outcome FROM notify_log WHERE idem_key = 'paypal:pay:9TX11111AA222222B' ORDER BY"
        + " outcome")).containsExactly("duplicate", "duplicate", "processed");
    // payment_date 10:20:30 Nov 30, 2026 PST is 02:20:30 the next day in Beijing
    assertThat(db.string("SELECT paid_at FROM payments")).startsWith("2026-12-01 02:20:30");
  }

  @Test
  void windows1252PayerNameIsVerifiedOnTheExactBytesAndStoredAsReceived() throws Exception {
    db.insertOrder("P2", 500);
    Map<String, String> p = PaypalNotifications.payment("P2", "9TX2", 500);
    p.put("first_name", "José");
    p.put("last_name", "Müller");
    p.put("item_name", "Café € 5"); // € is 0x80 in windows-1252: neither ISO-8859-1 nor UTF-8
    Notification ipn = PaypalNotifications.genuine(p);
    String sent = new String(ipn.body(), StandardCharsets.US_ASCII);
    assertThat(sent).contains("first_name=Jos%E9", "last_name=M%FCller", "item_name=Caf%E9+%80+5");

    assertThat(service.send(ipn)).isEqualTo(new Reply(200, ""));

    assertThat(db.orderStatus("P2")).isEqualTo("paid");
    service.awaitLogRecorded();
    try (Connection c = db.connect();
        PreparedStatement s = c.prepareStatement(
            "SELECT raw_body FROM notify_log WHERE idem_key = 'paypal:pay:9TX2'")) {
      try (ResultSet rs = s.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getBytes(1)).isEqualTo(ipn.body());
      }
    }

    // An IPN that names no charset is windows-1252, PayPal's default.
    db.insertOrder("P2b", 500);
    Map<String, String> unnamed = PaypalNotifications.payment("P2b", "9TX2B", 500);
    unnamed.remove("charset");
    unnamed.put("first_name", "José");
    assertThat(send(unnamed)).isEqualTo(new Reply(200, ""));
    assertThat(db.orderStatus("P2b")).isEqualTo("paid");
  }

  @Test
  void utf8IpnIsReadInTheCharsetItNames() {
    db.insertOrder("P2u", 500);
    Map<String, String> p = PaypalNotifications.payment("P2u", "9TX2U", 500);
    p.put("charset", "UTF-8");
    p.put("first_name", "Ángel"); // Á is C3 81 in UTF-8, and 0x81 is no character in windows-1252
    Notification ipn = PaypalNotifications.genuine(p, StandardCharsets.UTF_8);
    assertThat(new String(ipn.body(), StandardCharsets.US_ASCII)).contains("first_name=%C3%81ngel");

    assertThat(service.send(ipn)).isEqualTo(new Reply(200, ""));
    assertThat(db.orderStatus("P2u")).isEqualTo("paid");
  }

  @Test
  void refundedAfterItsPaymentRefundsTheParentTrade() {
    db.insertOrder("P3", 10000);
    assertThat(send(PaypalNotifications.payment("P3", "9PAY3", 10000)))
        .matches(PAYPAL.success());
    Notification refund = PaypalNotifications.genuine(PaypalNotifications.refund("P3", "9PAY3", "9REF3A", 2550));

    assertThat(service.send(refund)).isEqualTo(new Reply(200, ""));
    assertThat(service.send(refund)).isEqualTo(new Reply(200, ""));

    assertThat(db.orderStatus("P3")).isEqualTo("partially_refunded");
    assertThat(db.column("SELECT CONCAT(refund_no, ' ', trade_no, ' ', amount_cents, ' ', cumulative, ' ', status)"
        + " FROM refunds")).containsExactly("9REF3A 9PAY3 2550 0 settled");
    assertThat(db.outcomes("paypal:refund:9REF3A")).isEqualTo("processed,duplicate");

    assertThat(send(PaypalNotifications.refund("P3", "9PAY3", "9REF3B", 7450)))
        .matches(PAYPAL.success());
    assertThat(db.orderStatus("P3")).isEqualTo("refunded");
  }

  @Test
  void refundedBeforeItsPaymentWaitsAndThePaymentSettlesIt() {
    db.insertOrder("P4", 5000);
    Map<String, String> reversal = PaypalNotifications.refund("P4", "9PAY4", "9REV4", 5000);
    reversal.put("payment_status", "Reversed"); // a chargeback: money back to the buyer all the same
    reversal.put("reason_code", "chargeback");
    reversal.remove("invoice"); // the order comes from the booked payment

    assertThat(send(reversal)).matches(PAYPAL.success());
    assertThat(db.column("SELECT CONCAT(refund_no, ' ', trade_no, ' ', status) FROM refunds"))
        .containsExactly("9REV4 9PAY4 pending");
    assertThat(db.orderStatus("P4")).isEqualTo("unpaid");

    assertThat(send(PaypalNotifications.payment("P4", "9PAY4", 5000)))
        .matches(PAYPAL.success());
    assertThat(db.orderStatus("P4")).isEqualTo("refunded");
    assertThat(db.column("SELECT status FROM refunds")).containsExactly("settled");
  }

  @Test
  void pendingThenCompletedForOneTxnBooksTheCompleted() {
    db.insertOrder("P5", 800);
    Map<String, String> pending = PaypalNotifications.payment("P5", "9TX5", 800);
    pending.put("payment_status", "Pending");
    pending.put("pending_reason", "echeck");

    assertThat(send(pending)).matches(PAYPAL.success());
    assertThat(db.orderStatus("P5")).isEqualTo("unpaid");
    assertThat(db.payments("9TX5")).isZero();
    assertThat(db.outcomes("paypal:none:9TX5")).isEqualTo("ignored");

    assertThat(send(PaypalNotifications.payment("P5", "9TX5", 800)))
        .matches(PAYPAL.success());
    assertThat(db.orderStatus("P5")).isEqualTo("paid");
    assertThat(db.outcomes("paypal:pay:9TX5")).isEqualTo("processed");
  }

  @Test
  void wrongReceiverEmailIsRefusedAndNothingBooked() {
    db.insertOrder("P6", 500);
    Map<String, String> p = PaypalNotifications.payment("P6", "9TX6", 500);
    p.put("receiver_email", "someone.else@example.com"); // receiver_id still ours: both must match

    Reply reply = send(p);

    assertThat(reply.status()).isEqualTo(403);
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    assertThat(db.orderStatus("P6")).isEqualTo("unpaid");
    service.awaitLogRecorded();
    assertThat(db.string("SELECT CONCAT(outcome, ' ', detail) FROM notify_log"))
        .startsWith("rejected WRONG_MERCHANT: receiver_email");
  }

  @Test
  void otherCurrencyIsBookedAsCurrencyMismatchAndTheOrderStaysUnpaid() {
    db.insertOrder("P7", 500);
    Map<String, String> p = PaypalNotifications.payment("P7", "9TX7", 500);
    p.put("mc_currency", "EUR"); // 5.00 EUR is not the 5.00 USD the order asks

    assertThat(send(p)).matches(PAYPAL.success());

    assertThat(db.payments("9TX7")).isEqualTo(1);
    assertThat(db.orderStatus("P7")).isEqualTo("unpaid");
    assertThat(db.string("SELECT CONCAT(kind, ': ', detail) FROM anomalies WHERE trade_no = '9TX7'"))
        .startsWith("currency_mismatch:").contains("EUR");
  }

  @Test
  void verificationEndpointDownIs503AndTheRetryBooksIt() {
    db.insertOrder("P8", 1200);
    Notification ipn = PaypalNotifications.genuine(PaypalNotifications.payment("P8", "9TX8", 1200));

    VERIFIER.mode(PaypalVerifier.Mode.ERROR_500);
    assertThat(service.send(ipn).status()).isEqualTo(503);
    VERIFIER.mode(PaypalVerifier.Mode.CLOSED);
    assertThat(service.send(ipn).status()).isEqualTo(503);
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    assertThat(db.count("SELECT COUNT(*) FROM idempotent_keys")).isZero();
    assertThat(db.orderStatus("P8")).isEqualTo("unpaid");

    VERIFIER.mode(PaypalVerifier.Mode.NORMAL); // PayPal is back; it retries the same IPN
    assertThat(service.send(ipn)).isEqualTo(new Reply(200, ""));
    assertThat(db.orderStatus("P8")).isEqualTo("paid");
    assertThat(db.outcomes("paypal:pay:9TX8")).isEqualTo("processed");
  }

  @Test
  void verifierSlowerThanTheTimeoutIs503() {
    db.insertOrder("P9", 300);
    Notification ipn = PaypalNotifications.genuine(PaypalNotifications.payment("P9", "9TX9", 300));
    VERIFIER.mode(PaypalVerifier.Mode.SLOW);

    long start = System.nanoTime();
    Reply reply = service.send(ipn);
    Duration took = Duration.ofNanos(System.nanoTime() - start);

    assertThat(reply.status()).isEqualTo(503);
    assertThat(took).isLessThan(Duration.ofMillis(PaypalVerifier.SLOW_MILLIS)); // verify_timeout_ms, not PayPal
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    assertThat(db.orderStatus("P9")).isEqualTo("unpaid");
  }

  @Test
  void unreadablePaymentDateIsBookedAtTheTimeOfReceipt() {
    db.insertOrder("P10", 300);
    Map<String, String> p = PaypalNotifications.payment("P10", "9TX10", 300);
    p.put("payment_date", "sometime next week");
    LocalDateTime before = PlatformTime.now().withNano(0);

    assertThat(send(p)).matches(PAYPAL.success());

    LocalDateTime paidAt = LocalDateTime.parse(db.string("SELECT paid_at FROM payments").substring(0, 19)
        .replace(' ', 'T'));
    assertThat(paidAt).isBetween(before, PlatformTime.now().plusSeconds(1));
  }
}
