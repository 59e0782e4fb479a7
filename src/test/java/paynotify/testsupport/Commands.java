package paynotify.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/** What tests ask of the machine's programs before they use them (php, node, npm: installed or not). */
public final class Commands {
  private Commands() {}

  /** What {@code command} printed (stdout and stderr) when it ran and exited 0 within 30 s; null otherwise. */
  public static String output(String... command) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0 ? out : null;
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }
}
