package paynotify.channel.paypal;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * Asks PayPal whether an IPN is genuine: POSTs {@code cmd=_notify-validate&} followed by the exact
 * bytes received (re-encoding them, e.g. another charset or line ending, makes PayPal answer INVALID).
 * Its own small connection pool and a timeout, so a slow PayPal holds a few connections, never the
 * booking pool or the event loop.
 */
final class IpnVerifier {
  /** What PayPal said; anything but VERIFIED or INVALID fails the future instead. */
  enum Answer { VERIFIED, INVALID }

  private static final Buffer PREFIX = Buffer.buffer("cmd=_notify-validate&", "US-ASCII");
  private static final int POOL_SIZE = 4;
  private static final int MAX_WAITING = 128; // beyond this, fail at once: PayPal retries later
  private static final int MAX_ANSWER_BYTES = 1024;

  private final URI url;
  private final long timeoutMs;
  private HttpClient client; // created on first use, on the Vert.x instance of the first caller

  IpnVerifier(URI url, long timeoutMs) {
    this.url = url;
    this.timeoutMs = timeoutMs;
  }

  /** Fails with the reason when PayPal could not be asked or gave no usable answer. */
  Future<Answer> ask(Buffer body) {
    Buffer message = Buffer.buffer(PREFIX.length() + body.length()).appendBuffer(PREFIX).appendBuffer(body);
    RequestOptions request = new RequestOptions()
        .setMethod(HttpMethod.POST)
        .setAbsoluteURI(url.toString()) // https: TLS with the JDK's trust store and host name check
        .setConnectTimeout(timeoutMs)
        .setIdleTimeout(timeoutMs) // a stalled connection is closed, freeing its pool slot
        .setFollowRedirects(false) // a redirect is not an answer
        .putHeader(HttpHeaders.CONTENT_TYPE, "application/x-www-form-urlencoded")
        .putHeader(HttpHeaders.USER_AGENT, "paynotify-ipn-listener");
    return client().request(request)
        .compose(req -> req.send(message))
        .compose(resp -> resp.statusCode() != 200
            ? Future.failedFuture("verification endpoint answered HTTP " + resp.statusCode())
            : capped(resp))
        .timeout(timeoutMs, TimeUnit.MILLISECONDS) // a trickling answer must not outlast the timeout either
        .compose(answer -> {
          String text = answer.toString(StandardCharsets.US_ASCII).trim();
          return switch (text) {
            case "VERIFIED" -> Future.succeededFuture(Answer.VERIFIED);
            case "INVALID" -> Future.succeededFuture(Answer.INVALID);
            default -> Future.failedFuture("verification endpoint answered neither VERIFIED nor INVALID: '"
                + text.substring(0, Math.min(40, text.length())).replaceAll("\\p{Cntrl}", "?") + "'");
          };
        });
  }

  /**
   * The answer's body, read as it arrives and given up (its connection closed) past
   * {@link #MAX_ANSWER_BYTES}: a verifier that answers without end never has it held whole.
   */
  private static Future<Buffer> capped(HttpClientResponse resp) {
    Promise<Buffer> answer = Promise.promise();
    Buffer read = Buffer.buffer();
    resp.exceptionHandler(answer::tryFail);
    resp.handler(chunk -> {
      if (read.length() + chunk.length() <= MAX_ANSWER_BYTES) {
        read.appendBuffer(chunk);
      } else if (answer.tryFail("verification endpoint answered more than " + MAX_ANSWER_BYTES + " bytes")) {
        resp.request().connection().close(); // the rest is not read, nor is the connection reused
      }
    });
    resp.endHandler(v -> answer.tryComplete(read));
    return answer.future();
  }

  /**
   * Channels are built from the configuration before Vert.x runs: the client is made here, on the
   * Vert.x instance serving the first IPN, and closed with it.
   */
  private synchronized HttpClient client() {
    if (client == null) {
      client = Vertx.currentContext().owner().createHttpClient(
          new HttpClientOptions()
              .setConnectTimeout((int) Math.min(Integer.MAX_VALUE, timeoutMs))
              .setKeepAlive(true),
          new PoolOptions().setHttp1MaxSize(POOL_SIZE).setMaxWaitQueueSize(MAX_WAITING));
    }
    return client;
  }
}
