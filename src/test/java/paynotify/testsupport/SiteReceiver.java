package paynotify.testsupport;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

/**
 * The site's event endpoint, for real: an HTTP server on 127.0.0.1 that records every request
 * (headers, raw body bytes, when it arrived, what it was answered) and answers as told: a status
 * (200, 500 ...), after an optional delay, or not at all ({@link #hang()}). It counts the requests in
 * flight for each {@code Paynotify-Event-Id}, so a test can tell whether one event was ever sent twice
 * at the same moment. One thread per request: concurrent senders are really served concurrently.
 * It can also answer the first request of a test otherwise ({@link #firstAnswer}), and answer with a
 * body of any size, streamed ({@link #answerBody}), recording how much of it the sender took.
 */
public final class SiteReceiver implements AutoCloseable {
  public static final String PATH = "/paynotify-hook";
  /** The answer recorded for a request that was held without an answer and then dropped. */
  public static final int NO_ANSWER = -1;

  private final HttpServer server;
  private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "site-receiver");
    t.setDaemon(true);
    return t;
  });
  private final List<Request> requests = new CopyOnWriteArrayList<>();
  private final Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();
  private final AtomicInteger maxInFlightForOneEvent = new AtomicInteger();
  private volatile int status = 200;
  private volatile long delayMillis;
  private volatile long answerBytes;
  private volatile Map<String, String> answerHeaders = Map.of();
  private final AtomicReference<int[]> first = new AtomicReference<>(); // {status, delay ms} for the next request
  private volatile CountDownLatch hold; // non-null: requests wait on it and get no answer

  /** One request as it arrived. */
  public static final class Request {
    private final Map<String, String> headers;
    private final byte[] body;
    private final long arrivedAtMillis;
    private volatile int answered; // 0 while in flight
    private volatile long answeredAtMillis;
    private volatile long bodyBytesSent;

    private Request(Map<String, String> headers, byte[] body, long arrivedAtMillis) {
      this.headers = headers;
      this.body = body;
      this.arrivedAtMillis = arrivedAtMillis;
    }

    /** A header by name, any case; null when absent (a repeated header: its values joined by ", "). */
    public String header(String name) {
      return headers.get(name.toLowerCase(java.util.Locale.ROOT));
    }

    public Map<String, String> headers() {
      return headers;
    }

    public String eventId() {
      return header("Paynotify-Event-Id");
    }

    /** The body exactly as received. */
    public byte[] body() {
      return body.clone();
    }

    public String bodyText() {
      return new String(body, StandardCharsets.UTF_8);
    }

    public long arrivedAtMillis() {
      return arrivedAtMillis;
    }

    /** The status answered, {@link #NO_ANSWER} for a held request that was dropped, 0 while in flight. */
    public int answered() {
      return answered;
    }

    /** When the answer's status went out (0 while in flight). */
    public long answeredAtMillis() {
      return answeredAtMillis;
    }

    /** How many bytes of the answer's body the sender took before it stopped reading (or all of them). */
    public long bodyBytesSent() {
      return bodyBytesSent;
    }

    @Override
    public String toString() {
      return "Request" + headers + " " + bodyText() + " answered " + answered;
    }
  }

  private SiteReceiver(HttpServer server) {
    this.server = server;
    server.setExecutor(threads);
    server.createContext("/", this::handle);
    server.start();
  }

  /** Listens on a free port. */
  public static SiteReceiver start() throws IOException {
    return start(0);
  }

  /** Listens on {@code port} (e.g. one a service was told of while nothing listened there). */
  public static SiteReceiver start(int port) throws IOException {
    return new SiteReceiver(HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 64));
  }

  public int port() {
    return server.getAddress().getPort();
  }

  /** What {@code forward.url} is set to. */
  public String url() {
    return "http://127.0.0.1:" + port() + PATH;
  }

  /** From now on, answer every request with {@code status} (releasing the ones held, unanswered). */
  public SiteReceiver answer(int status) {
    this.status = status;
    release();
    return this;
  }

  /** Answer only after {@code delay}. */
  public SiteReceiver delay(Duration delay) {
    this.delayMillis = delay.toMillis();
    return this;
  }

  /** The next request (only that one) is answered {@code status} after {@code delay}; the others as set. */
  public SiteReceiver firstAnswer(int status, Duration delay) {
    first.set(new int[] {status, (int) delay.toMillis()});
    return this;
  }

  /** From now on, answers carry a body of {@code bytes} bytes (streamed, never held in memory). */
  public SiteReceiver answerBody(long bytes) {
    this.answerBytes = bytes;
    return this;
  }

  /** From now on, answers carry these headers (a Retry-After, a Location). */
  public SiteReceiver answerHeaders(Map<String, String> headers) {
    this.answerHeaders = Map.copyOf(headers);
    return this;
  }

  /** From now on, take every request and never answer it (until {@link #answer} or {@link #close}). */
  public SiteReceiver hang() {
    hold = new CountDownLatch(1);
    return this;
  }

  /** Forgets what was received, and answers 200 at once again. */
  public void reset() {
    answer(200);
    delayMillis = 0;
    answerBytes = 0;
    answerHeaders = Map.of();
    first.set(null);
    requests.clear();
    maxInFlightForOneEvent.set(0);
  }

  private void release() {
    CountDownLatch held = hold;
    hold = null;
    if (held != null) {
      held.countDown();
    }
  }

  private void handle(HttpExchange exchange) throws IOException {
    byte[] body;
    try (InputStream in = exchange.getRequestBody()) {
      body = in.readAllBytes();
    }
    Map<String, String> headers = new TreeMap<>();
    Headers h = exchange.getRequestHeaders();
    h.forEach((name, values) -> headers.put(name.toLowerCase(java.util.Locale.ROOT), String.join(", ", values)));
    headers.put(":method", exchange.getRequestMethod());
    headers.put(":path", exchange.getRequestURI().toString());
    Request request = new Request(headers, body, System.currentTimeMillis());
    String id = String.valueOf(request.eventId());
    AtomicInteger concurrent = inFlight.computeIfAbsent(id, k -> new AtomicInteger());
    maxInFlightForOneEvent.accumulateAndGet(concurrent.incrementAndGet(), Math::max);
    requests.add(request);
    try {
      CountDownLatch held = hold;
      if (held != null) {
        awaitQuietly(held);
        request.answered = NO_ANSWER;
        exchange.close(); // dropped without an answer: the sender, if still there, sees the connection end
        return;
      }
      int[] special = first.getAndSet(null);
      long delay = special == null ? delayMillis : special[1];
      if (delay > 0) {
        sleepQuietly(delay);
      }
      int answer = special == null ? status : special[0];
      long size = answerBytes;
      byte[] reply = (answer >= 200 && answer < 300 ? "ok" : "not now").getBytes(StandardCharsets.UTF_8);
      // The answer is recorded before it is sent, while the request still counts as in flight.
      request.answered = answer;
      request.answeredAtMillis = System.currentTimeMillis();
      answerHeaders.forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
      exchange.sendResponseHeaders(answer, size > 0 ? size : reply.length);
      try (OutputStream out = exchange.getResponseBody()) {
        if (size == 0) {
          out.write(reply);
          request.bodyBytesSent = reply.length;
        } else {
          byte[] chunk = new byte[64 * 1024];
          Arrays.fill(chunk, (byte) 'x');
          for (long sent = 0; sent < size; sent += chunk.length) {
            out.write(chunk, 0, (int) Math.min(chunk.length, size - sent));
            request.bodyBytesSent = Math.min(size, sent + chunk.length);
          }
        }
      }
    } catch (IOException senderGone) {
      // the sender gave up (its timeout) or died: what it was told does not matter any more
    } finally {
      concurrent.decrementAndGet();
      exchange.close();
    }
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void sleepQuietly(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Every request so far, in arrival order. */
  public List<Request> requests() {
    return new ArrayList<>(requests);
  }

  /** The requests carrying {@code eventId}, in arrival order. */
  public List<Request> requestsFor(String eventId) {
    return requests.stream().filter(r -> eventId.equals(r.eventId())).toList();
  }

  /** How many requests for {@code eventId} are being served right now. */
  public int inFlight(String eventId) {
    AtomicInteger n = inFlight.get(eventId);
    return n == null ? 0 : n.get();
  }

  /** The most requests for one event id ever served at the same moment (1: never two at once). */
  public int maxInFlightForOneEvent() {
    return maxInFlightForOneEvent.get();
  }

  /** Waits until some request matches, and returns the first that does. */
  public Request await(Predicate<Request> which, Duration within) throws InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    while (System.nanoTime() < deadline) {
      for (Request r : requests) {
        if (which.test(r)) {
          return r;
        }
      }
      Thread.sleep(20);
    }
    throw new AssertionError("no matching request within " + within + "; received:\n" + requests);
  }

  /** Waits until at least {@code n} requests have arrived. */
  public List<Request> awaitCount(int n, Duration within) throws InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    while (requests.size() < n) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(requests.size() + " of " + n + " requests within " + within + "; received:\n"
            + requests);
      }
      Thread.sleep(20);
    }
    return requests();
  }

  @Override
  public void close() {
    release();
    server.stop(0);
    threads.shutdownNow();
    try {
      threads.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
