package paynotify.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import paynotify.config.AppConfig.DatabaseSettings;

/**
 * The site's receiver of forwarded events exactly as docs/forwarding.md prints it (section "The
 * receiver, tested"), run by {@code php -S} against a site database: read from that page each time,
 * so that what a site owner copies is what the tests run.
 */
public final class PhpReceiver extends ReceiverProcess {
  private final int port;

  private PhpReceiver(Process process, int port, Path log) {
    super(process, log);
    this.port = port;
  }

  /** Whether {@code php} is on the PATH with pdo_mysql (Debian: php8.2-cli, php8.2-mysql). */
  public static boolean available() {
    String modules = Commands.output("php", "-m");
    return modules != null && modules.lines().anyMatch("pdo_mysql"::equals);
  }

  /** The page's paynotify-hook.php. */
  public static String code() {
    return ForwardingPage.block("php", "// paynotify-hook.php");
  }

  /** The page's CREATE TABLE paynotify_events (the site's record of the events it handled), without ';'. */
  public static String siteTable() {
    return ForwardingPage.block("sql", "CREATE TABLE paynotify_events").strip().replaceAll(";$", "");
  }

  /**
   * Starts the receiver on a free port of 127.0.0.1, on the site database {@code site} (which holds
   * {@link #siteTable()} and the site's orders), given paynotify's forward secret {@code secret} in its
   * whsec_ form as the page says. A port found free may be taken before php binds it (another process
   * of the suite): then php exits, and another port is tried.
   */
  public static PhpReceiver start(DatabaseSettings site, String secret) {
    IllegalStateException last = null;
    for (int attempt = 0; attempt < 3; attempt++) {
      int port;
      try (ServerSocket free = new ServerSocket(0)) {
        port = free.getLocalPort();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      try {
        return start(site, secret, port);
      } catch (IllegalStateException portTaken) {
        last = portTaken;
      }
    }
    throw last;
  }

  /** The same on {@code port}: the site back up where paynotify's forward.url points. */
  public static PhpReceiver start(DatabaseSettings site, String secret, int port) {
    try {
      Path dir = Files.createDirectories(Path.of("target", "php-receiver-" + port)).toAbsolutePath();
      Files.writeString(dir.resolve("paynotify-hook.php"), code());
      Path log = dir.resolve("php-server.log");
      ProcessBuilder builder = new ProcessBuilder("php", "-d", "display_errors=0", "-d", "log_errors=1",
          "-S", "127.0.0.1:" + port, "paynotify-hook.php").directory(dir.toFile())
          .redirectErrorStream(true).redirectOutput(log.toFile());
      builder.environment().put("PAYNOTIFY_FORWARD_SECRET", StandardWebhooks.whsec(secret));
      builder.environment().put("SITE_DB_DSN", "mysql:host=" + site.host() + ";port=" + site.port() + ";dbname="
          + site.name() + ";charset=utf8mb4");
      builder.environment().put("SITE_DB_USER", site.user());
      builder.environment().put("SITE_DB_PASSWORD", site.password());
      // several requests at once, as a real relay with several instances may send
      builder.environment().put("PHP_CLI_SERVER_WORKERS", "4");
      PhpReceiver receiver = new PhpReceiver(builder.start(), port, log);
      receiver.awaitAnswering();
      return receiver;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Waits until the receiver itself answers: a GET gets its 405 "POST only". A connection accepted
   * is not enough: it may be another program's on that port (or the probe's own, a TCP
   * self-connect on an ephemeral port), and php not started at all.
   */
  private void awaitAnswering() {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    while (System.nanoTime() < deadline && process.isAlive()) {
      try {
        HttpURLConnection get = (HttpURLConnection) URI.create(url()).toURL().openConnection();
        get.setConnectTimeout(500);
        get.setReadTimeout(1000);
        try (InputStream error = get.getResponseCode() == 405 ? get.getErrorStream() : null) {
          if (error != null && new String(error.readAllBytes(), StandardCharsets.UTF_8).strip().equals("POST only")) {
            return;
          }
        } finally {
          get.disconnect();
        }
      } catch (IOException notYet) {
        // not listening yet, or not answering: try again
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    close();
    throw new IllegalStateException("php -S did not answer on " + port + ": " + log());
  }

  public int port() {
    return port;
  }

  @Override
  public String url() {
    return "http://127.0.0.1:" + port + "/paynotify-hook.php";
  }
}
