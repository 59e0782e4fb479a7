package paynotify.testsupport;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/** A notification as a platform sends it: method, path, headers and the exact body or query. */
public record Notification(String method, String path, Map<String, String> headers, byte[] body, String query) {

  public static Notification post(String path, String contentType, String body) {
    return new Notification("POST", path, Map.of("Content-Type", contentType), body.getBytes(StandardCharsets.UTF_8),
        null);
  }

  public static Notification get(String path, String query) {
    return new Notification("GET", path, Map.of(), new byte[0], query);
  }

  /** The same notification with another body (a tampered or oversized copy). */
  public Notification withBody(String newBody) {
    return new Notification(method, path, headers, newBody.getBytes(StandardCharsets.UTF_8), query);
  }
}
