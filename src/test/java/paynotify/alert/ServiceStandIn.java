package paynotify.alert;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * An alert target's service (a chat robot's webhook, a push service) played on 127.0.0.1: each request kept as it
 * came, and answered as {@code service} says (a service's own checks and answers are all that differs between them).
 * Set as an HTTP proxy it plays the service behind it: a plain-HTTP request reaches it in absolute form
 * ({@code POST http://host/path}), kept whole in {@link Request#uri()}. Public for the drills (paynotify.drill),
 * whose alerts go to one too.
 */
public final class ServiceStandIn implements AutoCloseable {
  /** A request as received: {@code uri} as on the request line. */
  public record Request(String method, URI uri, String contentType, String body) {
    String path() {
      return uri.getRawPath();
    }

    /** The query as sent, null when there is none. */
    String rawQuery() {
      return uri.getRawQuery();
    }

    /** The query decoded, each name's values. */
    Map<String, List<String>> query() {
      return new QueryStringDecoder(uri.toString(), StandardCharsets.UTF_8).parameters();
    }

    /** The one value of {@code name} in the query, null when absent. */
    String param(String name) {
      List<String> values = query().get(name);
      assertThat(values == null ? List.of() : values).as(name).hasSizeLessThanOrEqualTo(1);
      return values == null ? null : values.get(0);
    }

    public JsonObject json() {
      return new JsonObject(body);
    }

    /** The form body decoded, each name's values. */
    Map<String, List<String>> form() {
      return new QueryStringDecoder(body, StandardCharsets.UTF_8, false).parameters();
    }
  }

  /** What the service answers. */
  public record Reply(int status, String body) {
    public static Reply json(JsonObject body) {
      return json(200, body);
    }

    static Reply json(int status, JsonObject body) {
      return new Reply(status, body.encode());
    }
  }

  private final HttpServer server;
  private final List<Request> received = new CopyOnWriteArrayList<>();
  private final Function<Request, Reply> service;

  private ServiceStandIn(Function<Request, Reply> service) throws IOException {
    this.service = service;
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
    server.createContext("/", this::handle);
    server.start();
  }

  public static ServiceStandIn start(Function<Request, Reply> service) {
    try {
      return new ServiceStandIn(service);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The stand-in's base URL, as a push service's is configured. */
  URI url() {
    return url("");
  }

  /** A URL on the stand-in, as a robot's webhook is configured. */
  public URI url(String pathAndQuery) {
    return URI.create("http://127.0.0.1:" + port() + pathAndQuery);
  }

  int port() {
    return server.getAddress().getPort();
  }

  /** A base URL on a port where nothing listens. */
  static URI unreachable() {
    return unreachable("");
  }

  /** A URL on a port where nothing listens (one just let go). */
  static URI unreachable(String pathAndQuery) {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return URI.create("http://127.0.0.1:" + socket.getLocalPort() + pathAndQuery);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every request received so far, in order. */
  public List<Request> received() {
    return List.copyOf(received);
  }

  /** The one request received. */
  Request request() {
    assertThat(received).hasSize(1);
    return received.get(0);
  }

  /** The one request received, which must be a POST to {@code path} of {@code contentType}. */
  Request post(String path, String contentType) {
    Request request = request();
    assertThat(request.method()).isEqualTo("POST");
    assertThat(request.path()).isEqualTo(path);
    assertThat(request.contentType()).isEqualTo(contentType);
    return request;
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      Request request = new Request(exchange.getRequestMethod(), exchange.getRequestURI(),
          exchange.getRequestHeaders().getFirst("Content-Type"),
          new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
      received.add(request);
      Reply reply = service.apply(request);
      byte[] body = reply.body().getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json; charset=utf-8");
      exchange.sendResponseHeaders(reply.status(), body.length);
      exchange.getResponseBody().write(body);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
