package paynotify.channel.creem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.vertx.core.Vertx;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import paynotify.channel.TradeAnswer;
import paynotify.net.OutboundHttp;
import paynotify.testsupport.CreemApiStandIn;
import paynotify.testsupport.CreemCoreSdk;
import paynotify.testsupport.CreemNotifications;
import paynotify.testsupport.NodeReceiver;

/**
 * The stand-in answers as Creem does: Creem's official SDK ({@code creem}), pointed at it by {@code serverURL}, reads
 * its checkouts (paid, open, in Test Mode) and an order's transactions through the SDK's own schemas, and gets its
 * refusals (an unknown checkout, another key) as Creem's errors; {@link CreemQuery} asks the same and reads the same.
 */
class CreemQuerySdkTest {
  static final String PAID = "ch_1QyIQDw9cbFWdA1ry5Qc6I";
  static final String OPEN = "ch_4l0N34kxo16AhRKUHFUuXr";

  CreemApiStandIn creem = CreemApiStandIn.start();

  @BeforeAll
  static void install() {
    assumeTrue(NodeReceiver.available(), "node and npm are not installed: Creem's SDK is not run");
    CreemCoreSdk.install();
  }

  @AfterEach
  void stop() {
    creem.close();
  }

  String sdk(String key, String checkoutId) {
    return CreemCoreSdk.retrieve(creem.url().toString(), key, checkoutId);
  }

  @Test
  void theSdkReadsTheStandInsCheckoutsAndTransactions() {
    creem.paid(PAID, "S1", "ord_4aDwWXjMLpes4Kj4XqNnUA", 2500, "USD");
    creem.open(OPEN, "S2");

    assertThat(sdk(CreemApiStandIn.KEY, PAID)).isEqualTo("retrieved " + PAID + " prod completed S1"
        + " ord_4aDwWXjMLpes4Kj4XqNnUA paid 2500 USD\n"
        + "transaction tran_ord_4aDwWXjMLpes4Kj4XqNnUA paid ord_4aDwWXjMLpes4Kj4XqNnUA");
    assertThat(sdk(CreemApiStandIn.KEY, OPEN)).isEqualTo("retrieved " + OPEN + " prod pending S2 undefined undefined"
        + " undefined undefined");

    creem.refunded("ord_4aDwWXjMLpes4Kj4XqNnUA", "partialRefund", 1000);
    creem.mode(PAID, "test");
    assertThat(sdk(CreemApiStandIn.KEY, PAID)).startsWith("retrieved " + PAID + " test completed S1")
        .endsWith("transaction tran_ord_4aDwWXjMLpes4Kj4XqNnUA partialRefund ord_4aDwWXjMLpes4Kj4XqNnUA");

    assertThat(sdk(CreemApiStandIn.KEY, "ch_unknown0000000000000")).startsWith("refused 404 ")
        .contains("Checkout not found");
    assertThat(sdk("creem_another_account_key", PAID)).startsWith("refused 403 ").contains("Forbidden");
    assertThat(creem.refusedRequests()).isEqualTo(1);
  }

  /** What the SDK read as paid, our client reads as the payment the checkout's webhook books: same key, same amount. */
  @Test
  void ourClientReadsWhatTheSdkReads() throws Exception {
    creem.paid(PAID, "S1", "ord_4aDwWXjMLpes4Kj4XqNnUA", 2500, "USD");
    assertThat(sdk(CreemApiStandIn.KEY, PAID)).startsWith("retrieved " + PAID + " prod completed S1");
    Vertx vertx = Vertx.vertx();
    try {
      CreemChannel channel = new CreemChannel(CreemNotifications.SECRET, CreemNotifications.CURRENCY, false);
      CreemQuery query = new CreemQuery(new OutboundHttp(vertx, Duration.ofSeconds(5), 1024 * 1024), creem.url(),
          CreemApiStandIn.KEY, channel);

      TradeAnswer answer = query.query("S1", PAID).await();

      assertThat(answer.state()).isEqualTo(TradeAnswer.State.PAID);
      assertThat(answer.payment().tradeNo()).isEqualTo("ord_4aDwWXjMLpes4Kj4XqNnUA");
      assertThat(answer.payment().orderNo()).isEqualTo("S1");
      assertThat(answer.payment().amountCents()).isEqualTo(2500);
    } finally {
      vertx.close().await();
    }
  }
}
