package paynotify.channel;

import java.time.LocalDateTime;
import java.time.Month;
import java.time.OffsetDateTime;
import java.time.Year;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/** The platforms report times in Beijing time, without a zone; paid_at is stored the same way. */
public final class PlatformTime {
  public static final ZoneId BEIJING = ZoneId.of("Asia/Shanghai");

  /** The forms the platforms write times in. */
  public enum Form {
    /** Alipay: {@code 2026-11-29 14:02:33}. */
    DASHED("'yyyy-MM-dd HH:mm:ss'"),
    /** WeChat Pay v2: {@code 20261129140233}. */
    COMPACT("yyyyMMddHHmmss"),
    /** WeChat Pay v3, with an offset: {@code 2026-11-29T14:02:33+08:00}. */
    RFC_3339("RFC 3339");

    private static final DateTimeFormatter DASHED_FORMAT = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
    private static final DateTimeFormatter COMPACT_FORMAT = DateTimeFormatter.ofPattern("yyyyMMddHHmmss");

    private final String name;

    Form(String name) {
      this.name = name;
    }

    LocalDateTime parse(String value) {
      return switch (this) {
        case DASHED -> dashed(value);
        case COMPACT -> LocalDateTime.parse(value, COMPACT_FORMAT);
        case RFC_3339 -> OffsetDateTime.parse(value).atZoneSameInstant(BEIJING).toLocalDateTime();
      };
    }

    /**
     * Alipay's times read by hand when they are plain (ASCII digits, a real date and time), as the formatter reads
     * them, at a fraction of its cost on every notification; anything else is the formatter's to read or refuse.
     */
    private static LocalDateTime dashed(String value) {
      if (value.length() == 19 && value.charAt(4) == '-' && value.charAt(7) == '-' && value.charAt(10) == ' '
          && value.charAt(13) == ':' && value.charAt(16) == ':') {
        int year = number(value, 0, 4);
        int month = number(value, 5, 7);
        int day = number(value, 8, 10);
        int hour = number(value, 11, 13);
        int minute = number(value, 14, 16);
        int second = number(value, 17, 19);
        if (year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= Month.of(month).length(Year.isLeap(year))
            && hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59 && second >= 0 && second <= 59) {
          return LocalDateTime.of(year, month, day, hour, minute, second);
        }
      }
      return LocalDateTime.parse(value, DASHED_FORMAT);
    }

    /** The ASCII digits of {@code value} in {@code [from, to)} as a number; -1 when one is not a digit. */
    private static int number(String value, int from, int to) {
      int n = 0;
      for (int i = from; i < to; i++) {
        char c = value.charAt(i);
        if (c < '0' || c > '9') {
          return -1;
        }
        n = n * 10 + (c - '0');
      }
      return n;
    }
  }

  private PlatformTime() {}

  /**
   * The time a payment is booked with: {@code value} in {@code form}, or now when the platform
   * sent none; a value in another form is rejected.
   */
  public static LocalDateTime paidAt(String field, String value, Form form) throws RejectedNotification {
    if (value == null || value.isEmpty()) {
      return now();
    }
    try {
      return form.parse(value);
    } catch (DateTimeParseException e) {
      throw RejectedNotification.malformed(field + " is not " + form.name + ": '" + Ids.printable(value) + "'");
    }
  }

  /**
   * A platform time in any of the {@link Form}s (the dashed one also with fractions of a second),
   * or null when absent or unreadable: for times that only inform (a refund's time), never for
   * ones a booking depends on.
   */
  public static LocalDateTime parseOrNull(String value) {
    if (value == null || value.isEmpty()) {
      return null;
    }
    try {
      if (value.contains("T")) {
        return Form.RFC_3339.parse(value);
      }
      if (value.matches("\\d{14}")) {
        return Form.COMPACT.parse(value);
      }
      return LocalDateTime.parse(value.replace(' ', 'T'));
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  /** For a notification that carries no payment time. */
  public static LocalDateTime now() {
    return LocalDateTime.now(BEIJING);
  }
}
