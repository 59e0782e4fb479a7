package paynotify.channel;

import java.time.LocalDateTime;
import java.time.ZoneId;

/** The platforms report times in Beijing time, without a zone; paid_at is stored the same way. */
public final class PlatformTime {
  public static final ZoneId BEIJING = ZoneId.of("Asia/Shanghai");

  private PlatformTime() {}

  /**
   * A platform time in one of the forms the platforms use ({@code 2026-11-29 14:02:33[.512]},
   * {@code 20261129140233}, RFC 3339 with an offset), or null when absent or unreadable: for
   * times that only inform (a refund's time), never for ones a booking depends on.
   */
  public static LocalDateTime parseOrNull(String value) {
    if (value == null || value.isEmpty()) {
      return null;
    }
    try {
      if (value.contains("T")) {
        return java.time.OffsetDateTime.parse(value).atZoneSameInstant(BEIJING).toLocalDateTime();
      }
      if (value.matches("\\d{14}")) {
        return LocalDateTime.parse(value, java.time.format.DateTimeFormatter.ofPattern("yyyyMMddHHmmss"));
      }
      return LocalDateTime.parse(value.replace(' ', 'T'));
    } catch (java.time.format.DateTimeParseException e) {
      return null;
    }
  }

  /** For a notification that carries no payment time. */
  public static LocalDateTime now() {
    return LocalDateTime.now(BEIJING);
  }
}
