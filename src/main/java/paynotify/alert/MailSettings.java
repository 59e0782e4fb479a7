package paynotify.alert;

import java.time.Duration;
import java.util.List;

/**
 * The SMTP server alerts are mailed through. Plain types only: reading the configuration loads nothing of
 * Jakarta Mail, which only {@link MailTarget} touches.
 *
 * @param port     465 is TLS from the first byte (SMTPS); any other port is plain or upgraded by {@code starttls}
 * @param to       every address gets the one message
 * @param password null: the server takes mail without authentication; never logged
 * @param starttls upgrade to TLS before anything is said, and refuse a server that does not offer it
 * @param timeout  for connecting, and for each read and write after
 */
public record MailSettings(String host, int port, String from, List<String> to, String username, String password,
    boolean starttls, Duration timeout) {
  private static final int SMTPS_PORT = 465;

  public MailSettings {
    to = List.copyOf(to);
  }

  public boolean implicitTls() {
    return port == SMTPS_PORT;
  }

  @Override
  public String toString() { // never the password
    return host + ":" + port + (implicitTls() ? " (TLS)" : starttls ? " (STARTTLS)" : " (plain)") + " from " + from
        + " to " + to + (password == null ? ", no authentication" : ", as " + username);
  }
}
