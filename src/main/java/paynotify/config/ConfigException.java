package paynotify.config;

/** A start-up problem an operator must fix; the message says what and where, in one line. */
public final class ConfigException extends RuntimeException {
  public ConfigException(String message) {
    super(message, null, false, false);
  }
}
