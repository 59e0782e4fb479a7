package paynotify.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** A receiver of docs/forwarding.md run as a process of its own (php -S, node), writing to a log file. */
abstract class ReceiverProcess implements AutoCloseable {
  protected final Process process;
  private final Path log;

  ReceiverProcess(Process process, Path log) {
    this.process = process;
    this.log = log;
  }

  /** Where paynotify's forward.url points. */
  public abstract String url();

  /** What the process printed: a line per event handled, and its errors. */
  public String log() {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  /** Stops it, and the workers it started (php's PHP_CLI_SERVER_WORKERS). */
  @Override
  public void close() {
    process.descendants().forEach(ProcessHandle::destroy);
    process.destroy();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
