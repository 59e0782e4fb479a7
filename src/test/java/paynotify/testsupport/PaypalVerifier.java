package paynotify.testsupport;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import paynotify.channel.paypal.PaypalIpnSignature.Answer;

/**
 * PayPal's IPN verification endpoint, played by a real HTTP server in the test JVM (the JDK's, nothing
 * of the service's stack): VERIFIED only for {@code cmd=_notify-validate&} followed byte for byte by a
 * body {@link #issue issued} by the tests, INVALID for anything else. It can be made slow or down.
 */
public final class PaypalVerifier {
  // PayPal's own words, written out: a typo in the service's constant must fail here, as at PayPal
  private static final String PREFIX = "cmd=_notify-validate&";
  private static PaypalVerifier instance;

  /** How it answers. */
  public enum Mode {
    NORMAL,
    /** Answers after {@link #SLOW_MILLIS}, beyond the test configuration's verify_timeout_ms. */
    SLOW,
    /** HTTP 500, as PayPal does when it is down. */
    ERROR_500,
    /** Closes the connection without an answer. */
    CLOSED,
    /** A 200 whose body never ends (chunks of "VERIFIED" padding) until the listener hangs up. */
    ENDLESS
  }

  public static final long SLOW_MILLIS = 5_000;

  private final HttpServer server;
  private final Set<String> issued = ConcurrentHashMap.newKeySet(); // bodies as ISO-8859-1: byte for byte
  private final AtomicInteger asked = new AtomicInteger();
  private volatile Mode mode = Mode.NORMAL;
  private volatile String lastContentType;
  private volatile long endlessBytesSent;

  private PaypalVerifier() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
    server.createContext("/cgi-bin/webscr", this::handle);
    server.setExecutor(Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "paypal-verifier");
      t.setDaemon(true);
      return t;
    }));
    server.start();
  }

  /** The one verifier of this JVM, started on first use. */
  public static synchronized PaypalVerifier get() {
    if (instance == null) {
      try {
        instance = new PaypalVerifier();
      } catch (IOException e) {
        throw new IllegalStateException("cannot start the PayPal verifier", e);
      }
    }
    return instance;
  }

  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/cgi-bin/webscr";
  }

  /** What PayPal sent: this body is genuine from now on. */
  public byte[] issue(byte[] body) {
    issued.add(new String(body, StandardCharsets.ISO_8859_1));
    return body;
  }

  public void mode(Mode newMode) {
    mode = newMode;
  }

  /** Verification requests received so far (whatever was answered). */
  public int asked() {
    return asked.get();
  }

  public String lastContentType() {
    return lastContentType;
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      asked.incrementAndGet();
      lastContentType = exchange.getRequestHeaders().getFirst("Content-Type");
      byte[] received = exchange.getRequestBody().readAllBytes();
      Mode now = mode;
      switch (now) {
        case CLOSED -> {
          return; // closing the exchange unanswered drops the connection
        }
        case ERROR_500 -> {
          answer(exchange, 500, "Internal Server Error");
          return;
        }
        case SLOW -> sleep();
        case ENDLESS -> {
          endless(exchange);
          return;
        }
        default -> { }
      }
      String text = new String(received, StandardCharsets.ISO_8859_1);
      boolean genuine = exchange.getRequestMethod().equals("POST") && text.startsWith(PREFIX)
          && issued.contains(text.substring(PREFIX.length()));
      answer(exchange, 200, (genuine ? Answer.VERIFIED : Answer.INVALID).name());
    }
  }

  /** Bytes of the last {@link Mode#ENDLESS} answer written before the listener hung up. */
  public long endlessBytesSent() {
    return endlessBytesSent;
  }

  private void endless(HttpExchange exchange) throws IOException {
    byte[] chunk = Answer.VERIFIED.name().repeat(8 * 1024).getBytes(StandardCharsets.US_ASCII);
    endlessBytesSent = 0;
    exchange.sendResponseHeaders(200, 0); // chunked, no length
    try (OutputStream out = exchange.getResponseBody()) {
      for (long sent = 0; sent < 32L << 20; sent += chunk.length) { // 32 MiB in ~5 s: endless beside a 1 KiB answer
        out.write(chunk);
        out.flush();
        endlessBytesSent = sent + chunk.length;
        Thread.sleep(10); // ~6 MB/s: a listener that reads it all still fits in the test's heap
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException hungUp) {
      // the listener closed the connection: what a capped reader does
    }
  }

  private static void answer(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.US_ASCII);
    exchange.getResponseHeaders().set("Content-Type", "text/html; charset=UTF-8");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static void sleep() {
    try {
      Thread.sleep(SLOW_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
