package paynotify.alert;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import java.net.URI;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.regex.Pattern;
import paynotify.net.OutboundHttp;

/**
 * The self-probe: a POST to the site's public notify address ({@code https://shop.example/notify/_probe}), so that
 * it goes the platforms' way, through DNS, TLS, a CDN or WAF and nginx, to a path the service answers with the
 * nonce it was sent: an answer from anything else (a cached page, the PHP site, a challenge) is a failure. It
 * cannot prove that the platforms' own addresses are let through, nor that their notify URL is this one.
 */
public final class SelfProbe {
  /** The notify listener's path for it, beside the channels' (nginx proxies /notify/ as a whole). */
  public static final String PATH = "/notify/_probe";
  /** The largest body the listener reads for it: {@code nonce=} and 32 hex digits. */
  public static final int MAX_BODY = 64;
  private static final Pattern NONCE = Pattern.compile("nonce=([0-9a-f]{32})");
  private static final SecureRandom RANDOM = new SecureRandom();

  private final OutboundHttp http;

  public SelfProbe(OutboundHttp http) {
    this.http = http;
  }

  /** What the listener answers to {@code body}; null when it is not a probe's (then 400). */
  public static String answer(String body) {
    var m = NONCE.matcher(body);
    return m.matches() ? "paynotify probe " + m.group(1) : null;
  }

  /** Probes {@code url}: done when this service answered it, else a failure saying what answered instead. */
  public Future<Void> probe(URI url) {
    byte[] bytes = new byte[16];
    RANDOM.nextBytes(bytes);
    String nonce = HexFormat.of().formatHex(bytes);
    MultiMap headers = MultiMap.caseInsensitiveMultiMap()
        .add(HttpHeaders.CONTENT_TYPE, "application/x-www-form-urlencoded");
    return http.send(HttpMethod.POST, url, headers, Buffer.buffer("nonce=" + nonce))
        .recover(err -> Future.failedFuture(new IllegalStateException(url + " not reached: " + err.getMessage())))
        .compose(answer -> {
          String body = answer.body().toString();
          if (answer.status() == 200 && body.equals("paynotify probe " + nonce)) {
            return Future.succeededFuture();
          }
          return Future.failedFuture(new IllegalStateException(url + " " + why(answer)));
        });
  }

  /** What an answer that is not ours most likely means. */
  private static String why(OutboundHttp.Answer answer) {
    int status = answer.status();
    if (status / 100 == 3) {
      return "redirected to " + answer.headers().get("Location") + " (a platform's POST would be too: give the"
          + " final address)";
    }
    return switch (status) {
      case 200 -> "answered by something else than paynotify (a cache, the site itself?)";
      case 403, 503 -> "answered HTTP " + status + " (a CDN or WAF challenging or blocking the POST?)";
      case 404 -> "answered HTTP 404 (nginx's location for /notify/ does not reach paynotify?)";
      case 502 -> "answered HTTP 502 (nginx cannot reach paynotify: is it running?)";
      default -> "answered HTTP " + status;
    };
  }
}
