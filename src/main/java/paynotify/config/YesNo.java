package paynotify.config;

import java.util.Locale;

/** The words a setting may say a switch with: the start reads them, and so does the doctor, which reads no config. */
public final class YesNo {
  private YesNo() {
  }

  /** True for true, yes and on; false for false, no and off, in any case; null for anything else (and for null). */
  public static Boolean of(String text) {
    return text == null ? null : switch (text.toLowerCase(Locale.ROOT)) {
      case "true", "yes", "on" -> true;
      case "false", "no", "off" -> false;
      default -> null;
    };
  }
}
