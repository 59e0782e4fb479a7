package paynotify.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class MoneyTest {
  @ParameterizedTest
  @CsvSource({"0,0", "0.01,1", "0.1,10", "88.88,8888", "10,1000", "12.5,1250", "9999999999999.99,999999999999999",
      "0.5,50", "7.05,705", "1000000000000,100000000000000"})
  void plainDecimalsBecomeExactCents(String yuan, long cents) throws Exception {
    assertThat(Money.yuanToCents("total_amount", yuan)).isEqualTo(cents);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", " ", "1.001", "1.", ".5", "-1", "+1", "1e2", "01", "1,00", "0x10", "1.0 ", "NaN",
      "10000000000000", "１２",
      "1.2.3", "1..2", "0.", "00", "00.5", ".", "1.-2", "1.+2"})
  void anythingElseIsRejected(String yuan) {
    assertThatThrownBy(() -> Money.yuanToCents("total_amount", yuan))
        .isInstanceOf(RejectedNotification.class)
        .hasMessageContaining("total_amount");
  }

  @ParameterizedTest
  @CsvSource({"0,0.00", "1,0.01", "8888,88.88", "100000,1000.00"})
  void formatsCentsAsYuan(long cents, String yuan) {
    assertThat(Money.format(cents)).isEqualTo(yuan);
  }
}
