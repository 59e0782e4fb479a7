package paynotify.channel;

import java.time.LocalDateTime;
import java.time.OffsetDateTime;
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
        case DASHED -> LocalDateTime.parse(value, DASHED_FORMAT);
        case COMPACT -> LocalDateTime.parse(value, COMPACT_FORMAT);
        case RFC_3339 -> OffsetDateTime.parse(value).atZoneSameInstant(BEIJING).toLocalDateTime();
      };
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
