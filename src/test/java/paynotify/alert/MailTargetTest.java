package paynotify.alert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.icegreen.greenmail.configuration.GreenMailConfiguration;
import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.ServerSetupTest;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import jakarta.mail.Message;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Alerts by mail through a real SMTP server (GreenMail), and what the owner reads when it fails. */
class MailTargetTest {
  private static final String PASSWORD = "s3cret-Auth-Code";
  private static final Duration TIMEOUT = Duration.ofSeconds(1);
  private static final Alert ALERT = new Alert("unknown_order", "支付异常：未知订单 PN123 ¥29.90",
      "支付异常：未知订单\n平台单号 2026120422001 已付款，站点没有这笔订单。\n请在后台核对。");

  @RegisterExtension
  static final GreenMailExtension SMTP = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort())
      .withConfiguration(GreenMailConfiguration.aConfig().withUser("alerts@example.com", "alerts", PASSWORD));

  private Vertx vertx;

  @BeforeEach
  void startVertx() {
    vertx = Vertx.vertx();
  }

  @AfterEach
  void stopVertx() {
    vertx.close().await();
  }

  private static MailSettings settings(int port, String password, boolean starttls) {
    return new MailSettings("127.0.0.1", port, "alerts@example.com", List.of("owner@example.com", "ops@example.com"),
        "alerts", password, starttls, TIMEOUT);
  }

  private Future<Void> send(MailSettings settings) {
    return new MailTarget(vertx, settings).send(ALERT);
  }

  @Test
  void oneMessageReachesEveryRecipientWithTheAlertsWords() throws Exception {
    send(settings(SMTP.getSmtp().getPort(), PASSWORD, false)).await(10, TimeUnit.SECONDS);

    MimeMessage[] received = SMTP.getReceivedMessages();
    assertThat(received).hasSize(2); // one delivery per mailbox, of the same message
    assertThat(received[0].getMessageID()).isEqualTo(received[1].getMessageID());
    MimeMessage mail = received[0];
    assertThat(mail.getSubject()).isEqualTo(ALERT.title());
    assertThat(mail.getContentType()).containsIgnoringCase("text/plain").containsIgnoringCase("charset=UTF-8");
    assertThat(((String) mail.getContent()).replace("\r\n", "\n")).isEqualTo(ALERT.text());
    assertThat(mail.getFrom()).extracting(a -> ((InternetAddress) a).getAddress()).containsExactly("alerts@example.com");
    assertThat(Arrays.stream(mail.getRecipients(Message.RecipientType.TO)).map(a -> ((InternetAddress) a).getAddress()))
        .containsExactly("owner@example.com", "ops@example.com");
    assertThat(mail.getSentDate()).isNotNull();
  }

  @Test
  void aWrongPasswordFailsNamingAuthenticationNeverThePassword() {
    String wrong = "wrong-" + PASSWORD;
    Future<Void> sent = send(settings(SMTP.getSmtp().getPort(), wrong, false));

    assertThatThrownBy(() -> sent.await(10, TimeUnit.SECONDS))
        .hasMessageContaining("authentication as alerts failed")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain(wrong).doesNotContain(PASSWORD));
    assertThat(SMTP.getReceivedMessages()).isEmpty();
  }

  @Test
  void aClosedPortFailsAsUnreachableAtOnce() throws Exception {
    int closed;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closed = socket.getLocalPort();
    }
    long start = System.nanoTime();
    Future<Void> sent = send(settings(closed, PASSWORD, false));

    assertThatThrownBy(() -> sent.await(10, TimeUnit.SECONDS)).hasMessageContaining(":" + closed + " unreachable");
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(TIMEOUT);
  }

  /** The port takes the connection (the kernel's backlog) but no greeting ever comes: the read times out. */
  @Test
  void aServerThatNeverAnswersFailsWithinTheTimeout() throws Exception {
    try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      long start = System.nanoTime();
      Future<Void> sent = send(settings(silent.getLocalPort(), PASSWORD, false));

      assertThatThrownBy(() -> sent.await(10, TimeUnit.SECONDS)).hasMessageContaining("did not answer within 1000 ms");
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(TIMEOUT.multipliedBy(3));
    }
  }

  /** GreenMail's SMTP has no STARTTLS: asked for, it is required, so nothing (no password) goes in clear. */
  @Test
  void starttlsRefusesAServerThatDoesNotOfferIt() {
    Future<Void> sent = send(settings(SMTP.getSmtp().getPort(), PASSWORD, true));

    assertThatThrownBy(() -> sent.await(10, TimeUnit.SECONDS)).hasMessageContaining("STARTTLS is required");
    assertThat(SMTP.getReceivedMessages()).isEmpty();
  }

  /** What no test server here speaks (STARTTLS, TLS on 465) is read from the session's properties. */
  @Test
  void theSessionAsksForTlsAsTheSettingsSay() {
    Properties starttls = MailTarget.sessionProperties(settings(587, PASSWORD, true));
    assertThat(starttls).containsEntry("mail.smtp.starttls.enable", "true")
        .containsEntry("mail.smtp.starttls.required", "true").containsEntry("mail.smtp.ssl.enable", "false")
        .containsEntry("mail.smtp.auth", "true").containsEntry("mail.smtp.connectiontimeout", "1000")
        .containsEntry("mail.smtp.timeout", "1000").containsEntry("mail.smtp.writetimeout", "1000");

    Properties smtps = MailTarget.sessionProperties(settings(465, null, false));
    assertThat(smtps).containsEntry("mail.smtp.ssl.enable", "true").containsEntry("mail.smtp.port", "465")
        .containsEntry("mail.smtp.starttls.enable", "false").containsEntry("mail.smtp.auth", "false");
  }
}
