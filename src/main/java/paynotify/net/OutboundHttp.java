package paynotify.net;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.ProxyOptions;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The one maker of HTTP clients, and the client every call out of the service goes through (a platform's
 * queries and bills, the site's endpoints, PayPal's postback, an alert target): each caller its own instance,
 * so that one slow or hanging far end holds only that caller's few connections, never a booking's nor
 * another caller's. Each instance has a bounded pool and wait queue, a time limit on the whole call (a call
 * timed out is reset, not left on its connection), an answer read up to a cap (a far end that sends without
 * end is cut off), no redirects (a 3xx is an answer), and failures that name the call as
 * {@code METHOD scheme://host[:port]/path}, never its query or user info. TLS is verified as the JDK's trust
 * store says; plain HTTP only where a test's stand-in runs.
 */
public final class OutboundHttp {
  private static final int POOL_SIZE = 4;
  private static final int MAX_WAITING = 64;

  /** An answer as received: its status, its headers and its body (whole, or up to the cap: see the call). */
  public record Answer(int status, MultiMap headers, Buffer body) {}

  /**
   * What one client may hold and take.
   *
   * @param timeout        the whole call, from asking for a connection to the answer's last byte; also the connect
   *                       timeout and how long a connection may sit without a byte
   * @param maxAnswerBytes the most of an answer read
   * @param poolSize       connections at once, at most
   * @param maxWaiting     calls waiting for a connection, at most; beyond, a call fails at once
   * @param proxy          every call through it; null: direct
   */
  public record Limits(Duration timeout, int maxAnswerBytes, int poolSize, int maxWaiting, ProxyOptions proxy) {
    /** {@code timeout} and {@code maxAnswerBytes} on a small pool (a few connections, a few dozen waiting), direct. */
    public Limits(Duration timeout, int maxAnswerBytes) {
      this(timeout, maxAnswerBytes, POOL_SIZE, MAX_WAITING, null);
    }

    public Limits pool(int size, int waiting) {
      return new Limits(timeout, maxAnswerBytes, size, waiting, proxy);
    }

    /** The same through {@code proxyOptions} (Telegram, unreachable from mainland China without one). */
    public Limits through(ProxyOptions proxyOptions) {
      return new Limits(timeout, maxAnswerBytes, poolSize, maxWaiting, proxyOptions);
    }
  }

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
    this(vertx, new Limits(timeout, maxAnswerBytes));
  }

  public OutboundHttp(Vertx vertx, Limits limits) {
    this.vertx = vertx;
    this.timeoutMs = limits.timeout().toMillis();
    this.maxAnswerBytes = limits.maxAnswerBytes();
    int timeout = (int) Math.min(Integer.MAX_VALUE, timeoutMs);
    this.client = vertx.createHttpClient(new HttpClientOptions()
            .setConnectTimeout(timeout)
            .setIdleTimeout(timeout)
            .setIdleTimeoutUnit(TimeUnit.MILLISECONDS)
            .setVerifyHost(true)
            .setKeepAlive(true)
            .setProxyOptions(limits.proxy()),
        new PoolOptions().setHttp1MaxSize(limits.poolSize()).setMaxWaitQueueSize(limits.maxWaiting()));
  }

  /**
   * Sends {@code body} (null: none) to {@code url}; the answer's body is read whole. Fails with
   * {@link OutboundFailure.Kind#UNAVAILABLE} when the far end cannot be reached, does not answer in time, or
   * answers more than the cap; any status is an answer (the caller reads what the far end meant by it).
   */
  public Future<Answer> send(HttpMethod method, URI url, MultiMap headers, Buffer body) {
    return onContext(method, url, headers, body, true);
  }

  /**
   * As {@link #send}, for a caller to whom only the status and headers count (the site's endpoints): the body is
   * counted, not kept (the answer's is empty), and one longer than the cap is not a failure: the rest is not read
   * (the connection is closed), so a receiver answering a huge body costs neither heap nor time.
   */
  public Future<Answer> sendForStatus(HttpMethod method, URI url, MultiMap headers, Buffer body) {
    return onContext(method, url, headers, body, false);
  }

  private Future<Answer> onContext(HttpMethod method, URI url, MultiMap headers, Buffer body, boolean whole) {
    // Issued from a Vert.x context's own thread: the response then reaches read() before its body does. From
    // any other thread (a command's, a test's) the continuation can be scheduled after a short body has ended.
    Context context = vertx.getOrCreateContext();
    if (Vertx.currentContext() == context) {
      return call(method, url, headers, body, whole);
    }
    Promise<Answer> answer = Promise.promise();
    context.runOnContext(v -> call(method, url, headers, body, whole).onComplete(answer));
    return answer.future();
  }

  private Future<Answer> call(HttpMethod method, URI url, MultiMap headers, Buffer body, boolean whole) {
    RequestOptions options;
    try {
      options = new RequestOptions().setMethod(method).setAbsoluteURI(url.toString()).setFollowRedirects(false)
          .setConnectTimeout(timeoutMs) // also bounds the wait for a pooled connection
          .setIdleTimeout(timeoutMs);
    } catch (RuntimeException e) { // not an absolute URL: answered as a failure, never left pending
      return Future.failedFuture(new OutboundFailure(OutboundFailure.Kind.UNAVAILABLE, "not a usable URL: "
          + e.getMessage(), e));
    }
    if (headers != null) {
      options.setHeaders(headers);
    }
    String where = method.name() + " " + url.getScheme() + "://" + url.getHost()
        + (url.getPort() == -1 ? "" : ":" + url.getPort()) + url.getRawPath();
    AtomicReference<HttpClientRequest> sent = new AtomicReference<>();
    return client.request(options)
        .compose(request -> {
          sent.set(request);
          return body == null ? request.send() : request.send(body);
        })
        .compose(response -> read(response, whole).map(read -> new Answer(response.statusCode(), response.headers(),
            read)))
        .timeout(timeoutMs, TimeUnit.MILLISECONDS)
        .onFailure(err -> { // a call timed out is ended, never left to overlap with the next one
          HttpClientRequest request = sent.get();
          if (request != null) {
            request.reset();
          }
        })
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

  /**
   * The body ({@code whole}), read as it arrives up to the cap, past which the answer fails; else only counted up
   * to the cap and dropped (an empty body: nobody reads it). Past the cap the rest is not read and the connection
   * is closed, not reused.
   */
  private Future<Buffer> read(HttpClientResponse response, boolean whole) {
    Promise<Buffer> answer = Promise.promise();
    Buffer read = Buffer.buffer();
    long[] length = new long[1];
    response.exceptionHandler(answer::tryFail);
    response.handler(chunk -> {
      length[0] += chunk.length();
      if (length[0] <= maxAnswerBytes) {
        if (whole) {
          read.appendBuffer(chunk);
        }
      } else if (whole ? answer.tryFail(OutboundFailure.unavailable("the answer (HTTP " + response.statusCode()
          + ") is larger than " + maxAnswerBytes + " bytes")) : answer.tryComplete(read)) {
        response.request().reset();
      }
    });
    response.endHandler(v -> answer.tryComplete(read));
    return answer.future();
  }

  public Future<Void> close() {
    return client.close();
  }
}
