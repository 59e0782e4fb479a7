package paynotify.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.ServiceProcess;

/**
 * The one outbound HTTP module against a far end played by the JDK's HTTP server (nothing of Vert.x): no
 * redirect followed, the answer's cap (a failure, or the status alone for a caller to whom only it counts), the
 * time limit, each client's own bounded pool and queue, and failures that name the call without its secrets.
 */
class OutboundHttpTest {
  private static final int CAP = 1024;

  HttpServer far;
  final ExecutorService threads = Executors.newCachedThreadPool(); // a hanging answer holds a thread of its own
  Vertx vertx;
  final List<String> paths = new CopyOnWriteArrayList<>();
  final CountDownLatch released = new CountDownLatch(1);
  final AtomicLong endlessBytesSent = new AtomicLong();

  @BeforeEach
  void start() throws IOException {
    far = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
    far.createContext("/", this::answer);
    far.setExecutor(threads);
    far.start();
    vertx = Vertx.vertx();
  }

  @AfterEach
  void stop() {
    released.countDown();
    vertx.close().await();
    far.stop(0);
    threads.shutdownNow();
  }

  private void answer(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      paths.add(path);
      exchange.getRequestBody().readAllBytes();
      switch (path) {
        case "/moved" -> {
          exchange.getResponseHeaders().add("Location", url("/elsewhere").toString());
          exchange.sendResponseHeaders(302, -1);
        }
        case "/endless" -> endless(exchange);
        case "/hang" -> {
          released.await(30, TimeUnit.SECONDS);
          exchange.sendResponseHeaders(200, -1);
        }
        default -> {
          byte[] ok = "ok".getBytes(StandardCharsets.US_ASCII);
          exchange.sendResponseHeaders(200, ok.length);
          exchange.getResponseBody().write(ok);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** A 200 whose body does not end (32 MiB at most) until the caller hangs up. */
  private void endless(HttpExchange exchange) throws IOException, InterruptedException {
    byte[] chunk = "x".repeat(8 * 1024).getBytes(StandardCharsets.US_ASCII);
    exchange.sendResponseHeaders(200, 0);
    try (OutputStream out = exchange.getResponseBody()) {
      for (long sent = 0; sent < 32L << 20; sent += chunk.length) {
        out.write(chunk);
        out.flush();
        endlessBytesSent.set(sent + chunk.length);
        Thread.sleep(5);
      }
    } catch (IOException hungUp) {
      // the caller closed the connection: what a capped reader does
    }
  }

  private URI url(String path) {
    return URI.create("http://127.0.0.1:" + far.getAddress().getPort() + path);
  }

  private OutboundHttp client(Duration timeout) {
    return new OutboundHttp(vertx, new OutboundHttp.Limits(timeout, CAP));
  }

  private static Future<OutboundHttp.Answer> post(OutboundHttp http, URI url) {
    return http.send(HttpMethod.POST, url, null, Buffer.buffer("{}"));
  }

  @Test
  void aRedirectIsAnAnswerNeverFollowed() {
    OutboundHttp.Answer answer = post(client(Duration.ofSeconds(5)), url("/moved")).await();

    assertThat(answer.status()).isEqualTo(302);
    assertThat(answer.headers().get("Location")).endsWith("/elsewhere");
    assertThat(paths).containsExactly("/moved");
  }

  @Test
  void anAnswerPastTheCapFailsAtOnceAndItsConnectionIsClosed() throws InterruptedException {
    OutboundHttp http = client(Duration.ofSeconds(20));
    long start = System.nanoTime();

    assertThatThrownBy(() -> post(http, url("/endless")).await()).isInstanceOf(OutboundFailure.class)
        .hasMessage("the answer (HTTP 200) is larger than " + CAP + " bytes")
        .satisfies(e -> assertThat(((OutboundFailure) e).kind()).isEqualTo(OutboundFailure.Kind.UNAVAILABLE));

    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5)); // the cap, not the time
    assertHungUp();
  }

  @Test
  void forItsStatusAnAnswerPastTheCapIsCutNotFailed() throws InterruptedException {
    OutboundHttp.Answer answer = client(Duration.ofSeconds(20))
        .sendForStatus(HttpMethod.POST, url("/endless"), null, Buffer.buffer("{}")).await();

    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.body().length()).as("the body is counted, not kept").isZero();
    assertHungUp();
  }

  /** The far end stops writing soon: the caller closed the connection instead of reading on. */
  private void assertHungUp() throws InterruptedException {
    Thread.sleep(500);
    long sent = endlessBytesSent.get();
    Thread.sleep(500);
    assertThat(endlessBytesSent.get()).as("bytes written after the caller hung up").isEqualTo(sent);
    assertThat(sent).as("bytes written (socket buffers included)").isLessThan(16L << 20);
  }

  @Test
  void aCallPastItsTimeLimitFailsAndTheClientGoesOn() {
    OutboundHttp http = client(Duration.ofMillis(300));
    long start = System.nanoTime();

    assertThatThrownBy(() -> post(http, url("/hang")).await()).isInstanceOf(OutboundFailure.class)
        .hasMessageStartingWith("POST " + url("/hang") + " failed: ");
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));

    assertThat(post(http, url("/ok")).await().body().toString()).isEqualTo("ok");
  }

  // An endpoint that hangs holds nothing of another's: each caller's client has its own connections.
  @Test
  void aClientWhosePoolIsHeldLeavesAnotherClientItsOwn() {
    OutboundHttp held = new OutboundHttp(vertx, new OutboundHttp.Limits(Duration.ofSeconds(20), CAP).pool(1, 0));
    OutboundHttp other = client(Duration.ofSeconds(5));
    Future<OutboundHttp.Answer> hanging = post(held, url("/hang"));
    while (!paths.contains("/hang")) {
      Thread.onSpinWait();
    }

    assertThatThrownBy(() -> post(held, url("/ok")).await()).isInstanceOf(OutboundFailure.class)
        .hasMessageContaining("max wait queue size"); // its one connection taken, no room to wait: at once
    assertThat(post(other, url("/ok")).await().status()).isEqualTo(200);
    assertThat(hanging.isComplete()).isFalse();
  }

  @Test
  void aFailureNamesTheCallNeverItsUserInfoNorQuery() throws IOException {
    int closed = ServiceProcess.freePort();
    URI secretive = URI.create("http://user:hunter2@127.0.0.1:" + closed + "/hook/s3cr3t-path?key=k3y");

    assertThatThrownBy(() -> post(client(Duration.ofSeconds(5)), secretive).await())
        .isInstanceOf(OutboundFailure.class)
        .hasMessageStartingWith("POST http://127.0.0.1:" + closed + "/hook/s3cr3t-path failed: ")
        .message().doesNotContain("hunter2").doesNotContain("k3y");
  }
}
