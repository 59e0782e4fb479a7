package paynotify.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
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

  /**
   * {@code npm install} of {@code pkg} into {@code dir} (made when missing), from the npm registry, and {@code script}
   * written beside it as {@code scriptName} where one is given; a failed install stops the test, saying npm's output.
   */
  public static void npmInstall(Path dir, String pkg, String scriptName, String script) {
    try {
      Files.createDirectories(dir);
      Run npm = run(Duration.ofMinutes(5), "npm", "install", "--prefix", dir.toString(), "--no-audit", "--no-fund",
          "--no-package-lock", pkg);
      if (!npm.ok()) {
        throw new IllegalStateException("npm install " + pkg + " failed: " + npm.output());
      }
      if (scriptName != null) {
        Files.writeString(dir.resolve(scriptName), script);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

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
