package paynotify.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.ChannelFixture;
import paynotify.testsupport.Cli;
import paynotify.testsupport.ServiceTestBase;

/** Stripe's and PayPal's trades are in payments like every platform's: the duplicate audit sees them. */
class NewChannelsAuditTest extends ServiceTestBase {
  @Test
  void anOrderPaidByStripeAndAgainByPaypalIsInTheAudit() throws Exception {
    ChannelFixture stripe = ChannelFixture.stripe();
    ChannelFixture paypal = ChannelFixture.paypal();
    db.insertOrder("SP1", 2500);
    assertThat(service.send(stripe.payment("SP1", "pi_SP1", 2500, 0))).matches(stripe.success());
    assertThat(service.send(paypal.payment("SP1", "PP-SP1", 2500, 0))).matches(paypal.success());
    assertThat(db.string("SELECT kind FROM anomalies WHERE trade_no = 'PP-SP1'")).isEqualTo("second_payment");

    Cli.Result audit = Cli.run("audit", "--json");
    assertThat(audit.exit()).as(audit.out() + audit.err()).isEqualTo(1);
    assertThat(new JsonObject(audit.out()).encode()).contains("SP1").contains("paypal:PP-SP1")
        .contains("stripe:pi_SP1");
  }
}
