package paynotify.channel;

import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;

/** What arrived over HTTP, untouched: verification works on these exact bytes. */
public record NotifyRequest(String method, MultiMap headers, String rawQuery, Buffer body) {

  /** What the platform sent and signed: the query string of a GET (empty when none), else the body. */
  public Buffer payload() {
    if (!method.equals("GET")) {
      return body;
    }
    return Buffer.buffer(rawQuery == null ? new byte[0] : rawQuery.getBytes(StandardCharsets.ISO_8859_1));
  }
}
