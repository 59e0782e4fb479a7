package paynotify.channel.paddle;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.Notification;
import paynotify.testsupport.PaddleNotifications;
import paynotify.testsupport.ServiceTestBase;

/** POST /notify/paddle: the real service over real HTTP on the real database. */
class PaddleWebhookTest extends ServiceTestBase {
  private static void assertOk(Reply reply) {
    assertThat(reply.status()).isEqualTo(200);
    assertThat(reply.body()).isEmpty();
  }

  private static Notification adjustment(String type, String adj, String txn, String action, String status,
      long total) {
    return PaddleNotifications.signed(PaddleNotifications.event("evt_" + type + "_" + status + "_" + adj, type,
        PaddleNotifications.adjustment(adj, txn, action, status, total)));
  }

  private static Notification transaction(String orderNo, String txn, long total, String currency, String origin) {
    return PaddleNotifications.signed(PaddleNotifications.event("evt_c_" + txn, "transaction.completed",
        PaddleNotifications.transaction(orderNo, txn, total, currency, "completed", origin)));
  }

  // Paddle does not promise the order of the two: the later one is a repeat of the same payment.
  @Test
  void completedAfterPaidBooksOnce() {
    db.insertOrder("P1", 65215);
    assertOk(service.send(PaddleNotifications.payment("transaction.paid", "P1", "txn_P1", 65215)));
    assertOk(service.send(PaddleNotifications.payment("transaction.completed", "P1", "txn_P1", 65215)));

    assertThat(db.payments("txn_P1")).isEqualTo(1);
    assertThat(db.string("SELECT CONCAT(channel, ' ', order_no, ' ', amount_cents) FROM payments"))
        .isEqualTo("paddle P1 65215");
    assertThat(db.string("SELECT CONCAT(status, ' ', channel, ' ', trade_no) FROM orders WHERE order_no = 'P1'"))
        .isEqualTo("paid paddle txn_P1");
    assertThat(db.outcomes("paddle:pay:txn_P1")).isEqualTo("processed,duplicate");
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
  }

  // Created pending_approval (books nothing), updated approved (books), and its redelivery a repeat.
  @Test
  void anApprovedAdjustmentAfterAPendingOneBooksOneRefund() {
    db.insertOrder("P2", 10000);
    assertOk(service.send(PaddleNotifications.payment("transaction.completed", "P2", "txn_P2", 10000)));
    assertOk(service.send(adjustment("adjustment.created", "adj_P2", "txn_P2", "refund", "pending_approval", 3000)));
    assertThat(db.count("SELECT COUNT(*) FROM refunds")).isZero();
    assertThat(db.orderStatus("P2")).isEqualTo("paid");

    Notification approved = adjustment("adjustment.updated", "adj_P2", "txn_P2", "refund", "approved", 3000);
    assertOk(service.send(approved));
    assertOk(service.send(approved));
    assertThat(db.column("SELECT CONCAT(refund_no, ' ', amount_cents, ' ', status) FROM refunds"))
        .containsExactly("adj_P2 3000 settled");
    assertThat(db.orderStatus("P2")).isEqualTo("partially_refunded");
    assertThat(db.outcomes("paddle:refund:adj_P2")).isEqualTo("processed,duplicate");
    assertThat(db.count("SELECT COUNT(*) FROM anomalies")).isZero();
  }

  // A renewal carries the subscription's custom_data, so the first order's number: real money, not its payment.
  @Test
  void aSubscriptionRenewalOfAPaidOrderIsAnAnomalyNotASecondPayment() {
    db.insertOrder("P3", 1500);
    assertOk(service.send(transaction("P3", "txn_P3first", 1500, "USD", "web")));
    Notification renewal = transaction("P3", "txn_P3renewal", 1500, "USD", "subscription_recurring");
    assertOk(service.send(renewal));
    assertOk(service.send(renewal));

    assertThat(db.payments("txn_P3renewal")).isZero();
    assertThat(db.string("SELECT CONCAT(status, ' ', trade_no) FROM orders WHERE order_no = 'P3'"))
        .isEqualTo("paid txn_P3first");
    assertThat(db.column("SELECT CONCAT(kind, ' ', order_no, ' ', trade_no) FROM anomalies"))
        .containsExactly("unbooked_payment P3 txn_P3renewal");
    assertThat(db.string("SELECT detail FROM anomalies")).contains("subscription_recurring");
  }

  @Test
  void anotherCurrencyIsACurrencyMismatchAndTheOrderStaysUnpaid() {
    db.insertOrder("P4", 5000);
    assertOk(service.send(transaction("P4", "txn_P4", 4600, "EUR", "web")));
    assertThat(db.payments("txn_P4")).isEqualTo(1);
    assertThat(db.orderStatus("P4")).isEqualTo("unpaid");
    assertThat(db.string("SELECT kind FROM anomalies")).isEqualTo("currency_mismatch");
  }

  @Test
  void chargebacksAndPaymentsNamingNoOrderAreForAHuman() {
    db.insertOrder("P5", 2000);
    assertOk(service.send(transaction("P5", "txn_P5", 2000, "USD", "web")));
    assertOk(service.send(adjustment("adjustment.created", "adj_P5", "txn_P5", "chargeback", "approved", 2000)));
    assertOk(service.send(transaction(null, "txn_P5x", 700, "USD", "api")));
    assertThat(db.column("SELECT CONCAT(kind, ' ', trade_no) FROM anomalies ORDER BY id"))
        .containsExactly("dispute txn_P5", "payment_without_order txn_P5x");
    assertThat(db.orderStatus("P5")).isEqualTo("paid");
  }

  // Each line item carries its product and price, ~2 KB in the node SDK's mock: 30 of them are no 16 KiB body.
  @Test
  void aCartOfManyItemsIsReadWholeBeyondTheDefaultBodyLimit() {
    db.insertOrder("P7", 3000);
    JsonObject txn = PaddleNotifications.transaction("P7", "txn_P7", 3000, "USD", "completed", "web");
    JsonArray items = new JsonArray();
    for (int i = 0; i < 30; i++) {
      items.add(new JsonObject().put("price_id", "pri_" + i).put("quantity", 1)
          .put("product", new JsonObject().put("id", "pro_" + i).put("description", "x".repeat(2000))));
    }
    Notification large = PaddleNotifications.signed(PaddleNotifications.event("evt_P7", "transaction.completed",
        txn.put("items", items)));
    assertThat(large.body().length).isGreaterThan(60 * 1024);
    assertOk(service.send(large));
    assertThat(db.orderStatus("P7")).isEqualTo("paid");
  }

  @Test
  void aStaleSignatureIsRefused() {
    db.insertOrder("P6", 100);
    JsonObject event = PaddleNotifications.event("evt_P6", "transaction.completed",
        PaddleNotifications.transaction("P6", "txn_P6", 100, "USD", "completed", "web"));
    Reply reply = service.send(PaddleNotifications.signed(event.encode(), System.currentTimeMillis() / 1000 - 301,
        PaddleNotifications.SECRET));
    assertThat(reply.status()).isEqualTo(401);
    assertThat(db.orderStatus("P6")).isEqualTo("unpaid");
    // a retry after an outage looks like this: the owner is told which event, and what to do
    service.awaitLogRecorded();
    assertThat(db.string("SELECT detail FROM notify_log WHERE outcome = 'rejected'"))
        .contains("Paddle event evt_P6 (transaction.completed) signed, but ts 30")
        .contains("Paddle's retries keep their first ts").contains("NTP").contains("paddle.api_key_file")
        .contains("paddle.tolerance_seconds").doesNotContain("txn_P6");
  }
}
