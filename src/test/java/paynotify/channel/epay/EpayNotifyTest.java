package paynotify.channel.epay;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import paynotify.testsupport.EpayNotifications;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.Notification;
import paynotify.testsupport.ServiceTestBase;
import paynotify.testsupport.Vectors;

/** GET and POST /notify/epay over HTTP on the real database. */
class EpayNotifyTest extends ServiceTestBase {

  static Stream<JsonObject> cases() {
    return Vectors.cases(EpayNotifications.VECTORS).stream();
  }

  @ParameterizedTest(name = "{index} {0}")
  @MethodSource("cases")
  void serviceAcceptsExactlyTheValidVectors(JsonObject c) {
    JsonObject n = c.getJsonObject("expect").getJsonObject("normalized");
    JsonObject params = c.getJsonObject("request").getJsonObject("params");
    db.insertOrder(params.getString("out_trade_no"), 0);
    if (n != null) {
      db.update("UPDATE orders SET amount_cents = ? WHERE order_no = ?", n.getLong("amount_cents"), n.getString("order_no"));
    }
    Reply reply = service.send(Notification.get(EpayNotifications.PATH, c.getJsonObject("request").getString("query")));

    if (!c.getJsonObject("expect").getBoolean("valid")) {
      assertThat(reply).isEqualTo(new Reply(reply.status(), "fail"));
      assertThat(reply.status()).isBetween(400, 499);
      assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
      return;
    }
    assertThat(reply).isEqualTo(new Reply(200, "success"));
    assertThat(db.orderStatus(n.getString("order_no"))).isEqualTo("paid");
    assertThat(db.string("SELECT CONCAT(channel, ' ', trade_no, ' ', amount_cents) FROM payments"))
        .isEqualTo("epay " + n.getString("trade_no") + " " + n.getLong("amount_cents"));
  }

  @Test
  void formPostIsAcceptedLikeTheQuery() throws Exception {
    db.insertOrder("E1", 1250);
    Map<String, String> signed = EpayNotifications.signed(EpayNotifications.payment("E1", "TE1", "12.5"),
        EpayNotifications.KEY);
    assertThat(service.send(EpayNotifications.post(signed))).isEqualTo(new Reply(200, "success"));
    assertThat(db.orderStatus("E1")).isEqualTo("paid");
  }

  @Test
  void onlyTradeSuccessBooks() throws Exception {
    db.insertOrder("E2", 100);
    Map<String, String> params = EpayNotifications.payment("E2", "TE2", "1");
    params.put("trade_status", "TRADE_CLOSED");
    assertThat(service.send(EpayNotifications.get(EpayNotifications.signed(params, EpayNotifications.KEY))))
        .isEqualTo(new Reply(200, "success"));
    assertThat(db.orderStatus("E2")).isEqualTo("unpaid");
    assertThat(db.string("SELECT outcome FROM notify_log")).isEqualTo("ignored");
  }

  @Test
  void missingSignIsRejected() {
    db.insertOrder("E3", 100);
    Reply reply = service.send(EpayNotifications.get(EpayNotifications.payment("E3", "TE3", "1")));
    assertThat(reply).isEqualTo(new Reply(401, "fail"));
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
  }

  /** A GET carries the notification in its query string: that is what notify_log keeps as the raw body. */
  @Test
  void getKeepsItsQueryAsTheRawBody() throws Exception {
    db.insertOrder("E4", 100);
    Notification n = EpayNotifications.get(EpayNotifications.signed(EpayNotifications.payment("E4", "TE4", "1"),
        EpayNotifications.KEY));
    assertThat(service.send(n)).isEqualTo(new Reply(200, "success"));
    assertThat(db.string("SELECT CONCAT(outcome, ' ', body_bytes, ' ', CAST(raw_body AS CHAR)) FROM notify_log"))
        .isEqualTo("processed " + n.query().length() + " " + n.query());
  }
}
