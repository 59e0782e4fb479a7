package paynotify.setup;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.stream.Stream;

/**
 * An embedded mariadbd of an earlier run still alive on a data_dir: the lock is its paynotify's, and a
 * kill -9 of that JVM frees the lock but leaves the server running. A second server started on the same
 * files would wait 30 s for their locks and then fail with a line of mariadbd's that names no key.
 *
 * @param pid  from mariadbd's own pid file in the data directory, null when none names a live mariadbd
 * @param port from the port file paynotify writes, null when it does not answer
 */
record EarlierServer(Long pid, Integer port) {
  private static final int CONNECT_MILLIS = 1000;

  /** The server still running on {@code dir} from an earlier run, or null. */
  static EarlierServer on(Path dir) {
    Long pid = livePid(dir.resolve("data"));
    Integer port = answering(EmbeddedDatabase.runningPort(dir));
    return pid == null && port == null ? null : new EarlierServer(pid, port);
  }

  /** "(pid 1234, port 41171)", what of the two is known. */
  String describe() {
    StringJoiner known = new StringJoiner(", ", "(", ")");
    if (pid != null) {
      known.add("pid " + pid);
    }
    if (port != null) {
      known.add("port " + port);
    }
    return known.toString();
  }

  String stopIt() {
    return pid == null ? "stop what listens on 127.0.0.1:" + port : "stop it (kill " + pid + ")";
  }

  /** mariadbd writes {@code <host name>.pid} in its data directory and removes it when it stops. */
  private static Long livePid(Path data) {
    try (Stream<Path> files = Files.list(data)) {
      return files.filter(f -> f.getFileName().toString().endsWith(".pid")).map(EarlierServer::pid)
          .flatMap(Optional::stream).filter(EarlierServer::isMariadbd).findFirst().orElse(null);
    } catch (IOException noDataYet) {
      return null;
    }
  }

  private static Optional<Long> pid(Path file) {
    try {
      return Optional.of(Long.valueOf(Files.readAllLines(file).get(0).trim()));
    } catch (IOException | RuntimeException unreadable) {
      return Optional.empty();
    }
  }

  /** Alive and a MariaDB server: a stale pid file's number may since belong to another process. */
  private static boolean isMariadbd(long pid) {
    return ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
        .map(p -> p.info().command().map(c -> c.endsWith("mariadbd") || c.endsWith("mysqld")).orElse(true))
        .orElse(false);
  }

  private static Integer answering(Integer port) {
    if (port == null) {
      return null;
    }
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), CONNECT_MILLIS);
      return port;
    } catch (IOException notListening) {
      return null;
    }
  }
}
