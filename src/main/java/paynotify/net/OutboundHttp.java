package paynotify.net;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.ProxyOptions;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The HTTP client every platform client calls through: a small pool of its own (a slow platform holds a
 * few connections, never a booking's), a bounded wait queue, a time limit on the whole call, and an
 * answer read up to a cap (a platform, or whatever answers in its place, that sends without end is cut off).
 * TLS is verified as the JDK's trust store says; plain HTTP only where a test's stand-in runs.
 */
public final class OutboundHttp {
  private static final int POOL_SIZE = 4;
  private static final int MAX_WAITING = 64;

  /** An answer as received: its status, its headers and its body, whole. */
  public record Answer(int status, MultiMap headers, Buffer body) {}

  /**
   * Set by the tests only, whose stand-ins serve bills over http on this machine: a bill's download URL that a
   * signed answer gives is asked over https, unless it is this machine's and this is set.
   */
  public static final String TEST_LOOPBACK_HTTP = "paynotify.test.loopback_http";

  private final Vertx vertx;
  private final HttpClient client;
  private final long timeoutMs;
  private final int maxAnswerBytes;

  /** @param maxAnswerBytes the largest answer read whole (a query's answer: a few KiB) */
  public OutboundHttp(Vertx vertx, Duration timeout, int maxAnswerBytes) {
    this(vertx, timeout, maxAnswerBytes, null);
  }

  /** @param proxy every call through it (Telegram, unreachable from mainland China without one); null: direct */
  public OutboundHttp(Vertx vertx, Duration timeout, int maxAnswerBytes, ProxyOptions proxy) {
    this.vertx = vertx;
    this.timeoutMs = timeout.toMillis();
    this.maxAnswerBytes = maxAnswerBytes;
    this.client = vertx.createHttpClient(new HttpClientOptions()
            .setConnectTimeout((int) Math.min(Integer.MAX_VALUE, timeoutMs))
            .setIdleTimeout((int) Math.max(1, timeout.toSeconds()))
            .setVerifyHost(true)
            .setKeepAlive(true)
            .setProxyOptions(proxy),
        new PoolOptions().setHttp1MaxSize(POOL_SIZE).setMaxWaitQueueSize(MAX_WAITING));
  }

  /**
   * Sends {@code body} (null: none) to {@code url}. Fails with {@link OutboundFailure.Kind#UNAVAILABLE} when
   * the platform cannot be reached, does not answer in time, or answers more than the cap; any status is
   * an answer (the caller reads what the platform meant by it).
   */
  public Future<Answer> send(HttpMethod method, URI url, MultiMap headers, Buffer body) {
    // Issued from a Vert.x context's own thread: the response then reaches read() before its body does. From
    // any other thread (a command's, a test's) the continuation can be scheduled after a short body has ended.
    Context context = vertx.getOrCreateContext();
    if (Vertx.currentContext() == context) {
      return call(method, url, headers, body);
    }
    Promise<Answer> answer = Promise.promise();
    context.runOnContext(v -> call(method, url, headers, body).onComplete(answer));
    return answer.future();
  }

  private Future<Answer> call(HttpMethod method, URI url, MultiMap headers, Buffer body) {
    RequestOptions options;
    try {
      options = new RequestOptions().setMethod(method).setAbsoluteURI(url.toString()).setFollowRedirects(false);
    } catch (RuntimeException e) { // not an absolute URL: answered as a failure, never left pending
      return Future.failedFuture(new OutboundFailure(OutboundFailure.Kind.UNAVAILABLE, "not a usable URL: "
          + e.getMessage(), e));
    }
    if (headers != null) {
      options.setHeaders(headers);
    }
    String where = method.name() + " " + url.getScheme() + "://" + url.getAuthority() + url.getPath();
    return client.request(options)
        .compose(request -> body == null ? request.send() : request.send(body))
        .compose(response -> read(response).map(read -> new Answer(response.statusCode(), response.headers(), read)))
        .timeout(timeoutMs, TimeUnit.MILLISECONDS)
        .recover(err -> Future.failedFuture(err instanceof OutboundFailure ? err
            : new OutboundFailure(OutboundFailure.Kind.UNAVAILABLE, where + " failed: "
                + (err.getMessage() == null ? err.getClass().getSimpleName() : err.getMessage()), err)));
  }

  /** {@code url} is a test's stand-in over http on this machine, and {@link #TEST_LOOPBACK_HTTP} allows it. */
  public static boolean testLoopback(URI url) {
    String host = url.getHost() == null ? "" : url.getHost();
    return Boolean.getBoolean(TEST_LOOPBACK_HTTP) && "http".equals(url.getScheme())
        && (host.equals("127.0.0.1") || host.equals("localhost"));
  }

  /** The body, or a failure once it grows past the cap (the connection is then closed, not reused). */
  private Future<Buffer> read(HttpClientResponse response) {
    Promise<Buffer> answer = Promise.promise();
    Buffer read = Buffer.buffer();
    response.exceptionHandler(answer::tryFail);
    response.handler(chunk -> {
      if (read.length() + chunk.length() <= maxAnswerBytes) {
        read.appendBuffer(chunk);
      } else if (answer.tryFail(OutboundFailure.unavailable("the answer is larger than " + maxAnswerBytes + " bytes"))) {
        response.request().connection().close();
      }
    });
    response.endHandler(v -> answer.tryComplete(read));
    return answer.future();
  }

  public Future<Void> close() {
    return client.close();
  }
}
