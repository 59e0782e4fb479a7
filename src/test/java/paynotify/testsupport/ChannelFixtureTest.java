package paynotify.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import paynotify.channel.NotifyChannel;
import paynotify.config.AppConfig;
import paynotify.config.ChannelsConfig;

/**
 * A channel the service has but {@link ChannelFixture#all} lacks, or a case a fixture can make but does not claim,
 * would be left out of the suites that take them, and nothing would say so.
 */
class ChannelFixtureTest {
  @Test
  void allHoldsEveryChannelTheServiceHas() throws Exception {
    ChannelsConfig channels = AppConfig.from(TestService.configuration(new JsonObject()), "test", Map.of()).channels();
    assertThat(channels.disabled()).as("channels the test configuration leaves off").isEmpty();

    List<String> fixtures = new ArrayList<>();
    for (ChannelFixture ch : ChannelFixture.all()) {
      fixtures.add(ch.payment("F1", "T-F1", 100, 0).path());
    }
    assertThat(fixtures).containsExactlyInAnyOrderElementsOf(channels.enabled().stream().map(NotifyChannel::path).toList());
  }

  /** Each capability a fixture claims it makes, and each it does not claim it refuses to make. */
  @Test
  void eachFixtureClaimsExactlyTheCasesItMakes() {
    for (ChannelFixture ch : ChannelFixture.all()) {
      claims(ch, "namesMerchant", ch.namesMerchant(), () -> ch.forAnotherMerchant("F2", "T-F2", 100));
      claims(ch, "carriesSignature", ch.carriesSignature(), () -> ch.missingSignature("F2", "T-F2", 100));
      claims(ch, "notifiesOtherStatuses", ch.notifiesOtherStatuses(), () -> ch.notFinal("F2", "T-F2", 100));
      claims(ch, "notifiesRefunds", ch.notifiesRefunds(), () -> ch.refund("F2", "T-F2", 100, "RF-F2", 100, 100, 0));
      claims(ch, "namesCurrency", ch.namesCurrency(), () -> ch.paymentInCurrency("F2", "T-F2", 100, "EUR"));
      claims(ch, "signsATimestamp", ch.signsATimestamp(), () -> ch.stalePayment("F2", "T-F2", 100));
      claims(ch, "marksTestMoney", ch.marksTestMoney(), () -> ch.testModePayment("F2", "T-F2", 100));
      boolean rotates = ch.signsTwiceWhileRotating();
      claims(ch, "signsTwiceWhileRotating", rotates, () -> ch.paymentSignedTwice("F2", "T-F2", 100, 0));
      claims(ch, "signsTwiceWhileRotating", rotates, ch::rotationConfiguration);
      boolean totals = ch.notifiesCumulativeRefunds();
      claims(ch, "notifiesCumulativeRefunds", totals, () -> ch.cumulativeRefund("F2", "T-F2", 100, 100, 0));
      claims(ch, "notifiesCumulativeRefunds", totals, () -> ch.cumulativeRefundNo("T-F2", 100));
    }
  }

  private static void claims(ChannelFixture ch, String capability, boolean claimed, ThrowingCallable makes) {
    if (claimed) {
      assertThatCode(makes).as(ch + " " + capability).doesNotThrowAnyException();
    } else {
      assertThatCode(makes).as(ch + " makes what it does not claim: " + capability)
          .isInstanceOf(UnsupportedOperationException.class);
    }
  }
}
