package paynotify.http;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;

/**
 * Reads a request body as raw bytes, bounded. Unlike BodyHandler it never decodes a form:
 * each channel decodes its body exactly once, in the charset the platform used.
 */
final class RawBody {
  private RawBody() {}

  /** The body was larger than allowed. */
  static final class TooLarge extends RuntimeException {
    TooLarge(int limit) {
      super("body larger than " + limit + " bytes (http.max_body_bytes)", null, false, false);
    }
  }

  static Future<Buffer> read(HttpServerRequest request, int limit) {
    long declared = declaredLength(request);
    if (declared > limit) {
      return Future.failedFuture(new TooLarge(limit)); // refused before reading a byte
    }
    Promise<Buffer> body = Promise.promise();
    // Grown as bytes arrive, never sized by Content-Length: a connection that declares the limit and
    // sends nothing would otherwise hold that much heap until it times out.
    Buffer buffer = Buffer.buffer();
    request.handler(chunk -> {
      if (buffer.length() + chunk.length() > limit) {
        body.tryFail(new TooLarge(limit));
      } else {
        buffer.appendBuffer(chunk);
      }
    });
    request.exceptionHandler(body::tryFail);
    request.endHandler(v -> body.tryComplete(buffer));
    return body.future();
  }

  /** Content-Length, -1 when absent (chunked), MAX_VALUE when not a number. */
  private static long declaredLength(HttpServerRequest request) {
    String value = request.getHeader(HttpHeaders.CONTENT_LENGTH);
    if (value == null) {
      return -1;
    }
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      return Long.MAX_VALUE;
    }
  }
}
