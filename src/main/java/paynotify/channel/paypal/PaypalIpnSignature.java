package paynotify.channel.paypal;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import paynotify.channel.RejectedNotification;
import paynotify.channel.VerificationUnavailable;
import paynotify.net.OutboundHttp;

/**
 * PayPal's authenticity rule: an IPN carries no signature, so PayPal itself is asked whether it sent
 * it, after the checks on the raw body that need no asking ({@link IpnPrecheck}: the sandbox's test_ipn,
 * the receiver, the currency). The question POSTs {@code cmd=_notify-validate&} followed by the exact
 * bytes received (re-encoding them, e.g. another charset or line ending, makes PayPal answer INVALID).
 * Its own {@link OutboundHttp} (a small pool, a timeout, a 1 KiB answer), so a slow PayPal holds a few
 * connections, never the booking pool, the event loop or another caller's.
 */
public final class PaypalIpnSignature {
  /** What PayPal said; anything but VERIFIED or INVALID fails the future instead. */
  public enum Answer { VERIFIED, INVALID }

  /** What the question starts with, then {@code &} and the IPN's bytes. */
  public static final String VALIDATE_COMMAND = "cmd=_notify-validate";

  private static final Buffer PREFIX = Buffer.buffer(VALIDATE_COMMAND + "&", "US-ASCII");
  private static final int POOL_SIZE = 4;
  private static final int MAX_WAITING = 128; // beyond this, fail at once: PayPal retries later
  private static final int MAX_ANSWER_BYTES = 1024;

  private final IpnPrecheck precheck;
  private final URI url;
  private final OutboundHttp.Limits limits;
  private OutboundHttp http; // created on first use, on the Vert.x instance of the first caller

  PaypalIpnSignature(IpnPrecheck precheck, URI url, long timeoutMs) {
    this.precheck = precheck;
    this.url = url; // https: TLS with the JDK's trust store and host name check
    this.limits = new OutboundHttp.Limits(Duration.ofMillis(timeoutMs), MAX_ANSWER_BYTES).pool(POOL_SIZE, MAX_WAITING);
  }

  /**
   * What the IPN is to us, once PayPal has answered VERIFIED. Fails with {@link RejectedNotification}
   * for a body refused without asking or answered INVALID, with {@link VerificationUnavailable} when
   * PayPal could not be asked or gave no usable answer (then PayPal retries).
   */
  Future<IpnKind> verify(byte[] body) {
    IpnKind kind;
    try {
      if (body.length == 0) {
        throw RejectedNotification.malformed("empty IPN body"); // not worth asking PayPal
      }
      kind = precheck.check(body);
    } catch (RejectedNotification e) {
      return Future.failedFuture(e);
    }
    return ask(body).transform(asked -> {
      if (asked.failed()) {
        return Future.failedFuture(new VerificationUnavailable(
            "PayPal IPN verification failed: " + asked.cause().getMessage(), asked.cause()));
      }
      if (asked.result() == Answer.INVALID) {
        return Future.failedFuture(new RejectedNotification(RejectedNotification.Reason.BAD_SIGNATURE,
            "PayPal answered INVALID: not an IPN it sent"));
      }
      return Future.succeededFuture(kind);
    });
  }

  /** Fails with the reason when PayPal could not be asked or gave no usable answer. */
  private Future<Answer> ask(byte[] body) {
    Buffer message = Buffer.buffer(PREFIX.length() + body.length).appendBuffer(PREFIX).appendBytes(body);
    MultiMap headers = MultiMap.caseInsensitiveMultiMap()
        .add(HttpHeaders.CONTENT_TYPE, "application/x-www-form-urlencoded")
        .add(HttpHeaders.USER_AGENT, "paynotify-ipn-listener");
    return http().send(HttpMethod.POST, url, headers, message) // a redirect is not an answer: a 3xx fails below
        .compose(answer -> {
          if (answer.status() != 200) {
            return Future.failedFuture("verification endpoint answered HTTP " + answer.status());
          }
          String text = answer.body().toString(StandardCharsets.US_ASCII).trim();
          return switch (text) {
            case "VERIFIED" -> Future.succeededFuture(Answer.VERIFIED);
            case "INVALID" -> Future.succeededFuture(Answer.INVALID);
            default -> Future.failedFuture("verification endpoint answered neither VERIFIED nor INVALID: '"
                + text.substring(0, Math.min(40, text.length())).replaceAll("\\p{Cntrl}", "?") + "'");
          };
        });
  }

  /**
   * Channels are built from the configuration before Vert.x runs: the client is made here, on the
   * Vert.x instance serving the first IPN, and closed with it.
   */
  private synchronized OutboundHttp http() {
    if (http == null) {
      http = new OutboundHttp(Vertx.currentContext().owner(), limits);
    }
    return http;
  }
}
