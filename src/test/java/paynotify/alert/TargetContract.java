package paynotify.alert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import paynotify.alert.ServiceStandIn.Reply;
import paynotify.net.OutboundFailure;
import paynotify.net.OutboundHttp;

/**
 * What every target that posts to a service (a chat robot, a push service) does alike, run by each one's test: a
 * service not reached, one answering an error page, one answering what is not JSON, each a failure that names the
 * target and shows none of its secrets.
 */
abstract class TargetContract {
  /** The time the targets sign with, and the robots' stand-ins take for now. */
  static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-04T10:15:30.123Z"), ZoneOffset.UTC);
  /**
   * Our own words: its {@code _} and {@code <b>} would change under Markdown or HTML, and every target sends them as
   * they are (only text from elsewhere is made inert, by the target's format).
   */
  static final Alert ALERT = new Alert("orderless_payment", "支付异常：未知订单 PN123 ¥29.90",
      "支付宝付款 2026120422001 没有对应的订单。\n请在站点后台查找 PN_123 <b>。");

  static Vertx vertx;
  static OutboundHttp http;

  @BeforeAll
  static void startVertx() {
    vertx = Vertx.vertx();
    http = new OutboundHttp(vertx, Duration.ofSeconds(5), 64 * 1024);
  }

  @AfterAll
  static void stopVertx() {
    vertx.close().await();
  }

  /** The target with the right secrets, sending to {@code url}: a robot's webhook, or a push service's base URL. */
  abstract AlertTarget target(URI url);

  /**
   * What follows host and port in {@link #target}'s URL: a robot's webhook path and query as its app shows it,
   * secrets included; nothing for a push service, configured by its base URL alone.
   */
  String webhook() {
    return "";
  }

  /** What no failure may show: a robot's webhook secret and signing secret, a push service's token or key. */
  abstract List<String> secrets();

  @Test
  void unreachableServiceIsAFailureThatShowsNoSecret() {
    AlertTarget target = target(ServiceStandIn.unreachable(webhook()));

    OutboundFailure failure = failure(target.send(ALERT));

    assertThat(failure.kind()).isEqualTo(OutboundFailure.Kind.UNAVAILABLE);
    assertThat(failure.getMessage()).startsWith(target.name() + ": POST http://127.0.0.1:");
    assertThat(failure.getCause()).isNull();
    assertThat(secrets()).isNotEmpty().allSatisfy(secret -> assertThat(failure.getMessage()).doesNotContain(secret));
  }

  @Test
  void errorPageIsAFailureNamingTheStatus() {
    try (ServiceStandIn service = ServiceStandIn.start(r -> new Reply(502, "<html>Bad Gateway</html>"))) {
      AlertTarget target = target(service.url(webhook()));

      OutboundFailure failure = failure(target.send(ALERT));

      assertThat(failure.getMessage()).isEqualTo(target.name() + " answered HTTP 502");
      assertThat(failure.kind()).isEqualTo(OutboundFailure.Kind.UNAVAILABLE);
    }
  }

  @Test
  void answerThatIsNotJsonIsAFailure() {
    try (ServiceStandIn service = ServiceStandIn.start(r -> new Reply(200, "<html>ok</html>"))) {
      AlertTarget target = target(service.url(webhook()));

      assertThat(failure(target.send(ALERT)).getMessage())
          .isEqualTo(target.name() + " answered HTTP 200 with no JSON object");
    }
  }

  static OutboundFailure failure(Future<Void> sent) {
    OutboundFailure failure = catchThrowableOfType(OutboundFailure.class, sent::await);
    assertThat(failure).as("a failure").isNotNull();
    return failure;
  }

  /** HMAC-SHA256 as the robots' documentation computes it, written apart from the targets' own. */
  static byte[] hmacSha256(String key, String message) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return mac.doFinal(message.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
