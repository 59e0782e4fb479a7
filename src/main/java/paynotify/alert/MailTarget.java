package paynotify.alert;

import static paynotify.alert.AlertText.Format.PLAIN;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import jakarta.mail.AuthenticationFailedException;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.SendFailedException;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Date;
import java.util.Properties;
import javax.net.ssl.SSLException;

/**
 * Alerts by mail, one plain-text message to all recipients, through Jakarta Mail (Angus Mail). Only this class
 * reaches Jakarta Mail: a service without mail configured never loads it. Its calls block, so they run on a
 * worker, unordered: a slow server holds a worker thread, never an event loop or another alert.
 */
public final class MailTarget implements AlertTarget {
  private static final String UTF_8 = StandardCharsets.UTF_8.name();

  private final Vertx vertx;
  private final MailSettings settings;
  private final Session session;
  private final InternetAddress from;
  private final InternetAddress[] to;

  public MailTarget(Vertx vertx, MailSettings settings) {
    this.vertx = vertx;
    this.settings = settings;
    this.session = Session.getInstance(sessionProperties(settings));
    this.from = address(settings.from());
    this.to = settings.to().stream().map(MailTarget::address).toArray(InternetAddress[]::new);
  }

  @Override
  public String name() {
    return "mail";
  }

  @Override
  public Future<Void> send(Alert alert) {
    return vertx.<Void>executeBlocking(() -> deliver(alert), false)
        .recover(err -> Future.failedFuture(redacted(err instanceof MessagingException m ? why(m) : err.toString())));
  }

  /** Every connection's rules; package-private for the test, since no server there speaks STARTTLS or TLS on 465. */
  static Properties sessionProperties(MailSettings settings) {
    String timeoutMs = Long.toString(settings.timeout().toMillis());
    Properties p = new Properties();
    p.setProperty("mail.smtp.host", settings.host());
    p.setProperty("mail.smtp.port", Integer.toString(settings.port()));
    p.setProperty("mail.smtp.connectiontimeout", timeoutMs);
    p.setProperty("mail.smtp.timeout", timeoutMs);
    p.setProperty("mail.smtp.writetimeout", timeoutMs);
    p.setProperty("mail.smtp.auth", Boolean.toString(settings.password() != null));
    p.setProperty("mail.smtp.ssl.enable", Boolean.toString(settings.implicitTls()));
    // required: a server (or whatever answers in its place) that does not offer STARTTLS gets no password in clear
    p.setProperty("mail.smtp.starttls.enable", Boolean.toString(settings.starttls()));
    p.setProperty("mail.smtp.starttls.required", Boolean.toString(settings.starttls()));
    return p;
  }

  private Void deliver(Alert alert) throws MessagingException {
    MimeMessage message = new MimeMessage(session);
    message.setFrom(from);
    message.setRecipients(Message.RecipientType.TO, to);
    message.setSubject(alert.title(PLAIN), UTF_8);
    message.setText(alert.text(PLAIN), UTF_8);
    message.setSentDate(new Date());
    if (settings.password() == null) {
      Transport.send(message);
    } else {
      Transport.send(message, settings.username(), settings.password());
    }
    return null;
  }

  /** What went wrong, in the owner's words where Jakarta Mail's are about sockets. */
  private String why(MessagingException e) {
    String server = settings.host() + ":" + settings.port();
    if (e instanceof AuthenticationFailedException) {
      return "mail: authentication as " + settings.username() + " failed at " + server + ": " + e.getMessage();
    }
    if (e instanceof SendFailedException refused) {
      return refused.getInvalidAddresses() != null && refused.getInvalidAddresses().length > 0
          ? "mail: " + server + " refused the recipients " + Arrays.toString(refused.getInvalidAddresses()) + ": "
              + innermost(refused).getMessage()
          : "mail: " + server + " refused the message: " + innermost(refused).getMessage();
    }
    for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
      if (cause instanceof UnknownHostException) {
        return "mail: unknown host " + settings.host();
      }
      if (cause instanceof SocketTimeoutException) {
        return "mail: " + server + " did not answer within " + settings.timeout().toMillis() + " ms";
      }
      if (cause instanceof SSLException) {
        return "mail: TLS with " + server + " failed: " + cause.getMessage();
      }
      if (cause instanceof SocketException) {
        return "mail: " + server + " unreachable: " + cause.getMessage();
      }
    }
    return "mail: sending through " + server + " failed: " + e.getMessage();
  }

  /** The server's own reply: Jakarta Mail nests it under its summary ("Invalid Addresses"). */
  private static MessagingException innermost(MessagingException e) {
    return e.getNextException() instanceof MessagingException next ? innermost(next) : e;
  }

  /** A server's reply is foreign text: whatever it echoes, the password stays out of the log. */
  private String redacted(String message) {
    String password = settings.password();
    return password == null || password.isEmpty() ? message : message.replace(password, "********");
  }

  private static InternetAddress address(String address) {
    try {
      return new InternetAddress(address, true);
    } catch (AddressException e) {
      throw new IllegalArgumentException("mail: not an address: " + address + " (" + e.getMessage() + ")", e);
    }
  }
}
