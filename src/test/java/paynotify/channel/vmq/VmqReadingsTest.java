package paynotify.channel.vmq;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import paynotify.channel.NotifyEvent.Reading;

/** The splits one V免签 sign covers, as a server could have sent them, and the params that hand buyers a forgery. */
class VmqReadingsTest {
  private static final long SHIFT = 10; // vmq.max_price_shift's default, 0.10
  private static final Predicate<String> ANY_ID = p -> !p.isEmpty();

  @Test
  void vmqphpsDocumentedCallbackHasNoOtherReading() {
    assertThat(VmqReadings.others("vone666", "2", "0.1", "0.1", SHIFT, p -> true)).isEmpty();
  }

  // N . 1 . 11 . 11 is N11 . 1 . 1 . 1; N . 1 . 10 . 10.01 has no other split within the shift (N1 . 0?, N . 1 .
  // 101 . 0.01 is 100.99 apart); dujiaoka's ...P . 1 . 19.9 . 19.9 is ...P1 . 1 . 9.91 . 9.9.
  @Test
  void anotherParamIsReadWhereTheDigitsSplitIntoTwoPricesWithinTheShift() {
    assertThat(VmqReadings.others("N", "1", "11", "11", SHIFT, ANY_ID)).containsExactly(new Reading("N11", 100));
    assertThat(VmqReadings.others("N", "1", "10", "10.01", SHIFT, ANY_ID)).isEmpty();
    assertThat(VmqReadings.others("N", "1", "11", "11", SHIFT, p -> p.length() == 1)).isEmpty();
    assertThat(VmqReadings.others("ABCDEFGHIJKLMNOP", "1", "19.9", "19.9", SHIFT, ANY_ID))
        .containsExactly(new Reading("ABCDEFGHIJKLMNOP1", 991));
  }

  // A site's param ending in 1 or 2 and a price's first characters: createOrder (ORD7, qq21, 1, 11) signs the
  // notify (ORD7, qq, 2, 11, 11).
  @Test
  void aParamEndingInOneOrTwoAndAPricesFirstCharactersIsForgeable() {
    for (String param : new String[] {"qq21", "user1002", "a21.", "x10.0", "1"}) {
      assertThat(VmqReadings.forgeable(param)).as(param).isTrue();
    }
    for (String param : new String[] {"", "vone666", "qq21x", "abc10", "order-7", "x-5"}) {
      assertThat(VmqReadings.forgeable(param)).as(param).isFalse();
    }
  }
}
