package paynotify.alert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.vertx.core.Vertx;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import paynotify.cli.ExitCode;
import paynotify.net.OutboundHttp;
import paynotify.testsupport.Cli;
import paynotify.testsupport.DatabaseTestBase;
import paynotify.testsupport.TestService;

/**
 * The self-probe against the running service's notify listener (what a request through nginx reaches), and against
 * what may answer in its place: a page (a cache, the PHP site), nginx's 404, a CDN's challenge, a redirect.
 */
class SelfProbeTest extends DatabaseTestBase {
  Vertx vertx;
  OutboundHttp http;
  TestService service;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    http = new OutboundHttp(vertx, Duration.ofSeconds(5), 4096);
    service = TestService.start();
  }

  @AfterEach
  void stop() {
    service.close();
    http.close().await();
    vertx.close().await();
  }

  URI probeUrl(int port) {
    return URI.create("http://127.0.0.1:" + port + SelfProbe.PATH);
  }

  @Test
  void theServiceAnswersTheProbeWithItsNonce() {
    new SelfProbe(http).probe(probeUrl(service.port())).await();
    Cli.Result r = Cli.run("probe", probeUrl(service.port()).toString());
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).contains("reaches paynotify");
  }

  @Test
  void whatAnswersInsteadIsNamed() throws Exception {
    HttpServer other = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 8);
    other.createContext("/", exchange -> {
      String path = exchange.getRequestURI().getPath();
      int status = path.startsWith("/cached") ? 200 : path.startsWith("/challenge") ? 403
          : path.startsWith("/moved") ? 301 : 404;
      if (status == 301) {
        exchange.getResponseHeaders().add("Location", "https://www.shop.example/notify/_probe");
      }
      byte[] page = "<html>shop</html>".getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(status, page.length);
      exchange.getResponseBody().write(page);
      exchange.close();
    });
    other.start();
    try {
      String base = "http://127.0.0.1:" + other.getAddress().getPort();
      assertThatThrownBy(() -> new SelfProbe(http).probe(URI.create(base + "/cached" + SelfProbe.PATH)).await())
          .hasMessageEndingWith("answered by something else than paynotify (a cache, the site itself?)");
      assertThatThrownBy(() -> new SelfProbe(http).probe(URI.create(base + "/challenge" + SelfProbe.PATH)).await())
          .hasMessageContaining("HTTP 403 (a CDN or WAF");
      assertThatThrownBy(() -> new SelfProbe(http).probe(URI.create(base + SelfProbe.PATH)).await())
          .hasMessageContaining("HTTP 404 (nginx's location for /notify/");
      assertThatThrownBy(() -> new SelfProbe(http).probe(URI.create(base + "/moved" + SelfProbe.PATH)).await())
          .hasMessageContaining("redirected to https://www.shop.example/notify/_probe");
      Cli.Result r = Cli.run("probe", base + SelfProbe.PATH);
      assertThat(r.exit()).isEqualTo(ExitCode.FOUND);
      assertThat(r.err()).contains("HTTP 404");
    } finally {
      other.stop(0);
    }
  }

  @Test
  void theListenerRefusesWhatIsNotAProbe() {
    var reply = paynotify.testsupport.Http.post(service.port(), SelfProbe.PATH, "application/x-www-form-urlencoded",
        "nonce=../../etc".getBytes(StandardCharsets.UTF_8));
    assertThat(reply.status()).isEqualTo(400);
  }
}
