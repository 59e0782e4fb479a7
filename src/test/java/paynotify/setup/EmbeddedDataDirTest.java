package paynotify.setup;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import paynotify.testsupport.ServiceProcess;

/**
 * The embedded MariaDB (database.host empty, a trial) belongs to the instance that started it: a second
 * instance on its data_dir is refused, naming the key, before it touches the running server's files; so
 * is a start on a data_dir whose server outlived its paynotify.
 */
class EmbeddedDataDirTest {
  private static final Duration START = Duration.ofSeconds(180); // the first start unpacks MariaDB
  private static final Path DATA_DIR = Path.of("target", "second-instance-mariadb").toAbsolutePath();

  @TempDir
  Path dir;

  @Test
  void aSecondInstanceOnTheSameDataDirIsRefusedAndTheFirstServesOn() throws Exception {
    ServiceProcess first = start("first");
    try {
      first.awaitHealth(200, START);
      Integer port = EmbeddedDatabase.runningPort(DATA_DIR);
      try (ServiceProcess second = start("second")) {
        assertThat(second.exitCode(START)).isEqualTo(2);
        assertThat(second.lastErrorLine()).contains(": database.embedded.data_dir: " + DATA_DIR
            + " is in use by another paynotify on this machine (its embedded MariaDB)");
      }
      assertThat(EmbeddedDatabase.runningPort(DATA_DIR)).as("the port the tools find").isEqualTo(port);
      first.awaitHealth(200, START);
    } finally {
      first.terminate(); // SIGTERM: it stops its MariaDB (a SIGKILL would leave that server running)
      first.exitCode(START);
    }
  }

  /**
   * kill -9 ends the JVM, not the mariadbd it started: the next start on that data_dir says which server
   * to stop, where a second server on the same files would wait 30 s for their locks and then fail.
   */
  @Test
  void aStartAfterAKill9NamesTheServerItLeftRunning() throws Exception {
    ServiceProcess killed = start("killed");
    List<ProcessHandle> left = List.of();
    try {
      killed.awaitHealth(200, START);
      Integer port = EmbeddedDatabase.runningPort(DATA_DIR);
      left = killed.descendants();
      killed.kill9();
      ProcessHandle mariadbd = left.stream().filter(ProcessHandle::isAlive).findFirst()
          .orElseThrow(() -> new AssertionError("no child of the killed paynotify survived it"));
      try (ServiceProcess next = start("next")) {
        assertThat(next.exitCode(START)).isEqualTo(2);
        assertThat(next.lastErrorLine()).contains(": database.embedded.data_dir: " + DATA_DIR
            + ": the embedded MariaDB of an earlier run still runs on it (pid " + mariadbd.pid() + ", port " + port
            + ")").contains("stop it (kill " + mariadbd.pid() + ")");
      }
      assertThat(mariadbd.isAlive()).as("the earlier server, left as it was").isTrue();
    } finally {
      killed.close();
      for (ProcessHandle orphan : left) {
        orphan.destroy(); // SIGTERM: mariadbd shuts down cleanly, the next start needs no recovery
        orphan.onExit().get(1, TimeUnit.MINUTES);
      }
    }
  }

  private ServiceProcess start(String name) throws IOException {
    int port = ServiceProcess.freePort();
    JsonObject config = new JsonObject()
        .put("http", new JsonObject().put("port", port))
        .put("admin", new JsonObject().put("port", 0))
        .put("database", new JsonObject().put("host", "")
            .put("embedded", new JsonObject().put("data_dir", DATA_DIR.toString())));
    Path home = Files.createDirectories(dir.resolve(name));
    Path file = Files.writeString(home.resolve("application.yaml"), config.encodePrettily());
    return ServiceProcess.start(file, port, home);
  }
}
