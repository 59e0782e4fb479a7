package paynotify.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import paynotify.channel.PlatformTime.Form;

class PlatformTimeTest {
  private static final LocalDateTime AT = LocalDateTime.of(2026, 11, 29, 14, 2, 33);

  @ParameterizedTest
  @CsvSource({"DASHED,2026-11-29 14:02:33", "COMPACT,20261129140233", "RFC_3339,2026-11-29T14:02:33+08:00",
      "RFC_3339,2026-11-29T06:02:33Z"})
  void eachFormIsReadAsBeijingTime(Form form, String value) throws Exception {
    assertThat(PlatformTime.paidAt("t", value, form)).isEqualTo(AT);
    assertThat(PlatformTime.parseOrNull(value)).isEqualTo(AT);
  }

  @ParameterizedTest
  @CsvSource({"DASHED,20261129140233,'yyyy-MM-dd HH:mm:ss'", "COMPACT,2026-11-29 14:02:33,yyyyMMddHHmmss",
      "RFC_3339,2026-11-29 14:02:33,RFC 3339", "DASHED,2026-11-29T14:02:33,'yyyy-MM-dd HH:mm:ss'"})
  void aPaymentTimeInAnotherFormIsRejected(Form form, String value, String expected) {
    assertThatThrownBy(() -> PlatformTime.paidAt("gmt_payment", value, form))
        .isInstanceOf(RejectedNotification.class)
        .hasMessageStartingWith("gmt_payment is not ").hasMessageContaining(expected)
        .hasMessageEndingWith(": '" + value + "'");
  }

  /** Alipay's form is read by hand when plain: as the formatter reads it, or refuses it, whatever the value. */
  @ParameterizedTest
  @ValueSource(strings = {"2026-11-29 14:02:33", "2024-02-29 23:59:59", "2026-02-29 10:00:00", "2026-04-31 10:00:00",
      "2026-12-31 00:00:00", "0001-01-01 00:00:00", "0000-01-01 00:00:00", "2026-13-01 10:00:00", "2026-00-10 10:00:00",
      "2026-11-00 10:00:00", "2026-11-29 24:00:00", "2026-11-29 23:60:00", "2026-11-29 23:59:60", "2026-1a-29 10:00:00",
      "2026-11-29 10:00:0", "12026-11-29 10:00:00", "+2026-11-29 10:00:0", "2026-11-29T10:00:00", "2026-11-29 10:00:00 ",
      "２０２６-11-29 10:00:00"})
  void dashedTimesAreReadAsTheFormatterReadsThem(String value) throws Exception {
    LocalDateTime expected;
    try {
      expected = LocalDateTime.parse(value, DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss"));
    } catch (DateTimeParseException e) {
      assertThatThrownBy(() -> PlatformTime.paidAt("gmt_payment", value, Form.DASHED))
          .isInstanceOf(RejectedNotification.class);
      return;
    }
    assertThat(PlatformTime.paidAt("gmt_payment", value, Form.DASHED)).isEqualTo(expected);
  }

  @Test
  void anAbsentPaymentTimeIsNow() throws Exception {
    for (String absent : new String[] {null, ""}) {
      LocalDateTime paidAt = PlatformTime.paidAt("time_end", absent, Form.COMPACT);
      assertThat(Duration.between(paidAt, PlatformTime.now()).abs()).isLessThan(Duration.ofMinutes(1));
    }
  }

  @Test
  void informativeTimesAreReadLeniently() {
    assertThat(PlatformTime.parseOrNull("2026-11-29 14:02:33.512")).isEqualTo(AT.withNano(512_000_000));
    assertThat(PlatformTime.parseOrNull("yesterday")).isNull();
    assertThat(PlatformTime.parseOrNull("")).isNull();
    assertThat(PlatformTime.parseOrNull(null)).isNull();
  }
}
