package paynotify.testsupport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One HTTP/1.1 request exactly as it goes on the wire (header bytes, repeated or odd headers, a chunked body), which
 * the JDK's client would refuse to send, sent on a connection of its own so that whatever becomes of it (answered,
 * cut, never answered) is its own. Content-Length (or Transfer-Encoding) and {@code Connection: close} are written
 * by {@link #bytes}, so that the length always tells the truth: a body that never arrives is waited for, which says
 * nothing about the service. Host is one of the headers, for a mutation to change.
 *
 * @param target  path and query as written on the request line
 * @param headers in order, repeats allowed; values are written as ISO-8859-1 (one byte per char)
 * @param chunked the body sent as chunks of {@link #CHUNK} bytes instead of with a Content-Length
 */
public record RawRequest(String method, String target, List<Map.Entry<String, String>> headers, byte[] body,
    boolean chunked) {
  private static final int CHUNK = 7;

  /** What became of a request: a status (0 when there was none), the body read, and how long it took. */
  public record Answer(int status, String body, long millis) {
    public boolean answered() {
      return status > 0;
    }
  }

  /** {@code n} as the platform sends it. */
  public static RawRequest of(Notification n) {
    List<Map.Entry<String, String>> headers = new ArrayList<>();
    headers.add(Map.entry("Host", "127.0.0.1"));
    n.headers().forEach((k, v) -> headers.add(Map.entry(k, v)));
    return new RawRequest(n.method(), n.path() + (n.query() == null ? "" : "?" + n.query()), List.copyOf(headers),
        n.body(), false);
  }

  public String path() {
    int q = target.indexOf('?');
    return q < 0 ? target : target.substring(0, q);
  }

  /** The raw query (after '?'), null when none. */
  public String query() {
    int q = target.indexOf('?');
    return q < 0 ? null : target.substring(q + 1);
  }

  /** The first value of header {@code name} (any case), null when absent. */
  public String header(String name) {
    return headers.stream().filter(h -> h.getKey().equalsIgnoreCase(name)).map(Map.Entry::getValue).findFirst()
        .orElse(null);
  }

  public RawRequest withTarget(String newTarget) {
    return new RawRequest(method, newTarget, headers, body, chunked);
  }

  public RawRequest withMethod(String newMethod) {
    return new RawRequest(newMethod, target, headers, body, chunked);
  }

  public RawRequest withBody(byte[] newBody) {
    return new RawRequest(method, target, headers, newBody, chunked);
  }

  public RawRequest withHeaders(List<Map.Entry<String, String>> newHeaders) {
    return new RawRequest(method, target, List.copyOf(newHeaders), body, chunked);
  }

  public RawRequest chunkedBody() {
    return new RawRequest(method, target, headers, body, true);
  }

  /** The bytes sent. A GET without a body is sent without a length, as clients send it. */
  public byte[] bytes() {
    StringBuilder head = new StringBuilder(method).append(' ').append(target).append(" HTTP/1.1\r\n");
    headers.forEach(h -> head.append(h.getKey()).append(": ").append(h.getValue()).append("\r\n"));
    if (chunked) {
      head.append("Transfer-Encoding: chunked\r\n");
    } else if (body.length > 0 || !method.equals("GET")) {
      head.append("Content-Length: ").append(body.length).append("\r\n");
    }
    head.append("Connection: close\r\n\r\n");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    bytes.writeBytes(head.toString().getBytes(StandardCharsets.ISO_8859_1));
    if (!chunked) {
      bytes.writeBytes(body);
      return bytes.toByteArray();
    }
    for (int at = 0; at < body.length; at += CHUNK) {
      int length = Math.min(CHUNK, body.length - at);
      bytes.writeBytes((Integer.toHexString(length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
      bytes.write(body, at, length);
      bytes.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
    }
    bytes.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    return bytes.toByteArray();
  }

  /**
   * Sends it on a new connection and reads the answer (interim 1xx skipped) for at most {@code within}. No answer
   * (timed out, closed or reset first, cut short) is status 0 and says which in its body.
   */
  public Answer send(int port, Duration within) {
    long start = System.nanoTime();
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      socket.setSoTimeout((int) within.toMillis());
      OutputStream out = socket.getOutputStream();
      try {
        out.write(bytes());
        out.flush();
      } catch (IOException refusedEarly) {
        // a server may answer (413, 431) and close before it has read all: its answer is still to be read
      }
      Answer answer = read(socket.getInputStream(), start);
      while (answer.status() >= 100 && answer.status() < 200) {
        answer = read(socket.getInputStream(), start);
      }
      return answer;
    } catch (SocketTimeoutException e) {
      return new Answer(0, "no answer within " + within.toMillis() + " ms", millisSince(start));
    } catch (IOException e) {
      return new Answer(0, "connection failed: " + e, millisSince(start));
    }
  }

  private Answer read(InputStream in, long start) throws IOException {
    String head = readHead(in);
    if (head == null) {
      return new Answer(0, "connection closed without an answer", millisSince(start));
    }
    String[] lines = head.split("\r\n");
    String[] statusLine = lines[0].split(" ", 3);
    int status = Integer.parseInt(statusLine[1]);
    long length = -1;
    boolean chunkedAnswer = false;
    for (String line : lines) {
      String lower = line.toLowerCase(Locale.ROOT);
      if (lower.startsWith("content-length:")) {
        length = Long.parseLong(lower.substring(15).trim());
      } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
        chunkedAnswer = true;
      }
    }
    byte[] body;
    if (method.equals("HEAD") || status < 200 || status == 204 || status == 304) {
      body = new byte[0];
    } else if (chunkedAnswer) {
      body = readChunks(in);
    } else if (length >= 0) {
      body = in.readNBytes((int) length);
      if (body.length < length) {
        return new Answer(0, "answer " + status + " cut after " + body.length + " of " + length + " bytes",
            millisSince(start));
      }
    } else {
      body = in.readAllBytes(); // no length: the answer ends with the connection
    }
    return new Answer(status, new String(body, StandardCharsets.UTF_8), millisSince(start));
  }

  /** The status line and headers, null when the connection ends before a whole head. */
  private static String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    int b;
    while ((b = in.read()) >= 0) {
      head.write(b);
      matched = b == (matched % 2 == 0 ? '\r' : '\n') ? matched + 1 : (b == '\r' ? 1 : 0);
      if (matched == 4) {
        return head.toString(StandardCharsets.ISO_8859_1);
      }
    }
    return null;
  }

  private static byte[] readChunks(InputStream in) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    while (true) {
      String size = readLine(in);
      int length = Integer.parseInt(size.split(";")[0].trim(), 16);
      if (length == 0) {
        readLine(in); // the empty line after the last chunk (no trailers are sent)
        return body.toByteArray();
      }
      body.writeBytes(in.readNBytes(length));
      readLine(in);
    }
  }

  private static String readLine(InputStream in) throws IOException {
    StringBuilder line = new StringBuilder();
    int b;
    while ((b = in.read()) >= 0 && b != '\n') {
      if (b != '\r') {
        line.append((char) b);
      }
    }
    if (b < 0) {
      throw new IOException("chunked answer cut short");
    }
    return line.toString();
  }

  private static long millisSince(long start) {
    return (System.nanoTime() - start) / 1_000_000;
  }

  /**
   * The request as text for a failure message, to be replayed: bytes outside printable ASCII as {@code \xNN}, a
   * long header value or body shown by its head and tail with the length between.
   */
  public String describe() {
    StringBuilder text = new StringBuilder(method).append(' ').append(printable(target, 600));
    headers.forEach(h -> text.append("\n  ").append(printable(h.getKey(), 80)).append(": ")
        .append(printable(h.getValue(), 300)));
    if (chunked) {
      text.append("\n  (body sent chunked, ").append(CHUNK).append(" bytes a chunk)");
    }
    if (body.length > 0) {
      text.append("\n  body (").append(body.length).append(" bytes): ")
          .append(printable(new String(body, StandardCharsets.ISO_8859_1), 1200));
    }
    return text.toString();
  }

  private static String printable(String s, int max) {
    if (s.length() > max) {
      return printable(s.substring(0, max / 2), max) + " ...(" + (s.length() - max) + " more)... "
          + printable(s.substring(s.length() - max / 2), max);
    }
    StringBuilder out = new StringBuilder();
    for (char c : s.toCharArray()) {
      if (c >= 0x20 && c < 0x7f && c != '\\') {
        out.append(c);
      } else {
        out.append(String.format("\\x%02x", (int) c & 0xff));
      }
    }
    return out.toString();
  }
}
