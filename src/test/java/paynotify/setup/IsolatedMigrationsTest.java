package paynotify.setup;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;
import paynotify.config.AppConfig.DatabaseSettings;
import paynotify.config.ConfigException;
import paynotify.store.OrdersTable;

/**
 * An installation whose class path lacks what the migrations need is not a database that is not up yet:
 * a ConfigException (exit 2, one line), which DatabaseWait does not retry.
 */
class IsolatedMigrationsTest {
  @Test
  void aClassPathWithoutTheMigrationsIsAnIncompleteInstallation() {
    String classPath = System.getProperty("java.class.path");
    System.setProperty("java.class.path", "/nonexistent/paynotify.jar");
    try {
      DatabaseSettings db = new DatabaseSettings("127.0.0.1", 1, "none", "root", "", 8, 256, Duration.ofSeconds(1), 5,
          null);
      assertThatThrownBy(() -> IsolatedMigrations.run(db, OrdersTable.byDefault(), Set.of(), "test"))
          .isInstanceOf(ConfigException.class)
          .hasMessageContaining("cannot load the database migrations")
          .hasMessageContaining("the installation is incomplete");
    } finally {
      System.setProperty("java.class.path", classPath);
    }
  }
}
