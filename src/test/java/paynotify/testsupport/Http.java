package paynotify.testsupport;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** Real HTTP to the service under test (the JDK client: nothing of the server's stack). */
public final class Http {
  private static final HttpClient CLIENT = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5))
      .build();

  private Http() {}

  public record Reply(int status, String body) {}

  public static CompletableFuture<Reply> postAsync(int port, String path, String contentType, byte[] body) {
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(30))
        .header("Content-Type", contentType)
        .POST(HttpRequest.BodyPublishers.ofByteArray(body))
        .build();
    return CLIENT.sendAsync(request, HttpResponse.BodyHandlers.ofString())
        .thenApply(r -> new Reply(r.statusCode(), r.body()));
  }

  public static Reply post(int port, String path, String contentType, byte[] body) {
    return postAsync(port, path, contentType, body).join();
  }

  /** Sends {@code n} exactly as given (body bytes unchanged). */
  public static CompletableFuture<Reply> sendAsync(int port, Notification n) {
    String uri = "http://127.0.0.1:" + port + n.path() + (n.query() == null ? "" : "?" + n.query());
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(uri)).timeout(Duration.ofSeconds(30));
    n.headers().forEach(request::header);
    request.method(n.method(), n.method().equals("GET") ? HttpRequest.BodyPublishers.noBody()
        : HttpRequest.BodyPublishers.ofByteArray(n.body()));
    return CLIENT.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString())
        .thenApply(r -> new Reply(r.statusCode(), r.body()));
  }

  public static Reply send(int port, Notification n) {
    return sendAsync(port, n).join();
  }

  public static Reply get(int port, String path) throws IOException, InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(30)).GET().build();
    HttpResponse<String> r = CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
    return new Reply(r.statusCode(), r.body());
  }

  /** An empty POST to the admin listener with {@code Authorization: Bearer <token>}. */
  public static Reply postWithToken(int port, String path, String token) throws IOException, InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer " + token)
        .POST(HttpRequest.BodyPublishers.noBody()).build();
    HttpResponse<String> r = CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
    return new Reply(r.statusCode(), r.body());
  }
}
