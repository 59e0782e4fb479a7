package paynotify.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import paynotify.testsupport.ServiceProcess;

/**
 * The embedded MariaDB (database.host empty, a trial) belongs to the instance that started it: a second
 * instance on its data_dir is refused, naming the key, before it touches the running server's files.
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
