package paynotify.channel.alipay;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.ServiceTestBase;

/** The shared vectors through the running service and the database. */
class AlipayVectorsHttpTest extends ServiceTestBase {
  @ParameterizedTest(name = "{index} {0}")
  @MethodSource("paynotify.channel.alipay.AlipayVectorsTest#cases")
  void serviceAcceptsExactlyTheValidVectors(JsonObject c) {
    JsonObject expect = c.getJsonObject("expect");
    JsonObject n = expect.getJsonObject("normalized");
    if (n != null) {
      db.insertOrder(n.getString("order_no"), n.getLong("total_amount_cents", n.getLong("amount_cents")));
    }
    Reply reply = service.postAlipay(c.getJsonObject("request").getString("body"));

    if (!expect.getBoolean("valid")) {
      assertThat(reply.status()).isBetween(400, 499);
      assertThat(reply.body()).isEqualTo("fail");
      assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
      assertThat(db.count("SELECT COUNT(*) FROM idempotent_keys")).isZero();
      return;
    }
    String kind = n.getString("event_kind");
    if (kind.equals("refund")) { // its payment is not booked here: the refund waits for it
      assertThat(reply).isEqualTo(new Reply(200, "success"));
      assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
      assertThat(db.string("SELECT CONCAT(refund_no, ' ', amount_cents, ' ', status) FROM refunds"))
          .isEqualTo(n.getString("refund_no") + " " + n.getLong("amount_cents") + " pending");
      return;
    }
    assertThat(reply).isEqualTo(new Reply(200, "success"));
    // The vectors close the order on TRADE_CLOSED; by default the service leaves it to the site
    // (booking.trade_closed_closes_order, see TradeClosedTest).
    assertThat(db.orderStatus(n.getString("order_no"))).isEqualTo(kind.equals("close") ? "unpaid" : n.getString("status"));
    if (kind.equals("payment")) {
      assertThat(db.string("SELECT CONCAT(order_no, ' ', amount_cents) FROM payments WHERE trade_no = ?",
          n.getString("trade_no"))).isEqualTo(n.getString("order_no") + " " + n.getLong("amount_cents"));
    } else {
      assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    }
  }
}
