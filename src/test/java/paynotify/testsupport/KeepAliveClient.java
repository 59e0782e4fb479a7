package paynotify.testsupport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * An HTTP/1.1 client on one keep-alive connection, over a plain socket so that it can tell what
 * happened to each request: answered, closed before it was sent, closed or reset after it was
 * sent, or cut mid-answer. Like a pooled client, it checks that the server has not closed the idle
 * connection before it reuses it, and it does not reuse one after {@code Connection: close}.
 */
public final class KeepAliveClient implements AutoCloseable {
  /** What became of one request. */
  public enum Fate {
    /** A complete HTTP response. */
    ANSWERED,
    /** Not sent: the connection was closed and no new one was accepted (the server is gone). */
    NOT_SENT,
    /** Sent, then the connection ended cleanly (FIN) before any byte of an answer. */
    CLOSED_UNANSWERED,
    /** Sent, then the connection was reset (RST). */
    RESET,
    /** Part of an answer, then the connection ended. */
    HALF_ANSWERED
  }

  /**
   * @param reused whether the request went on a connection that had carried one before (else a
   *               new one), which tells an idle keep-alive close from a closing listener
   * @param error  what the socket said, for RESET
   */
  public record Exchange(Fate fate, int status, String body, boolean connectionClose, boolean reused, String error,
      long connectedAtNanos, long endedAtNanos) {}

  private final int port;
  private Socket socket;
  private boolean reused;
  private long connectedAt;

  public KeepAliveClient(int port) {
    this.port = port;
  }

  public Exchange send(Notification n) {
    if (!connected()) {
      return ended(Fate.NOT_SENT, null);
    }
    try {
      socket.getOutputStream().write(request(n));
      Exchange answer = readResponse(socket.getInputStream());
      if (answer.fate() != Fate.ANSWERED || answer.connectionClose()) {
        drop();
      } else {
        reused = true;
      }
      return answer;
    } catch (IOException e) {
      Exchange reset = ended(Fate.RESET, e.toString());
      drop();
      return reset;
    }
  }

  /** The open connection, or a new one; false when the server accepts none. */
  private boolean connected() {
    if (socket != null && peerClosed()) {
      drop();
    }
    if (socket == null) {
      try {
        socket = new Socket(InetAddress.getLoopbackAddress(), port);
        socket.setTcpNoDelay(true);
        reused = false;
        connectedAt = System.nanoTime();
      } catch (IOException refused) {
        return false;
      }
    }
    return true;
  }

  /** What a pooled client does before reusing an idle connection: look for the server's FIN. */
  private boolean peerClosed() {
    try {
      socket.setSoTimeout(1);
      return socket.getInputStream().read() < 0;
    } catch (SocketTimeoutException open) {
      return false;
    } catch (IOException e) {
      return true;
    }
  }

  private static byte[] request(Notification n) throws IOException {
    String target = n.path() + (n.query() == null ? "" : "?" + n.query());
    StringBuilder head = new StringBuilder(n.method()).append(' ').append(target).append(" HTTP/1.1\r\n")
        .append("Host: 127.0.0.1\r\n")
        .append("Content-Length: ").append(n.body().length).append("\r\n");
    n.headers().forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    bytes.write(head.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
    bytes.write(n.body());
    return bytes.toByteArray();
  }

  private Exchange readResponse(InputStream in) throws IOException {
    socket.setSoTimeout(60_000);
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) >= 0) {
      head.write(b);
      if (head.size() >= 4 && head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
        break;
      }
    }
    if (b < 0) {
      return ended(head.size() == 0 ? Fate.CLOSED_UNANSWERED : Fate.HALF_ANSWERED, null);
    }
    String[] lines = head.toString(StandardCharsets.ISO_8859_1).split("\r\n");
    int status = Integer.parseInt(lines[0].split(" ")[1]);
    int length = 0;
    boolean close = false;
    for (String line : lines) {
      String lower = line.toLowerCase(Locale.ROOT);
      if (lower.startsWith("content-length:")) {
        length = Integer.parseInt(lower.substring(15).trim());
      } else if (lower.startsWith("connection:")) {
        close = lower.contains("close");
      }
    }
    byte[] body = in.readNBytes(length);
    if (body.length < length) {
      return ended(Fate.HALF_ANSWERED, null);
    }
    return new Exchange(Fate.ANSWERED, status, new String(body, StandardCharsets.UTF_8), close, reused,
        null, connectedAt, System.nanoTime());
  }

  private Exchange ended(Fate fate, String error) {
    return new Exchange(fate, 0, null, false, reused, error, connectedAt, System.nanoTime());
  }

  private void drop() {
    try {
      socket.close();
    } catch (IOException ignored) {
      // closing what is already gone
    } finally {
      socket = null;
    }
  }

  @Override
  public void close() {
    if (socket != null) {
      drop();
    }
  }
}
