package paynotify.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import paynotify.config.AppConfig.DatabaseSettings;

/**
 * {@code paynotify serve} as its own JVM, as scripts/start.sh runs it (or that script itself,
 * {@link #startSh}): the way to test what only a real process shows (exit codes, SIGTERM, a database
 * that is not there yet). Its output goes to files in {@code dir}, logged as shipped (ConsoleLogging).
 */
public final class ServiceProcess implements AutoCloseable {
  /** The lowest port a test takes: 1024-19999 holds many a well-known service's. */
  private static final int LOWEST = 20000;
  private final Process process;
  private final Path stdout;
  private final Path stderr;
  private final int port;

  private ServiceProcess(Process process, Path stdout, Path stderr, int port) {
    this.process = process;
    this.stdout = stdout;
    this.stderr = stderr;
    this.port = port;
  }

  /** Starts with the configuration file {@code config} as it is. */
  public static ServiceProcess start(Path config, Path dir) throws IOException {
    return start(config, dir, Map.of());
  }

  /** As {@link #start(Path, Path)}, with these environment variables (e.g. PAYNOTIFY_* overrides) added. */
  public static ServiceProcess start(Path config, Path dir, Map<String, String> env) throws IOException {
    return start(config, dir, null, 0, List.of(), env);
  }

  /**
   * As scripts/start.sh runs an installation: in {@code dir} (the configuration's relative paths, e.g. the
   * embedded database's data_dir, resolve there) with {@code dir/conf/application.yaml}, on {@code port}
   * (PAYNOTIFY_HTTP_PORT), with {@code env} added.
   */
  public static ServiceProcess startIn(Path dir, int port, Map<String, String> env) throws IOException {
    Map<String, String> all = new HashMap<>(env);
    all.put("PAYNOTIFY_HTTP_PORT", Integer.toString(port));
    return start(Path.of("conf", "application.yaml"), dir, dir, port, List.of(), all);
  }

  /** Starts with the configuration file {@code config} as it is, which listens on {@code port}. */
  public static ServiceProcess start(Path config, int port, Path dir) throws IOException {
    return start(config, dir, null, port, List.of(), Map.of());
  }

  /**
   * Starts with the test configuration ({@link TestService#configuration}) on a free port, against
   * {@code db}, with {@code overrides} merged over it. YAML reads JSON, so the file is written as JSON.
   */
  public static ServiceProcess start(DatabaseSettings db, JsonObject overrides, Path dir) throws IOException {
    return start(db, overrides, dir, List.of());
  }

  /** As {@link #start(DatabaseSettings, JsonObject, Path)}, with these options for the JVM as well. */
  public static ServiceProcess start(DatabaseSettings db, JsonObject overrides, Path dir, List<String> jvmOptions)
      throws IOException {
    int port = freePort();
    JsonObject config = TestService.configuration(new JsonObject()
        .put("http", new JsonObject().put("port", port))
        .put("database", new JsonObject()
            .put("host", db.host()).put("port", db.port()).put("name", db.name())
            .put("user", db.user()).put("password", db.password())))
        .mergeIn(overrides, true);
    Path file = dir.resolve("application.yaml");
    Files.writeString(file, config.encodePrettily());
    return start(file, dir, null, port, jvmOptions, Map.of());
  }

  /**
   * {@code scripts/start.sh args} of an {@link Installation}, run in that directory as the recipes of docs/
   * say, listening on {@code port}; its output goes to files in {@code dir}.
   */
  public static ServiceProcess startSh(Path installation, int port, Path dir, String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of(installation.resolve("scripts/start.sh").toString()));
    command.addAll(List.of(args));
    return launch(command, dir, installation, port, Map.of("PATH", Installation.path()), false);
  }

  /**
   * {@code bin/paynotify serve --config config} of an unpacked release, run in {@code workDir} (as its unit runs
   * it in /var/lib/paynotify) with only {@code env} for its environment (as systemd gives it a clean one),
   * listening on {@code port}; its output goes to files in {@code dir}.
   */
  public static ServiceProcess startRelease(Path release, Path config, Path workDir, int port, Path dir,
      Map<String, String> env) throws IOException {
    List<String> command = List.of(release.resolve("bin/paynotify").toString(), "serve", "--config", config.toString());
    return launch(command, dir, workDir, port, env, true);
  }

  /** @param workDir null: this JVM's */
  private static ServiceProcess start(Path config, Path dir, Path workDir, int port, List<String> jvmOptions,
      Map<String, String> env) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command = new ArrayList<>(List.of(java, "-Xmx128m"));
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", shippedClassPath(), "paynotify.cli.Main", "serve", "--config", config.toString()));
    return launch(command, dir, workDir, port, env, false);
  }

  private static ServiceProcess launch(List<String> command, Path dir, Path workDir, int port, Map<String, String> env,
      boolean onlyEnv) throws IOException {
    Path out = dir.resolve("stdout.log");
    Path err = dir.resolve("stderr.log");
    ProcessBuilder builder = new ProcessBuilder(command)
        .redirectOutput(out.toFile())
        .redirectError(err.toFile());
    if (workDir != null) {
      builder.directory(workDir.toFile());
    }
    if (onlyEnv) {
      builder.environment().clear();
    }
    builder.environment().putAll(env);
    Process p = builder.start();
    return new ServiceProcess(p, out, err, port);
  }

  /** The tests' class path without their own classes: no logback-test.xml, the process logs as shipped. */
  private static String shippedClassPath() {
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(entry -> !Path.of(entry).endsWith("test-classes"))
        .collect(Collectors.joining(File.pathSeparator));
  }

  public long pid() {
    return process.pid();
  }

  /** A port free on loopback now, below the ephemeral range (see {@link #freePorts}). */
  public static int freePort() throws IOException {
    return freePorts(1);
  }

  /**
   * The first of {@code n} consecutive ports free on loopback now: an instance's http.port and those after it.
   * Below the kernel's ephemeral range, where no outgoing connection of the suite takes one between this
   * check and the process's listen.
   */
  public static int freePorts(int n) throws IOException {
    int low = ephemeralLow();
    while (true) {
      int first = ThreadLocalRandom.current().nextInt(LOWEST, low - n + 1);
      if (free(first, n)) {
        return first;
      }
    }
  }

  /** The low end of /proc/sys/net/ipv4/ip_local_port_range; Linux's default where it cannot be read. */
  private static int ephemeralLow() {
    try {
      // readAllLines: Files.readString reads a /proc file's announced size, not its content
      return Integer.parseInt(Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0)
          .split("\\s+")[0]);
    } catch (IOException | RuntimeException e) {
      return 32768;
    }
  }

  private static boolean free(int port, int n) {
    for (int p = port; p < port + n; p++) {
      try (ServerSocket s = new ServerSocket(p, 1, InetAddress.getLoopbackAddress())) {
        // free
      } catch (IOException taken) {
        return false;
      }
    }
    return true;
  }

  public int port() {
    return port;
  }

  /** The processes it started (the embedded mariadbd), as they are now: they outlive a {@link #kill9}. */
  public List<ProcessHandle> descendants() {
    return process.descendants().toList();
  }

  /** SIGTERM, as systemd and Ctrl-C stop it. */
  public void terminate() {
    process.destroy();
  }

  /**
   * SIGKILL (kill -9): the JVM ends at once, no shutdown hook, nothing finished or flushed; returns
   * once the process is gone (its sockets then closed by the kernel).
   */
  public void kill9() throws InterruptedException {
    process.destroyForcibly(); // SIGKILL on Linux and macOS
    assertThat(process.waitFor(10, TimeUnit.SECONDS)).as("paynotify killed").isTrue();
  }

  /** Waits for the process to end and returns its exit code. */
  public int exitCode(Duration within) throws InterruptedException {
    assertThat(process.waitFor(within.toMillis(), TimeUnit.MILLISECONDS))
        .as("paynotify ended within %s; its log:%n%s", within, log()).isTrue();
    return process.exitValue();
  }

  /** The last non-blank line on stderr: where a start-up error is said. */
  public String lastErrorLine() {
    List<String> lines = read(stderr).lines().filter(l -> !l.isBlank()).toList();
    return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
  }

  /** Everything the process wrote so far, stdout then stderr. */
  public String log() {
    return read(stdout) + read(stderr);
  }

  /**
   * Polls {@code GET /health} until it answers {@code status}, and returns how long that took;
   * fails with the process's log if it ends or does not answer so within {@code within}.
   */
  public Duration awaitHealth(int status, Duration within) throws InterruptedException {
    long start = System.nanoTime();
    long deadline = start + within.toNanos();
    while (System.nanoTime() < deadline) {
      assertThat(process.isAlive()).as("paynotify is running; its log:%n%s", log()).isTrue();
      try {
        if (Http.get(port, "/health").status() == status) {
          return Duration.ofNanos(System.nanoTime() - start);
        }
      } catch (IOException notListeningYet) {
        // the JVM is still starting
      }
      Thread.sleep(50);
    }
    throw new AssertionError("/health did not answer " + status + " within " + within + "; log:\n" + log());
  }

  /** Waits until the log holds a line containing {@code text}, and returns that line. */
  public String awaitLogLine(String text, Duration within) throws InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    while (System.nanoTime() < deadline) {
      var line = log().lines().filter(l -> l.contains(text)).findFirst();
      if (line.isPresent()) {
        return line.get();
      }
      Thread.sleep(50);
    }
    throw new AssertionError("no log line with '" + text + "' within " + within + "; log:\n" + log());
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }

  @Override
  public void close() {
    process.destroyForcibly();
  }
}
