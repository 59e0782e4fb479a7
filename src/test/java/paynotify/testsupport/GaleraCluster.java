package paynotify.testsupport;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import paynotify.config.AppConfig.DatabaseSettings;

/**
 * The three-node MariaDB Galera cluster of scripts/galera.sh on loopback (node N answers on 3310+N),
 * brought up once per JVM (a cluster left running is reused: {@code up} is idempotent). Where Galera is
 * not installed, {@link #get} skips the test and prints why.
 */
public final class GaleraCluster {
  public static final int NODES = 3;
  private static final int BASE_PORT = 3311;
  private static final Path PROVIDER = Path.of("/usr/lib/galera/libgalera_smm.so");
  private static GaleraCluster instance;

  private GaleraCluster() {}

  /** The running cluster, with the test database migrated on it; skips the test where Galera is missing. */
  public static synchronized GaleraCluster get() {
    String missing = missing();
    if (missing != null) {
      System.out.println("galera tests skipped: " + missing);
    }
    assumeTrue(missing == null, missing);
    if (instance == null) {
      instance = new GaleraCluster();
      instance.script("up");
      // DDL is replicated in total order: the schema made on node 1 is on every node when this returns.
      TestDatabase.createFresh(instance.node(1));
    }
    return instance;
  }

  /** What keeps the cluster from starting here, or null. */
  private static String missing() {
    List<String> missing = new ArrayList<>();
    if (!Files.exists(PROVIDER)) {
      missing.add("galera-4 (" + PROVIDER + ")");
    }
    if (!onPath("rsync")) {
      missing.add("rsync (the state transfer of a node that rejoins)");
    }
    if (!onPath("mariadbd")) {
      missing.add("mariadb-server (mariadbd)");
    }
    return missing.isEmpty() ? null : "not installed: " + String.join(", ", missing)
        + " (apt-get install galera-4 rsync mariadb-server; .ci/run does)";
  }

  private static boolean onPath(String command) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (Files.isExecutable(Path.of(dir, command))) {
        return true;
      }
    }
    return Files.isExecutable(Path.of("/usr/sbin", command));
  }

  /** The test database on node {@code n} (1 to 3). */
  public DatabaseSettings node(int n) {
    return TestDatabase.settings("127.0.0.1", BASE_PORT + n - 1, "");
  }

  /** The test database, read (causally) and written through node {@code n}. */
  public TestDatabase database(int n) {
    return TestDatabase.onGaleraNode(node(n));
  }

  /** SIGKILL of node {@code n}'s mariadbd: a crash, nothing flushed or said to the others. */
  public void kill(int n) {
    script("kill", String.valueOf(n));
  }

  /** Starts node {@code n} again and returns once it has caught up (IST) and is synced. */
  public void start(int n) {
    script("start", String.valueOf(n));
  }

  /** The status lines of the nodes. */
  public String status() {
    return run(List.of("scripts/galera.sh", "status"));
  }

  private String script(String... args) {
    List<String> command = new ArrayList<>(List.of("scripts/galera.sh"));
    command.addAll(List.of(args));
    String out = run(command);
    if (out.startsWith("exit 0\n")) {
      return out;
    }
    throw new IllegalStateException(String.join(" ", command) + " failed:\n" + out);
  }

  /** Runs a command and returns "exit N" and its output. */
  private static String run(List<String> command) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(5, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        throw new IllegalStateException(command + " did not end within 5 minutes:\n" + out);
      }
      return "exit " + p.exitValue() + "\n" + out;
    } catch (IOException e) {
      throw new IllegalStateException(command + " did not run", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(command + " interrupted", e);
    }
  }
}
