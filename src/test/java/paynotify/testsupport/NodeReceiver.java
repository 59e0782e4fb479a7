package paynotify.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The site's Node receiver exactly as docs/forwarding.md prints it (section "A Node receiver"), run by
 * {@code node} with the Standard Webhooks library it imports, installed from npm as a site installs it.
 */
public final class NodeReceiver extends ReceiverProcess {
  private static final Path DIR = Path.of("target", "node-receiver").toAbsolutePath();
  private static final String LIBRARY = "standardwebhooks@1.1.1";
  private static final Pattern LISTENING = Pattern.compile("listening on 127\\.0\\.0\\.1:(\\d+)");

  private final int port;

  private NodeReceiver(Process process, Path log, int port) {
    super(process, log);
    this.port = port;
  }

  /** Whether {@code node} and {@code npm} are on the PATH (Debian: nodejs, npm). */
  public static boolean available() {
    return Commands.output("node", "--version") != null && Commands.output("npm", "--version") != null;
  }

  /** The page's paynotify-hook.mjs. */
  public static String code() {
    return ForwardingPage.block("js", "// paynotify-hook.mjs");
  }

  /** {@code npm install} of the library beside the receiver: once per test class, from the npm registry. */
  public static void install() {
    Commands.npmInstall(DIR, LIBRARY, null, null);
  }

  /**
   * Starts the receiver, given paynotify's forward secret {@code secret} in its whsec_ form as the page
   * says, on a port node chooses (PORT=0), read back from the line it prints once listening.
   */
  public static NodeReceiver start(String secret) {
    try {
      Files.writeString(DIR.resolve("paynotify-hook.mjs"), code());
      Path log = Files.createTempFile(DIR, "receiver-", ".log");
      ProcessBuilder builder = new ProcessBuilder("node", "paynotify-hook.mjs").directory(DIR.toFile())
          .redirectErrorStream(true).redirectOutput(log.toFile());
      builder.environment().put("PAYNOTIFY_FORWARD_SECRET", StandardWebhooks.whsec(secret));
      builder.environment().put("PORT", "0");
      Process process = builder.start();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
      while (System.nanoTime() < deadline && process.isAlive()) {
        Matcher listening = LISTENING.matcher(Files.readString(log));
        if (listening.find()) {
          return new NodeReceiver(process, log, Integer.parseInt(listening.group(1)));
        }
        Thread.sleep(50);
      }
      process.destroy();
      throw new IllegalStateException("node did not start the receiver: " + Files.readString(log));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Override
  public String url() {
    return "http://127.0.0.1:" + port + "/paynotify-hook";
  }
}
