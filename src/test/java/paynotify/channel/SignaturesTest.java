package paynotify.channel;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The re-split rule shared by the form-signed channels, on the cases the HTTP tests do not reach. */
class SignaturesTest {
  private static final Set<String> NAMES = Set.of("out_trade_no", "trade_no", "coupon_fee_$n");

  @Test
  void aProtocolNameAfterAnyAmpersandIsRefused() {
    for (String value : new String[] {"&trade_no=", "a&b&trade_no=1", "a=b&out_trade_no=X", "x&coupon_fee_12=1"}) {
      assertThatThrownBy(() -> Signatures.requireUnambiguous(Map.of("body", value), NAMES))
          .as(value).isInstanceOf(RejectedNotification.class).hasMessageContaining("refused as ambiguous");
    }
  }

  @Test
  void otherNamesAndPlainAmpersandsAreTheSitesText() {
    for (String value : new String[] {"Tea & Cake", "a&b=c", "{\"note\":\"a&b=c\"}", "x&trade_no", "x&trade_nox=1",
        "x&coupon_fee=1", "x&coupon_fee_=1", "trade_no=1"}) {
      assertThatCode(() -> Signatures.requireUnambiguous(Map.of("body", value), NAMES)).as(value)
          .doesNotThrowAnyException();
    }
  }

  @Test
  void aNameHoldingAmpersandOrEqualsIsRefused() {
    for (String name : new String[] {"a=b", "a&b"}) {
      assertThatThrownBy(() -> Signatures.requireUnambiguous(Map.of(name, "1"), NAMES))
          .isInstanceOf(RejectedNotification.class).hasMessageContaining("holds & or =");
    }
  }
}
