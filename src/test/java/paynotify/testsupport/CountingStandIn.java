package paynotify.testsupport;

import com.sun.net.httpserver.HttpExchange;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.PrivateKey;
import java.time.LocalDateTime;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPOutputStream;
import paynotify.channel.PlatformTime;

/**
 * The half of a {@link PlatformStandIn} every platform shares: what it counts, how its next answers go wrong,
 * and the small parsing and key-file chores; each platform's stand-in keeps its protocol.
 */
abstract class CountingStandIn implements PlatformStandIn {
  private final Map<String, AtomicInteger> queries = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> closes = new ConcurrentHashMap<>();
  private final AtomicInteger refused = new AtomicInteger();
  private volatile Mode mode = Mode.NORMAL;

  /** A query about {@code outTradeNo} that verified. */
  protected final void queried(String outTradeNo) {
    queries.computeIfAbsent(outTradeNo, k -> new AtomicInteger()).incrementAndGet();
  }

  /** A close request for {@code outTradeNo} that verified. */
  protected final void closeRequested(String outTradeNo) {
    closes.computeIfAbsent(outTradeNo, k -> new AtomicInteger()).incrementAndGet();
  }

  /** A request refused as the platform refuses one it cannot verify. */
  protected final void refusedOne() {
    refused.incrementAndGet();
  }

  /** Now on the platforms' clock (Beijing time), to the second: when a trade the test pays was paid. */
  protected static LocalDateTime beijingNow() {
    return LocalDateTime.now(PlatformTime.BEIJING).withNano(0);
  }

  protected final Mode mode() {
    return mode;
  }

  @Override
  public final int queries(String outTradeNo) {
    return queries.getOrDefault(outTradeNo, new AtomicInteger()).get();
  }

  @Override
  public final int closes(String outTradeNo) {
    return closes.getOrDefault(outTradeNo, new AtomicInteger()).get();
  }

  @Override
  public final int refusedRequests() {
    return refused.get();
  }

  @Override
  public final void mode(Mode mode) {
    this.mode = mode;
  }

  /**
   * The next answer gone wrong as {@link #mode()} says, before the request is read: SLOW holds it 30 s (the
   * client's time limit must cut it; closing the stand-in interrupts it), DOWN answers 503 with no body. True
   * when it was answered so, and nothing else is to be sent.
   */
  protected final boolean inTrouble(HttpExchange exchange) throws IOException, InterruptedException {
    if (mode == Mode.SLOW) {
      Thread.sleep(30_000);
    }
    if (mode == Mode.DOWN) {
      exchange.sendResponseHeaders(503, -1);
      return true;
    }
    return false;
  }

  /** {@code key} as PKCS#8 PEM in a new file of mode 600, owned by this user: as the service requires of a merchant key. */
  static Path privateKeyFile(String prefix, PrivateKey key) {
    try {
      Path file = Files.createTempFile(prefix, ".pem",
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      file.toFile().deleteOnExit();
      Files.writeString(file, "-----BEGIN PRIVATE KEY-----\n"
          + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(key.getEncoded())
          + "\n-----END PRIVATE KEY-----\n", StandardCharsets.US_ASCII);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code plain} gzipped, as the platforms serve a bill asked with tar_type=GZIP. */
  static byte[] gzip(byte[] plain) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
      gzip.write(plain);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** A query string or form body ({@code a=1&b=2}), decoded as UTF-8; null or empty: none. */
  static Map<String, String> form(String raw) {
    Map<String, String> params = new LinkedHashMap<>();
    for (String pair : raw == null || raw.isEmpty() ? new String[0] : raw.split("&")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        params.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    return params;
  }
}
