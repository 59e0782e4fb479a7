package paynotify.booking;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import paynotify.booking.anomaly.AnomalyKind;

/** A wait's detail fits anomalies.detail (VARCHAR(1000)) whatever its platform's error says: STRICT refuses more. */
class ReceiptWaitDetailTest {
  @Test
  void anUnboundedReasonIsCutToFitTheColumn() {
    String why = "epay could not confirm trade T (" + "handshake failure; ".repeat(200) + ")";

    String detail = Receipt.waitDetail(why);

    assertThat(detail).hasSizeLessThanOrEqualTo(1000).contains("epay could not confirm trade T (handshake")
        .contains("...").endsWith(AnomalyKind.AWAITING_CONFIRMATION.action());
  }

  @Test
  void aShortReasonIsKeptWhole() {
    assertThat(Receipt.waitDetail("epay says order C1 is status=0")).contains(": epay says order C1 is status=0. ");
  }
}
