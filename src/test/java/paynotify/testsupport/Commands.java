package paynotify.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** What tests ask of the machine's programs (php, node, npm): installed or not, and their installs. */
public final class Commands {
  private Commands() {}

  /** Whether the command exited 0 within its time, and what it printed (stdout and stderr). */
  public record Run(boolean ok, String output) {}

  /** What {@code command} printed when it ran and exited 0 within 30 s; null otherwise. */
  public static String output(String... command) {
    Run run = run(Duration.ofSeconds(30), command);
    return run.ok() ? run.output() : null;
  }

  /**
   * Runs {@code command} for {@code within} at most: its output goes to a file, so that neither a large one (npm's)
   * nor a process that never ends holds the test past the limit; one still running then is killed.
   */
  public static Run run(Duration within, String... command) {
    Path out = null;
    try {
      out = Files.createTempFile("command-", ".out");
      Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
      boolean ended = p.waitFor(within.toMillis(), TimeUnit.MILLISECONDS);
      if (!ended) {
        p.destroyForcibly();
      }
      String output = Files.readString(out, StandardCharsets.UTF_8) + (ended ? "" : "\n(killed after " + within + ")");
      return new Run(ended && p.exitValue() == 0, output);
    } catch (IOException e) {
      return new Run(false, e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Run(false, e.toString());
    } finally {
      if (out != null) {
        out.toFile().delete();
      }
    }
  }
}
