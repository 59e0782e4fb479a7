package paynotify.booking;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** What the pre-check is asked for: the keys seen committed lately, a replayed one kept, the oldest forgotten. */
class BookedKeysTest {
  private static final int GENERATION = BookedKeys.GENERATION;

  @Test
  void aKeySeenIsKnownAndNoOtherIs() {
    BookedKeys keys = new BookedKeys();
    keys.add("alipay:pay:2026120622001");

    assertThat(keys.contains("alipay:pay:2026120622001")).isTrue();
    assertThat(keys.contains("alipay:pay:2026120622002")).isFalse();
    assertThat(keys.contains("wechat_v3:pay:2026120622001")).isFalse();
  }

  @Test
  void theLastGenerationIsAlwaysKnownAndTwoGenerationsBackIsForgotten() {
    BookedKeys keys = new BookedKeys();
    IntStream.range(0, 3 * GENERATION).forEach(i -> keys.add("alipay:pay:T" + i));

    assertThat(IntStream.range(2 * GENERATION, 3 * GENERATION).allMatch(i -> keys.contains("alipay:pay:T" + i)))
        .isTrue();
    assertThat(IntStream.range(0, GENERATION).filter(i -> keys.contains("alipay:pay:T" + i)).count()).isZero();
  }

  @Test
  void aKeyReplayedIsKeptAnotherGeneration() {
    BookedKeys keys = new BookedKeys();
    keys.add("alipay:pay:replayed");
    IntStream.range(0, GENERATION).forEach(i -> keys.add("alipay:pay:T" + i)); // "replayed" is old now
    assertThat(keys.contains("alipay:pay:replayed")).isTrue(); // and young again

    IntStream.range(GENERATION, 2 * GENERATION - 1).forEach(i -> keys.add("alipay:pay:T" + i));
    assertThat(keys.contains("alipay:pay:replayed")).isTrue();
    assertThat(keys.contains("alipay:pay:T0")).isFalse();
  }
}
