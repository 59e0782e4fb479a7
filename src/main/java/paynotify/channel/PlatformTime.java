package paynotify.channel;

import java.time.LocalDateTime;
import java.time.ZoneId;

/** The platforms report times in Beijing time, without a zone; paid_at is stored the same way. */
public final class PlatformTime {
  public static final ZoneId BEIJING = ZoneId.of("Asia/Shanghai");

  private PlatformTime() {}

  /** For a notification that carries no payment time. */
  public static LocalDateTime now() {
    return LocalDateTime.now(BEIJING);
  }
}
