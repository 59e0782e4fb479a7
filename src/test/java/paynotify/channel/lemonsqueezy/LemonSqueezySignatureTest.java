package paynotify.channel.lemonsqueezy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import paynotify.channel.EventKind;
import paynotify.channel.NotifyEvent;
import paynotify.channel.NotifyRequest;
import paynotify.channel.RejectedNotification.Reason;
import paynotify.channel.RejectedNotification;
import paynotify.channel.UnbookableNotification;
import paynotify.testsupport.LemonSqueezyNotifications;
import paynotify.testsupport.SyncCheck;

/**
 * X-Signature and what the signed body decides, on the channel alone, and what an Order the API answered is. The rule
 * is lmsqueezy/laravel's VerifyWebhookSignature: {@code hash_equals(hash_hmac('sha256', $request->getContent(),
 * $secret), $signature)}; Lemon Squeezy publishes no vector, so the one here was computed once with openssl
 * (LemonSqueezyNotifications).
 */
class LemonSqueezySignatureTest {
  private static final String SECRET = LemonSqueezyNotifications.SECRET;
  private static final LemonSqueezyChannel LIVE = channel(false);

  private static LemonSqueezyChannel channel(boolean testMode) {
    return new LemonSqueezyChannel(SECRET, Long.toString(LemonSqueezyNotifications.STORE_ID), "usd", testMode);
  }

  private static NotifyRequest request(byte[] body, String signature, String eventHeader) {
    MultiMap headers = MultiMap.caseInsensitiveMultiMap();
    if (signature != null) {
      headers.add("X-Signature", signature);
    }
    if (eventHeader != null) {
      headers.add("X-Event-Name", eventHeader);
    }
    return new NotifyRequest("POST", headers, null, Buffer.buffer(body));
  }

  private static NotifyRequest signed(JsonObject event, String eventHeader) {
    byte[] body = event.encode().getBytes(StandardCharsets.UTF_8);
    return request(body, LemonSqueezyNotifications.signature(body, SECRET), eventHeader);
  }

  @Test
  void theOpensslVectorVerifiesAndReadsAsATestModePayment() throws Exception {
    LemonSqueezyChannel channel = new LemonSqueezyChannel(LemonSqueezyNotifications.VECTOR_SECRET, "1", "USD", true);
    NotifyEvent e = SyncCheck.event(channel, request(LemonSqueezyNotifications.VECTOR_BODY.getBytes(
        StandardCharsets.UTF_8), LemonSqueezyNotifications.VECTOR_SIGNATURE, "order_created"));

    assertThat(e.kind()).isEqualTo(EventKind.PAYMENT);
    assertThat(e.orderNo() + " " + e.tradeNo() + " " + e.amountCents()).isEqualTo("PN1001 1 1199");
    assertThat(e.testMode()).isTrue();
    assertThat(e.foreignCurrency()).isNull();
  }

  @Test
  void aTamperedBodyAWrongSecretOrNoHeaderIsRefused() {
    byte[] body = LemonSqueezyNotifications.paid("L1", "101", 1999).encode().getBytes(StandardCharsets.UTF_8);
    String good = LemonSqueezyNotifications.signature(body, SECRET);
    byte[] tampered = new String(body, StandardCharsets.UTF_8).replace("\"total\":1999", "\"total\":1")
        .getBytes(StandardCharsets.UTF_8);

    assertRefused(request(tampered, good, null), Reason.BAD_SIGNATURE);
    assertRefused(request(body, LemonSqueezyNotifications.signature(body, LemonSqueezyNotifications.OTHER_SECRET),
        null), Reason.BAD_SIGNATURE);
    assertRefused(request(body, null, "order_created"), Reason.MISSING_SIGNATURE);
    assertRefused(request(body, "", null), Reason.MISSING_SIGNATURE);
    // laravel's hash_equals is exact: the upper-case hex of the right MAC is not it; nor is it with more after it
    assertRefused(request(body, good.toUpperCase(), null), Reason.BAD_SIGNATURE);
    assertRefused(request(body, good + "00", null), Reason.BAD_SIGNATURE);
    assertRefused(request(body, "a".repeat(100_000), null), Reason.BAD_SIGNATURE);
  }

  // The header is not signed: whatever it says, the body's meta.event_name decides, and a WARN names both.
  @Test
  void theUnsignedEventHeaderChangesNothingAndADisagreementIsLogged() throws Exception {
    ListAppender<ILoggingEvent> lines = new ListAppender<>();
    Logger log = (Logger) LoggerFactory.getLogger(LemonSqueezyChannel.class);
    lines.start();
    log.addAppender(lines);
    log.setLevel(Level.WARN); // the tests' root logs ERROR only
    try {
      assertThat(SyncCheck.event(LIVE, signed(LemonSqueezyNotifications.paid("L2", "102", 500), "order_created"))
          .kind()).isEqualTo(EventKind.PAYMENT);
      assertThat(lines.list).isEmpty();

      NotifyEvent paid = SyncCheck.event(LIVE, signed(LemonSqueezyNotifications.paid("L2", "102", 500),
          "subscription_created"));
      assertThat(paid.kind()).isEqualTo(EventKind.PAYMENT);
      JsonObject subscription = LemonSqueezyNotifications.event("subscription_created", "L2",
          LemonSqueezyNotifications.order("102", 500, "USD"));
      assertThat(SyncCheck.event(LIVE, signed(subscription, "order_created")).kind()).isEqualTo(EventKind.NONE);

      assertThat(lines.list).extracting(ILoggingEvent::getFormattedMessage).containsExactly(
          "lemonsqueezy: X-Event-Name 'subscription_created' is not the signed meta.event_name 'order_created',"
              + " which is followed",
          "lemonsqueezy: X-Event-Name 'order_created' is not the signed meta.event_name 'subscription_created',"
              + " which is followed");
      assertThat(lines.list).allMatch(e -> e.getLevel() == Level.WARN);
    } finally {
      log.detachAppender(lines);
      log.setLevel(null);
    }
  }

  @Test
  void anotherStoresEventIsRefusedAndOneNamingNoStoreBooksNothing() {
    JsonObject other = LemonSqueezyNotifications.paid("L3", "103", 500);
    other.getJsonObject("data").getJsonObject("attributes").put("store_id", LemonSqueezyNotifications.OTHER_STORE_ID);
    assertRefused(signed(other, null), Reason.WRONG_MERCHANT);

    JsonObject none = LemonSqueezyNotifications.paid("L3", "103", 500);
    none.getJsonObject("data").getJsonObject("attributes").remove("store_id");
    assertRefused(signed(none, null), Reason.WRONG_MERCHANT);
  }

  // Research L3: meta.test_mode is in real deliveries, not in the docs' examples; the Order's own is documented.
  @Test
  void testModeFromMetaOrElseTheOrderIsRefusedUnlessConfigured() throws Exception {
    JsonObject inMeta = LemonSqueezyNotifications.paid("L4", "104", 500);
    inMeta.getJsonObject("meta").put("test_mode", true);
    JsonObject inOrder = LemonSqueezyNotifications.paid("L4", "104", 500);
    inOrder.getJsonObject("meta").remove("test_mode");
    inOrder.getJsonObject("data").getJsonObject("attributes").put("test_mode", true);

    for (JsonObject test : new JsonObject[] {inMeta, inOrder}) {
      assertThatThrownBy(() -> SyncCheck.event(LIVE, signed(test, null))).isInstanceOf(RejectedNotification.class)
          .hasMessageContaining("lemonsqueezy.test_mode");
      NotifyEvent e = SyncCheck.event(channel(true), signed(test, null));
      assertThat(e.kind()).isEqualTo(EventKind.PAYMENT);
      assertThat(e.testMode()).isTrue();
    }
    // meta's word is the one that counts where it is given
    inOrder.getJsonObject("meta").put("test_mode", false);
    assertThat(SyncCheck.event(LIVE, signed(inOrder, null)).testMode()).isFalse();
  }

  @Test
  void onlyAPaidOrderIsAPaymentAndOtherEventsAreNone() throws Exception {
    for (String status : new String[] {"pending", "failed", "fraudulent"}) {
      JsonObject event = LemonSqueezyNotifications.paid("L5", "105", 500);
      event.getJsonObject("data").getJsonObject("attributes").put("status", status);
      assertThat(SyncCheck.event(LIVE, signed(event, null)).kind()).as(status).isEqualTo(EventKind.NONE);
    }
    for (String name : new String[] {"subscription_payment_success", "license_key_created", "affiliate_activated"}) {
      JsonObject event = LemonSqueezyNotifications.event(name, "L5", LemonSqueezyNotifications.order("105", 500,
          "USD"));
      assertThat(SyncCheck.event(LIVE, signed(event, null)).kind()).as(name).isEqualTo(EventKind.NONE);
    }
  }

  /**
   * An Order read from the API for a site's order: the payment it was made as when it took the buyer's money (paid,
   * refunded since in part or in full), and nothing otherwise, whatever the caller does with its status.
   */
  @Test
  void anAskedOrderIsAPaymentOnlyWhenItTookTheBuyersMoney() throws Exception {
    for (String status : new String[] {"paid", "partial_refund", "refunded"}) {
      JsonObject order = LemonSqueezyNotifications.order("107", 500, "USD");
      order.getJsonObject("attributes").put("status", status);
      NotifyEvent e = LIVE.payment(order, "L7");
      assertThat(e.kind()).as(status).isEqualTo(EventKind.PAYMENT);
      assertThat(e.orderNo() + " " + e.tradeNo() + " " + e.amountCents()).isEqualTo("L7 107 500");
    }
    for (String status : new String[] {"pending", "failed", "fraudulent", "void"}) {
      JsonObject order = LemonSqueezyNotifications.order("107", 500, "USD");
      order.getJsonObject("attributes").put("status", status);
      assertThat(LIVE.payment(order, "L7").kind()).as(status).isEqualTo(EventKind.NONE);
    }
  }

  @Test
  void anotherCurrencyIsKeptAsSentNeverConverted() throws Exception {
    JsonObject eur = LemonSqueezyNotifications.event("order_created", "L6",
        LemonSqueezyNotifications.order("106", 920, "EUR"));
    eur.getJsonObject("data").getJsonObject("attributes").put("total_usd", 1000).put("currency_rate", "1.0869");

    NotifyEvent e = SyncCheck.event(LIVE, signed(eur, null));
    assertThat(e.amountCents()).isEqualTo(920);
    assertThat(e.foreignCurrency()).isEqualTo("EUR");
    assertThat(new JsonObject(e.detail()).getInteger("total_usd")).isEqualTo(1000);
  }

  @Test
  void aRefundIsTheOrdersRunningTotalKeyedByIt() throws Exception {
    NotifyEvent e = SyncCheck.event(LIVE, signed(LemonSqueezyNotifications.refunded("L7", "107", 1000, 300), null));

    assertThat(e.kind()).isEqualTo(EventKind.REFUND);
    assertThat(e.amountCents()).isEqualTo(300);
    assertThat(e.refund().cumulative()).isTrue();
    assertThat(e.idempotencyKey()).isEqualTo("lemonsqueezy:refund:107@300");
    // the docs' "Issue a refund" example: a partial refund leaves status paid
    assertThat(SyncCheck.event(LIVE, signed(LemonSqueezyNotifications.refunded("L7", "107", 1000, 300, "paid"), null))
        .idempotencyKey()).isEqualTo("lemonsqueezy:refund:107@300");
  }

  @Test
  void aSignedBodyThatCannotBeReadIsAnAnomalyNotARefusal() {
    JsonObject event = LemonSqueezyNotifications.paid("L8", "108", 500);
    event.getJsonObject("data").getJsonObject("attributes").put("total", "5.00");

    assertThatThrownBy(() -> SyncCheck.event(LIVE, signed(event, null))).isInstanceOf(UnbookableNotification.class)
        .hasMessageContaining("data.attributes.total");
  }

  @Test
  void aTestModeThatIsNoBooleanIsNeverReadAsLiveMoney() {
    JsonObject event = LemonSqueezyNotifications.paid("L9", "109", 500);
    event.getJsonObject("meta").put("test_mode", "false");

    assertThatThrownBy(() -> SyncCheck.event(LIVE, signed(event, null))).isInstanceOf(UnbookableNotification.class)
        .hasMessageContaining("test_mode is not true or false");
  }

  private static void assertRefused(NotifyRequest request, Reason reason) {
    assertThatThrownBy(() -> SyncCheck.event(LIVE, request)).isInstanceOfSatisfying(RejectedNotification.class,
        e -> assertThat(e.reason()).isEqualTo(reason));
  }
}
