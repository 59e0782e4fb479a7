package paynotify.channel.paypal;

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
import paynotify.channel.FormBody;
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
 * Refunded with parent_txn_id, Pending then Completed). The common guarantees: {@code http.ChannelContractTest}.
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

    assertThat(answered503(ipn)).isLessThan(Duration.ofMillis(PaypalVerifier.SLOW_MILLIS)); // verify_timeout_ms, not PayPal
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

  // Review M2: the sandbox's IPN Simulator lets anyone post test_ipn=1 with the shop's receiver_email.
  @Test
  void aTestIpnIsRefusedByALiveConfigurationAndBooksNothing() {
    db.insertOrder("PSB", 1999);
    Map<String, String> p = PaypalNotifications.payment("PSB", "9TXSANDBOX0000001", 1999);
    p.put("test_ipn", "1");

    assertThat(send(p).status()).isBetween(400, 499);

    assertThat(db.orderStatus("PSB")).isEqualTo("unpaid");
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
  }

  // Review S6: activemerchant/offsite_payments' Mass Pay IPN (test/unit/integrations/paypal/
  // paypal_notification_test.rb), payer side: receiver_email_1..n only. Without its test_ipn=1, as live.
  private static final String MASS_PAY = "payer_id=LPV4F4HZHCE&payment_date=06%3A25%3A37+Oct+25%2C+2012+PDT"
      + "&payment_gross_1=&payment_gross_2=&payment_gross_3=&payment_status=Completed"
      + "&receiver_email_1=buyer_1348066306_per%40example.com&receiver_email_2=buyer_1351170859_per%40example.com"
      + "&charset=windows-1252&receiver_email_3=buyer_1351170993_per%40example.com&mc_currency_1=GBP"
      + "&masspay_txn_id_1=7XW35917TG8293137&mc_currency_2=GBP&masspay_txn_id_2=79512417EL9296629&mc_currency_3=GBP"
      + "&masspay_txn_id_3=75X24749Y32677910&first_name=Test&unique_id_1=123&notify_version=3.7&unique_id_2=456"
      + "&unique_id_3=789&payer_status=verified&verify_sign=AwtKW.5QSiJCrI10IE.2gmVei1MEAwsHLftLIB9pXgu82MLXoCS1yeE-"
      + "&payer_email=massuk_1351170591_biz%40example.com&payer_business_name=Tests%27s+Test+Store&last_name=Test"
      + "&status_1=Completed&status_2=Completed&status_3=Completed&txn_type=masspay&mc_gross_1=10.00"
      + "&mc_gross_2=24.50&mc_gross_3=20.00&payment_fee_1=&residence_country=GB&payment_fee_2=&payment_fee_3="
      + "&mc_fee_1=0.20&mc_fee_2=0.49&mc_fee_3=0.40&ipn_track_id=89f7ff244947f";

  /** PayPal retries a failing IPN for days, then disables the listener: the payment IPNs with it. */
  @Test
  void aVerifiedMassPayIpnIsAnswered200AndIgnored() {
    byte[] body = PaypalVerifier.get().issue(MASS_PAY.getBytes(StandardCharsets.US_ASCII));
    int askedBefore = VERIFIER.asked();

    assertThat(service.send(PaypalNotifications.unissued(body))).isEqualTo(new Reply(200, ""));

    assertThat(VERIFIER.asked() - askedBefore).isEqualTo(1); // no receiver of ours to refuse it by: PayPal is asked
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    assertThat(db.string("SELECT CONCAT(outcome, ' ', detail) FROM notify_log")).startsWith("ignored")
        .contains("masspay");
  }

  // The form caps bound the work before verification; an IPN PayPal vouched for is read whole: a cart's
  // IPN carries a blank option field or two per item.
  @Test
  void aVerifiedCartIpnWithManyBlankFieldsIsBooked() throws Exception {
    db.insertOrder("PCART", 4000);
    Map<String, String> cart = PaypalNotifications.payment("PCART", "9CARTBLANK01", 4000);
    cart.put("txn_type", "cart");
    for (int item = 1; item <= FormBody.MAX_BLANK_VALUES; item++) {
      cart.put("option_name1_" + item, "");
      cart.put("option_selection1_" + item, "");
    }

    assertThat(send(cart)).matches(PAYPAL.success());
    assertThat(db.orderStatus("PCART")).isEqualTo("paid");
  }

  // A Completed payment to us, for one of our orders, of a type that books nothing (a subscription's monthly
  // payment): not booked (a second month would be a "second payment, refund the buyer"), but real money a
  // human must hear of, not an ignored row.
  @Test
  void aCompletedPaymentOfAnUnbookedTypeForOurOrderIsAnAnomaly() throws Exception {
    db.insertOrder("PSUB", 900);
    Map<String, String> monthly = PaypalNotifications.payment("PSUB", "9SUBPAY01", 900);
    monthly.put("txn_type", "subscr_payment");
    Notification ipn = PaypalNotifications.genuine(monthly);

    assertThat(service.send(ipn)).isEqualTo(new Reply(200, ""));
    assertThat(service.send(ipn)).isEqualTo(new Reply(200, "")); // PayPal's retry: still one anomaly

    assertThat(db.orderStatus("PSUB")).isEqualTo("unpaid");
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    assertThat(db.column("SELECT CONCAT(kind, ' ', order_no, ' ', trade_no, ' ', amount_cents) FROM anomalies"))
        .containsExactly("unbooked_payment PSUB 9SUBPAY01 900");
  }

  // Review S6: the chargeback decided for the merchant after its Reversed was booked as a refund.
  @Test
  void aCanceledReversalAfterABookedReversalIsAnAnomalyWithItsBody() throws Exception {
    db.insertOrder("PCR", 5000);
    assertThat(send(PaypalNotifications.payment("PCR", "9PAYCR", 5000))).matches(PAYPAL.success());
    Map<String, String> reversal = PaypalNotifications.refund("PCR", "9PAYCR", "9REVCR", 5000);
    reversal.put("payment_status", "Reversed");
    reversal.put("reason_code", "chargeback");
    assertThat(send(reversal)).matches(PAYPAL.success());
    assertThat(db.orderStatus("PCR")).isEqualTo("refunded");
    Map<String, String> canceled = PaypalNotifications.refund("PCR", "9PAYCR", "9CANCR", 5000);
    canceled.put("payment_status", "Canceled_Reversal");
    canceled.put("mc_gross", "50.00"); // the money comes back to the merchant
    canceled.put("reason_code", "other");
    Notification ipn = PaypalNotifications.genuine(canceled);

    assertThat(service.send(ipn)).isEqualTo(new Reply(200, ""));
    assertThat(service.send(ipn)).isEqualTo(new Reply(200, "")); // PayPal's retry: still one anomaly

    assertThat(db.column("SELECT CONCAT(kind, ' ', trade_no, ' ', order_no) FROM anomalies"))
        .containsExactly("chargeback_reversed 9PAYCR PCR");
    assertThat(db.orderStatus("PCR")).isEqualTo("refunded"); // a human decides: the goods were taken back
    assertThat(db.column("SELECT outcome FROM notify_log WHERE raw_body = ?", ipn.body())).isNotEmpty()
        .containsOnly("anomaly"); // kept with its body
  }

  // Review S6: verified, then unreadable: not "rejected" without a trace, and never a 4xx PayPal retries for days.
  @Test
  void aVerifiedIpnThatCannotBeReadIsAnAnomalyWithItsBodyAnd200() throws Exception {
    Map<String, String> unknownCharset = PaypalNotifications.payment("PUC", "9TXUC", 700);
    unknownCharset.put("charset", "x-mac-klingon");
    Notification first = PaypalNotifications.genuine(unknownCharset);
    Map<String, String> noInvoice = PaypalNotifications.payment("PNI", "9TXNI", 700);
    noInvoice.remove("invoice");
    Notification second = PaypalNotifications.genuine(noInvoice);

    assertThat(service.send(first)).isEqualTo(new Reply(200, ""));
    assertThat(service.send(second)).isEqualTo(new Reply(200, ""));

    assertThat(db.column("SELECT CONCAT(kind, ' ', COALESCE(trade_no, '-'), ' ', COALESCE(order_no, '-'))"
        + " FROM anomalies ORDER BY id"))
        .containsExactly("unreadable_notification 9TXUC PUC", "payment_without_order 9TXNI -"); // point 5: its order
    assertThat(db.string("SELECT detail FROM anomalies WHERE trade_no = '9TXUC'")).contains("charset");
    assertThat(db.column("SELECT outcome FROM notify_log WHERE raw_body = ?", first.body())).isNotEmpty()
        .containsOnly("anomaly"); // kept with its body
    assertThat(db.column("SELECT outcome FROM notify_log WHERE raw_body = ?", second.body())).isNotEmpty()
        .containsOnly("anomaly"); // kept with its body
  }

  // Review S7: a body naming another receiver costs PayPal nothing; N5: ASCII case only, no Unicode folding.
  @Test
  void aForeignReceiverIsRefusedWithoutAskingPaypal() {
    db.insertOrder("PFR", 500);
    int askedBefore = VERIFIER.asked();
    Map<String, String> otherEmail = PaypalNotifications.payment("PFR", "9TXFR1", 500);
    otherEmail.put("receiver_email", "someone.else@example.com");
    Map<String, String> otherId = PaypalNotifications.payment("PFR", "9TXFR2", 500);
    otherId.put("receiver_id", "OTHER0MERCHNT");
    Map<String, String> longS = PaypalNotifications.payment("PFR", "9TXFR3", 500);
    longS.put("receiver_email", "\u017feller@example.com"); // ſ: equalsIgnoreCase folds it to s
    Map<String, String> noReceiver = PaypalNotifications.payment("PFR", "9TXFR5", 500);
    noReceiver.remove("receiver_email");
    noReceiver.remove("receiver_id");

    for (Map<String, String> p : List.of(otherEmail, otherId, longS, noReceiver)) {
      assertThat(service.send(PaypalNotifications.unissued(PaypalNotifications.form(p, StandardCharsets.UTF_8)))
          .status()).as(p.get("txn_id")).isEqualTo(403);
    }

    assertThat(VERIFIER.asked() - askedBefore).isZero();
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    // the receiver in upper case is ours (ASCII case is PayPal's to choose)
    Map<String, String> upper = PaypalNotifications.payment("PFR", "9TXFR6", 500);
    upper.put("receiver_email", PaypalNotifications.RECEIVER_EMAIL.toUpperCase(java.util.Locale.ROOT));
    assertThat(send(upper)).isEqualTo(new Reply(200, ""));
    assertThat(db.orderStatus("PFR")).isEqualTo("paid");
  }

  // Review N3: the answer is read up to its cap, never aggregated whole before its size is looked at.
  @Test
  void anEndlessVerifierAnswerIsCutAtItsCap() {
    db.insertOrder("PEA", 300);
    Notification ipn = PaypalNotifications.genuine(PaypalNotifications.payment("PEA", "9TXEA", 300));
    VERIFIER.mode(PaypalVerifier.Mode.ENDLESS);

    // verify_timeout_ms is 2000: cut by the cap, not by the timeout
    assertThat(answered503(ipn)).isLessThan(Duration.ofMillis(1000));
    assertThat(db.orderStatus("PEA")).isEqualTo("unpaid");
  }

  /** Sent while the verifier misbehaves: 503, so PayPal retries; how long the answer took. */
  private static Duration answered503(Notification ipn) {
    long start = System.nanoTime();
    Reply reply = service.send(ipn);
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    assertThat(reply.status()).isEqualTo(503);
    return took;
  }
}
