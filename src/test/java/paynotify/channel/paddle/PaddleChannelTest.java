package paynotify.channel.paddle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import paynotify.channel.EventKind;
import paynotify.channel.NotifyEvent;
import paynotify.channel.NotifyRequest;
import paynotify.channel.RejectedNotification;
import paynotify.channel.UnbookableNotification.Problem;
import paynotify.channel.UnbookableNotification;
import paynotify.testsupport.Notification;
import paynotify.testsupport.PaddleNotifications;
import paynotify.testsupport.SyncCheck;

/** What each Paddle event becomes, on the channel alone (PaddleWebhookTest books them over HTTP). */
class PaddleChannelTest {
  private static final PaddleChannel CHANNEL = new PaddleChannel(List.of(PaddleNotifications.SECRET),
      PaddleSignature.DEFAULT_TOLERANCE, "usd", Clock.systemUTC());

  private static NotifyEvent check(JsonObject event) throws RejectedNotification {
    Notification n = PaddleNotifications.signed(event);
    MultiMap headers = MultiMap.caseInsensitiveMultiMap().addAll(n.headers());
    return SyncCheck.event(CHANNEL, new NotifyRequest("POST", headers, null, Buffer.buffer(n.body())));
  }

  private static JsonObject transaction(String type, String orderNo, String origin, String currency) {
    return PaddleNotifications.event("evt_1", type, PaddleNotifications.transaction(orderNo, "txn_01h8dzxgkvdwemdhbpcapj2tbj",
        65215, currency, type.substring("transaction.".length()), origin));
  }

  private static JsonObject adjustment(String type, String action, String status) {
    return PaddleNotifications.event("evt_2", type, PaddleNotifications.adjustment("adj_01h8c6tbrkpdd7vx61w7b1r0ap",
        "txn_01h8bxpvx398a7zbawb77y0kp5", action, status, 100));
  }

  private static Problem problem(JsonObject event) {
    try {
      check(event);
    } catch (UnbookableNotification e) {
      return e.problem();
    } catch (RejectedNotification e) {
      throw new AssertionError(e);
    }
    throw new AssertionError("no anomaly");
  }

  @Test
  void paidAndCompletedAreOnePaymentUnderOneKey() throws Exception {
    NotifyEvent paid = check(transaction("transaction.paid", "A1", "web", "USD"));
    NotifyEvent completed = check(transaction("transaction.completed", "A1", "api", "USD"));
    assertThat(paid.kind()).isEqualTo(EventKind.PAYMENT);
    assertThat(paid.amountCents()).isEqualTo(65215);
    assertThat(paid.orderNo()).isEqualTo("A1");
    assertThat(paid.foreignCurrency()).isNull();
    assertThat(paid.paidAt()).hasToString("2026-11-18T19:06:40.366122"); // occurred_at in Beijing
    assertThat(completed.idempotencyKey()).isEqualTo(paid.idempotencyKey())
        .isEqualTo("paddle:pay:txn_01h8dzxgkvdwemdhbpcapj2tbj");
  }

  @Test
  void anotherCurrencyIsBookedAsForeignNeverConverted() throws Exception {
    NotifyEvent e = check(transaction("transaction.completed", "A1", "web", "EUR"));
    assertThat(e.foreignCurrency()).isEqualTo("EUR");
    assertThat(e.amountCents()).isEqualTo(65215);
  }

  @Test
  void everySubscriptionOriginIsNotTheOrdersPayment() throws Exception {
    for (String origin : List.of("subscription_recurring", "subscription_charge", "subscription_update",
        "subscription_payment_method_change")) {
      assertThat(problem(transaction("transaction.completed", "A1", origin, "USD"))).as(origin)
          .isEqualTo(Problem.UNBOOKED_PAYMENT);
    }
    // a renewal naming no order is the site's subscription business, not an order's
    assertThat(check(transaction("transaction.completed", null, "subscription_recurring", "USD")).kind())
        .isEqualTo(EventKind.NONE);
  }

  @Test
  void aPaymentNamingNoOrderIsForAHuman() {
    assertThat(problem(transaction("transaction.completed", null, "web", "USD")))
        .isEqualTo(Problem.PAYMENT_WITHOUT_ORDER);
  }

  @Test
  void anApprovedRefundIsBookedUnderItsAdjustmentId() throws Exception {
    NotifyEvent refund = check(adjustment("adjustment.updated", "refund", "approved"));
    assertThat(refund.kind()).isEqualTo(EventKind.REFUND);
    assertThat(refund.tradeNo()).isEqualTo("txn_01h8bxpvx398a7zbawb77y0kp5");
    assertThat(refund.amountCents()).isEqualTo(100);
    assertThat(refund.refund().cumulative()).isFalse();
    assertThat(refund.idempotencyKey()).isEqualTo("paddle:refund:adj_01h8c6tbrkpdd7vx61w7b1r0ap");
    assertThat(check(adjustment("adjustment.created", "refund", "approved")).idempotencyKey())
        .isEqualTo(refund.idempotencyKey());
  }

  @Test
  void adjustmentsThatMoveNoMoneyBackBookNothing() throws Exception {
    for (String[] a : new String[][] {{"refund", "pending_approval"}, {"refund", "rejected"}, {"credit", "approved"},
        {"credit_reverse", "approved"}, {"chargeback_warning", "approved"}, {"chargeback_warning_reverse", "approved"}}) {
      assertThat(check(adjustment("adjustment.created", a[0], a[1])).kind()).as(a[0] + " " + a[1])
          .isEqualTo(EventKind.NONE);
    }
  }

  @Test
  void chargebacksAndReversedRefundsAreForAHuman() {
    assertThat(problem(adjustment("adjustment.created", "chargeback", "approved"))).isEqualTo(Problem.DISPUTE);
    assertThat(problem(adjustment("adjustment.created", "chargeback_reverse", "approved"))).isEqualTo(Problem.DISPUTE);
    assertThat(problem(adjustment("adjustment.updated", "refund", "reversed"))).isEqualTo(Problem.REFUND_FAILED);
  }

  @Test
  void otherEventsAndStatusesBookNothing() throws Exception {
    assertThat(check(PaddleNotifications.event("evt_3", "customer.created", new JsonObject())).kind())
        .isEqualTo(EventKind.NONE);
    JsonObject ready = transaction("transaction.completed", "A1", "web", "USD");
    ready.getJsonObject("data").put("status", "ready");
    assertThat(check(ready).kind()).isEqualTo(EventKind.NONE);
  }

  // Signed, so Paddle's: what cannot be read is an anomaly for a human, naming what it can.
  @Test
  void aSignedEventThatCannotBeReadIsAnAnomalyNotARefusal() {
    JsonObject decimal = transaction("transaction.completed", "A1", "web", "USD");
    decimal.getJsonObject("data").getJsonObject("details").getJsonObject("totals").put("grand_total", "652.15");
    assertThatThrownBy(() -> check(decimal)).isInstanceOf(UnbookableNotification.class)
        .hasMessageContaining("grand_total").extracting(e -> ((UnbookableNotification) e).orderNo()).isEqualTo("A1");
    JsonObject fraction = transaction("transaction.completed", "A1", "web", "USD");
    fraction.getJsonObject("data").getJsonObject("details").getJsonObject("totals").put("grand_total", 652.15);
    assertThat(problem(fraction)).isEqualTo(Problem.UNREADABLE);
    JsonObject nullDetails = transaction("transaction.completed", "A1", "web", "USD");
    nullDetails.getJsonObject("data").putNull("details");
    assertThat(problem(nullDetails)).isEqualTo(Problem.UNREADABLE);
    JsonObject noOccurredAt = transaction("transaction.completed", "A1", "web", "USD");
    noOccurredAt.remove("occurred_at");
    assertThat(problem(noOccurredAt)).isEqualTo(Problem.UNREADABLE);
  }

  // Paddle.js's customData is JavaScript: 9007199254740993 arrives as 9007199254740992, perhaps another order's.
  @Test
  void anOrderNumberJavaScriptMayHaveRoundedIsAnAnomalyNeverAnOrder() throws Exception {
    JsonObject rounded = transaction("transaction.completed", "x", "web", "USD");
    rounded.getJsonObject("data").getJsonObject("custom_data").put("order_no", 9_007_199_254_740_992L);
    assertThatThrownBy(() -> check(rounded)).isInstanceOf(UnbookableNotification.class)
        .hasMessageContaining("9007199254740992").hasMessageContaining("as a string")
        .extracting(e -> ((UnbookableNotification) e).problem()).isEqualTo(Problem.UNREADABLE);
    JsonObject safe = transaction("transaction.completed", "x", "web", "USD");
    safe.getJsonObject("data").getJsonObject("custom_data").put("order_no", 9_007_199_254_740_991L);
    assertThat(check(safe).orderNo()).isEqualTo("9007199254740991");
  }

  @Test
  void theTolerancesDefaultIsTheIssuesNotTheSdks() {
    assertThat(PaddleSignature.DEFAULT_TOLERANCE).isEqualTo(Duration.ofSeconds(300));
  }
}
