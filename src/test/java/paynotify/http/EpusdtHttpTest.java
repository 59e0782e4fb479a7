package paynotify.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.util.Map;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.ChannelFixture;
import paynotify.testsupport.EpusdtNotifications.Num;
import paynotify.testsupport.EpusdtNotifications;
import paynotify.testsupport.Http.Reply;
import paynotify.testsupport.ServiceTestBase;
import paynotify.testsupport.TestDatabase;
import paynotify.testsupport.TestService;

/**
 * epusdt's own rules over HTTP, in the shapes of its three servers; what every channel does is in
 * {@link ChannelContractTest}. The test configuration names GMWalletApp's pid.
 */
class EpusdtHttpTest extends ServiceTestBase {
  private static final ChannelFixture EPUSDT = ChannelFixture.epusdt();

  @Test
  void gmwalletsCallbackBooksWithTheCoinAndTransactionInDetail() {
    db.insertOrder("U1", 2888);
    assertThat(service.send(EpusdtNotifications.signed(EpusdtNotifications.gmwallet("U1", "3nQ9pL2xV7sK1mR8cT4yB_aZ",
        "28.88")))).isEqualTo(new Reply(200, "ok"));

    assertThat(db.string("SELECT CONCAT(status, ' ', trade_no) FROM orders WHERE order_no = 'U1'"))
        .isEqualTo("paid 3nQ9pL2xV7sK1mR8cT4yB_aZ");
    JsonObject detail = detail("3nQ9pL2xV7sK1mR8cT4yB_aZ");
    assertThat(detail.getString("actual_amount")).isEqualTo("4.12");
    assertThat(detail.getString("token")).isEqualTo("USDT");
    assertThat(detail.getString("block_transaction_id")).isEqualTo(EpusdtNotifications.TRON_TX);
  }

  // assimon's and BEpusdt's callbacks carry no pid: where one is configured, they are not this merchant's.
  @Test
  void withAPidConfiguredACallbackWithoutOneIsRefused() {
    db.insertOrder("U2", 2888);
    Reply reply = service.send(EpusdtNotifications.signed(EpusdtNotifications.assimon("U2", "202501201737353600000002",
        "28.88")));
    assertThat(reply.status()).isEqualTo(403);
    assertThat(reply).matches(EPUSDT.refusal());
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
  }

  @Test
  void assimonsAndBepusdtsCallbacksBookWhereNoPidIsConfigured() {
    db.insertOrder("U3a", 2888);
    db.insertOrder("U3b", 2888);
    try (TestService noPid = TestService.start(TestDatabase.get().settings(),
        new JsonObject().put("epusdt", new JsonObject().putNull("pid")))) {
      // assimon: block_transaction_id "" (left out of the signature), token the wallet's address
      assertThat(noPid.send(EpusdtNotifications.signed(EpusdtNotifications.assimon("U3a", "202501201737353600000003",
          "28.88")))).isEqualTo(new Reply(200, "ok"));
      // BEpusdt: actual_amount a string
      assertThat(noPid.send(EpusdtNotifications.signed(EpusdtNotifications.bepusdt("U3b", "kw3ayNKjKp8VWdTect",
          "28.88")))).isEqualTo(new Reply(200, "ok"));
    }
    assertThat(db.orderStatus("U3a")).isEqualTo("paid");
    assertThat(db.orderStatus("U3b")).isEqualTo("paid");
    JsonObject assimon = detail("202501201737353600000003");
    assertThat(assimon.getString("token")).isEqualTo(EpusdtNotifications.TRON_ADDRESS);
    assertThat(assimon.containsKey("block_transaction_id")).as("an empty one is left out").isFalse();
    assertThat(detail("kw3ayNKjKp8VWdTect").getString("actual_amount")).isEqualTo("4.12");
  }

  // BEpusdt pushes 1 (waiting) every minute, 3 (expired) and 6 (confirmation failed) once: only 2 is paid.
  @Test
  void statusesOtherThanPaidAreAcknowledgedAndBookNothing() {
    db.insertOrder("U4", 2888);
    for (String status : new String[] {"1", "3", "6"}) {
      Map<String, Object> f = EpusdtNotifications.gmwallet("U4", "Ab12Cd34Ef56Gh78Ij", "28.88");
      f.put("status", new Num(status));
      assertThat(service.send(EpusdtNotifications.signed(f))).as(status).isEqualTo(new Reply(200, "ok"));
    }
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
    assertThat(db.orderStatus("U4")).isEqualTo("unpaid");
    assertThat(db.column("SELECT outcome FROM notify_log")).containsExactly("ignored", "ignored", "ignored");
  }

  // The servers sign the float64 a number parsed to, as Go prints it: 100, and 28.880 as 28.88.
  @Test
  void numbersAreSignedAsTheValueTheyWrite() {
    db.insertOrder("U5a", 10000);
    db.insertOrder("U5b", 2888);
    for (String[] paid : new String[][] {{"U5a", "100"}, {"U5b", "28.880"}}) {
      assertThat(service.send(EpusdtNotifications.signed(EpusdtNotifications.gmwallet(paid[0], "T-" + paid[0],
          paid[1])))).as(paid[1]).matches(EPUSDT.success());
    }
    assertThat(db.column("SELECT CONCAT(order_no, ' ', amount_cents) FROM payments ORDER BY order_no"))
        .containsExactly("U5a 10000", "U5b 2888");
    assertThat(db.orderStatus("U5a")).isEqualTo("paid");
    assertThat(db.orderStatus("U5b")).isEqualTo("paid");
  }

  // The servers cannot sign an object (assimon's sign returns an error): one in a callback is not theirs.
  @Test
  void aNestedObjectIsRefused() {
    db.insertOrder("U6", 2888);
    Map<String, Object> signed = EpusdtNotifications.signed(EpusdtNotifications.gmwallet("U6", "Ab12Cd34Ef56Gh78U6",
        "28.88"), EpusdtNotifications.TOKEN);
    signed.put("extra", new JsonObject().put("amount", 1));
    Reply reply = service.send(EpusdtNotifications.post(signed));
    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply).matches(EPUSDT.refusal());
    assertThat(db.count("SELECT COUNT(*) FROM payments")).isZero();
  }

  // An EVM transaction hash (0x and 64 hex digits) is kept as detail; the trade is epusdt's trade_id.
  @Test
  void anEvmTransactionIsDetailNotTheTrade() {
    db.insertOrder("U7", 10000);
    Map<String, Object> f = EpusdtNotifications.gmwallet("U7", "Ab12Cd34Ef56Gh78U7", "100");
    f.put("receive_address", "0x742d35Cc6634C0532925a3b844Bc454e4438f44e");
    f.put("block_transaction_id", EpusdtNotifications.EVM_TX);
    assertThat(service.send(EpusdtNotifications.signed(f))).matches(EPUSDT.success());

    assertThat(db.string("SELECT trade_no FROM payments")).isEqualTo("Ab12Cd34Ef56Gh78U7");
    assertThat(detail("Ab12Cd34Ef56Gh78U7").getString("block_transaction_id")).isEqualTo(EpusdtNotifications.EVM_TX);
    assertThat(db.outcomes("epusdt:pay:Ab12Cd34Ef56Gh78U7")).isEqualTo("processed");
  }

  // Issue 40, point 5: a gateway set to three decimals (BEpusdt's address mode, GMWalletApp's amount_precision)
  // sends what cannot be booked; the anomaly names the order the signed callback names, for the owner to find.
  @Test
  void anUnreadableAmountKeepsTheOrderTheCallbackNames() {
    db.insertOrder("U8", 2888);
    assertThat(service.send(EpusdtNotifications.signed(EpusdtNotifications.gmwallet("U8", "Ab12Cd34Ef56Gh78U8",
        "28.885")))).matches(EPUSDT.success());
    assertThat(db.string("SELECT CONCAT(kind, ' ', order_no, ' ', trade_no) FROM anomalies"))
        .isEqualTo("unreadable_notification U8 Ab12Cd34Ef56Gh78U8");
    assertThat(db.orderStatus("U8")).isEqualTo("unpaid");
  }

  private static JsonObject detail(String tradeNo) {
    return new JsonObject(db.string("SELECT detail FROM payments WHERE trade_no = ?", tradeNo));
  }
}
