package paynotify.channel.vmq;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** The splits one V免签 sign covers, as a server could have sent them, and the params that hand buyers a forgery. */
class VmqReadingsTest {
  private static final long SHIFT = 10; // vmq.max_price_shift's default, 0.10
  private static final Predicate<String> ANY_ID = p -> !p.isEmpty();

  @Test
  void vmqphpsDocumentedCallbackHasNoOtherReading() {
    assertThat(VmqReadings.params("vone666", "2", "0.1", "0.1", SHIFT, p -> true)).containsExactly("vone666");
  }

  // N . 1 . 11 . 11 is N11 . 1 . 1 . 1; N . 1 . 10 . 10.01 has no other split within the shift (N1 . 0?, N . 1 .
  // 101 . 0.01 is 100.99 apart).
  @Test
  void anotherParamIsReadWhereTheDigitsSplitIntoTwoPricesWithinTheShift() {
    assertThat(VmqReadings.params("N", "1", "11", "11", SHIFT, ANY_ID)).containsExactly("N", "N11");
    assertThat(VmqReadings.params("N", "1", "10", "10.01", SHIFT, ANY_ID)).containsExactly("N");
    assertThat(VmqReadings.params("N", "1", "11", "11", SHIFT, p -> p.length() == 1)).containsExactly("N");
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
