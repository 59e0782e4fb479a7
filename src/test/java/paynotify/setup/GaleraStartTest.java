package paynotify.setup;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import paynotify.config.AppConfig.DatabaseSettings;
import paynotify.testsupport.GaleraCluster;
import paynotify.testsupport.GaleraTestBase;
import paynotify.testsupport.ServiceProcess;
import paynotify.testsupport.TestDatabase;

/**
 * Three instances started at the same moment on an empty database, one on each Galera node: one
 * migrates, the others wait for it, and all three then book. Flyway's own lock cannot do that here: on
 * Galera it is a locking read of its history table, which is local to a node.
 */
class GaleraStartTest extends GaleraTestBase {
  @Test
  void threeInstancesStartedAtOnceOnAnEmptyDatabaseMigrateItOnce(@TempDir Path dir) throws Exception {
    TestDatabase empty = cluster.database(1).scratch("paynotify_galera_start");
    List<ServiceProcess> instances = new ArrayList<>();
    try {
      for (int n = 1; n <= GaleraCluster.NODES; n++) {
        DatabaseSettings node = empty.settings().at("127.0.0.1", cluster.node(n).port());
        instances.add(ServiceProcess.start(node, new JsonObject(), Files.createDirectories(dir.resolve("node" + n))));
      }
      for (ServiceProcess instance : instances) {
        instance.awaitHealth(200, Duration.ofSeconds(120));
      }
      int versions = (int) Files.list(Path.of("migrations")).count();
      assertThat(empty.column("SELECT CONCAT(version, ':', success) FROM flyway_schema_history"
              + " WHERE version <> '0' ORDER BY installed_rank"))
          .as("each migration applied once, successfully").hasSize(versions).allMatch(v -> v.endsWith(":1"))
          .doesNotHaveDuplicates();
      String applied = "database .* ready \\((\\d+) migrations applied\\)";
      List<Integer> counts = new ArrayList<>();
      for (ServiceProcess instance : instances) {
        String line = instance.awaitLogLine("migrations applied", Duration.ofSeconds(5));
        counts.add(Integer.parseInt(line.replaceAll(".*" + applied + ".*", "$1")));
      }
      System.out.printf("three instances at once on an empty database: migrations applied by each %s%n", counts);
      assertThat(counts).as("migrations applied by each instance").containsExactlyInAnyOrder(versions, 0, 0);
    } finally {
      instances.forEach(ServiceProcess::close);
      empty.drop();
    }
  }
}
