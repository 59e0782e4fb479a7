package paynotify.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A plain TCP forwarder from a local port to a real server: a database that "comes up" on that
 * port when the relay opens. Bytes pass unchanged in both directions, one thread per direction.
 */
public final class TcpRelay implements AutoCloseable {
  private final ServerSocket listener;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();

  private TcpRelay(ServerSocket listener, String targetHost, int targetPort) {
    this.listener = listener;
    Thread accept = new Thread(() -> acceptLoop(targetHost, targetPort), "relay-accept-" + listener.getLocalPort());
    accept.setDaemon(true);
    accept.start();
  }

  public static TcpRelay open(int port, String targetHost, int targetPort) throws IOException {
    ServerSocket listener = new ServerSocket();
    listener.setReuseAddress(true);
    listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    return new TcpRelay(listener, targetHost, targetPort);
  }

  private void acceptLoop(String targetHost, int targetPort) {
    while (!listener.isClosed()) {
      try {
        Socket client = listener.accept();
        Socket server = new Socket(targetHost, targetPort);
        sockets.add(client);
        sockets.add(server);
        pump(client, server);
        pump(server, client);
      } catch (IOException closed) {
        return;
      }
    }
  }

  private static void pump(Socket from, Socket to) {
    Thread t = new Thread(() -> {
      try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
        in.transferTo(out);
      } catch (IOException ended) {
        // one side closed: the other follows below
      } finally {
        closeQuietly(from);
        closeQuietly(to);
      }
    }, "relay-pump");
    t.setDaemon(true);
    t.start();
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException ignored) {
      // already closed
    }
  }

  @Override
  public void close() throws IOException {
    listener.close();
    sockets.forEach(TcpRelay::closeQuietly);
  }
}
