package paynotify.drill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import paynotify.testsupport.KillableMariaDb;
import paynotify.testsupport.TestDatabase;

/**
 * The drills' server does what they rely on: survives a SIGKILL with its data, fills its tmpfs (refused, or aborted),
 * frees it.
 */
@Tag("drill")
class KillableMariaDbTest {

  @Test
  void killedServerStartsAgainWithItsCommittedRows() {
    try (KillableMariaDb server = KillableMariaDb.onTmpfs(256 * KillableMariaDb.MB)) {
      TestDatabase db = server.database();
      db.insertOrder("K1", 100);
      server.kill();
      assertFalse(server.isRunning());
      server.start();
      assertEquals(1, db.count("SELECT COUNT(*) FROM orders WHERE order_no = ?", "K1"));
    }
  }

  @Test
  void fullDiskRefusesWritesUntilFreed() {
    try (KillableMariaDb server = KillableMariaDb.onTmpfs(256 * KillableMariaDb.MB)) {
      TestDatabase db = server.database();
      assertTrue(server.fillDisk() > 0);
      IllegalStateException refused = assertThrows(IllegalStateException.class, () -> {
        for (int i = 0; i < 20_000; i++) { // a few rows may still fit in pages already allocated
          db.insertOrder("F" + i, 100);
        }
      });
      if (server.awaitExit(Duration.ofSeconds(2))) {
        // MariaDB may abort on ENOSPC (a page it cannot have) instead of answering "is full": an owner frees the
        // disk and starts it again
        server.freeDisk();
        server.start();
      } else {
        assertTrue(String.valueOf(refused.getCause()).contains("is full"), String.valueOf(refused.getCause()));
        server.freeDisk();
      }
      db.insertOrder("AFTER", 100);
    }
  }

  /**
   * A fork killed mid-drill leaves its server running and its tmpfs mounted: the next server's start finds them
   * by the dead JVM's pid in the directory and removes them.
   */
  @Test
  void theNextServerSweepsWhatADeadJvmLeft() throws Exception {
    try (KillableMariaDb abandoned = KillableMariaDb.onTmpfs(256 * KillableMariaDb.MB)) {
      Path dir = abandoned.log().getParent();
      Process gone = new ProcessBuilder("true").start();
      assertTrue(gone.waitFor(10, TimeUnit.SECONDS));
      Files.writeString(dir.resolve("owner.pid"), Long.toString(gone.pid())); // as if its JVM had died
      assertTrue(mounted(dir.resolve("disk")));

      try (KillableMariaDb next = KillableMariaDb.onDisk()) {
        assertTrue(next.isRunning());
        assertFalse(abandoned.isRunning(), "the abandoned server was killed");
        assertFalse(mounted(dir.resolve("disk")), "its tmpfs unmounted");
        assertFalse(Files.exists(dir), "its files removed");
      }
    } // its close() finds nothing left to do
  }

  /** As /proc/mounts names it: by its real path (no directory there: nothing mounted). */
  private static boolean mounted(Path mountPoint) throws Exception {
    if (!Files.exists(mountPoint)) {
      return false;
    }
    String real = mountPoint.toRealPath().toString();
    return Files.readAllLines(Path.of("/proc/mounts")).stream().anyMatch(line -> line.split(" ")[1].equals(real));
  }
}
