package paynotify.reconcile.daily;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import paynotify.channel.Platform;
import paynotify.net.OutboundHttp;

/**
 * A day's close ({@link DayClose}) run as a process of its own: {@code paynotify reconcile --channel <platform>
 * --fetch --date <day> --record --json [--repair missing_local] --config <the service's>}, the very command an owner
 * runs by hand, so the same findings, JSON and exit codes. A process, because the JDBC driver, the bill and the
 * reconciliation's memory must stay out of the service that books payments (a 16 MiB bill in its 128 MiB heap). It
 * runs on the JVM and class path of the service; its report is kept beside the bill
 * ({@code <bills_dir>/<platform>/<day>_close.json}, its stderr in {@code _close.log}). No thread waits for it: its
 * exit completes a future, and one that runs past {@link #RUN_LIMIT} is stopped.
 */
final class CloseProcess {
  /** The command, fetch included, at most; then it is stopped and tried again. */
  static final Duration RUN_LIMIT = Duration.ofMinutes(20);
  /** daily_closes.detail's length: no more of the command's stderr is read. */
  static final int DETAIL_CHARS = 1000;
  /**
   * The command's JVM: the tools' heap and metaspace (TOOL_JAVA_OPTS in scripts/java-options.sh; LargeBillMemoryTest
   * fetches the largest bill in that heap), but serve's serial collector and C1 compiler (SERVE_JAVA_OPTS), not the
   * tools' parallel collector: it runs beside the service, on its cores and memory, once a day. Out of memory ends it
   * (as SERVE_ALWAYS ends serve) rather than leaving it hanging.
   */
  private static final List<String> JAVA_OPTIONS = List.of("-Xmx128m", "-XX:MaxMetaspaceSize=96m",
      "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:+ExitOnOutOfMemoryError");

  private final Vertx vertx;
  private final Class<?> commandLine;
  private final DailyCloseSettings settings;
  private final Path billsDir;
  private volatile Process running;

  /**
   * @param commandLine the jar's command line ({@code cli.Main}), whose {@code reconcile} is run: handed down from
   *                    the top floor ({@code serve}, then the server), never named here. Its entry point cannot live
   *                    in this room: the command reads the configuration, opens the database and builds a booking,
   *                    all rooms above this one; and a class name in a string would be an arrow up the floors that
   *                    ArchitectureTest cannot see.
   * @param billsDir    reconcile.bills_dir, where the command keeps the bill and this its report
   */
  CloseProcess(Vertx vertx, Class<?> commandLine, DailyCloseSettings settings, Path billsDir) {
    this.vertx = vertx;
    this.commandLine = commandLine;
    this.settings = settings;
    this.billsDir = billsDir.toAbsolutePath();
  }

  /** What one run of the command came to: done with its summary, or why not (summary null). */
  record Tried(String detail, CloseSummary summary) {
    static Tried done(CloseSummary summary) {
      return new Tried(summary.line(), summary);
    }

    static Tried failed(String detail) {
      return new Tried(detail, null);
    }

    boolean done() {
      return summary != null;
    }
  }

  /** One run of the command: its process and where its output goes. */
  private record Run(Process process, Path report, Path errors) {}

  /**
   * Runs the command for the day; the files are touched on a worker. A run that cannot even start is a try that
   * failed, saying why.
   */
  Future<Tried> run(Platform platform, LocalDate day) {
    return vertx.executeBlocking(() -> start(platform, day), false).compose(run -> {
      running = run.process();
      AtomicBoolean late = new AtomicBoolean();
      long limit = vertx.setTimer(RUN_LIMIT.toMillis(), id -> {
        late.set(true);
        run.process().destroyForcibly();
      });
      return Future.fromCompletionStage(run.process().onExit(), vertx.getOrCreateContext())
          .compose(exited -> {
            vertx.cancelTimer(limit);
            running = null;
            return late.get() ? Future.succeededFuture(Tried.failed("reconcile did not finish within "
                + RUN_LIMIT.toMinutes() + " min: stopped"))
                : vertx.executeBlocking(() -> result(run, exited.exitValue()), false);
          });
    }).recover(err -> Future.succeededFuture(Tried.failed("not closed: " + err)));
  }

  /** The command running now, if any, is stopped (the service is stopping). */
  void stop() {
    Process p = running;
    if (p != null) {
      p.destroy();
    }
  }

  private Run start(Platform platform, LocalDate day) throws IOException {
    Path folder = Files.createDirectories(billsDir.resolve(platform.code()));
    Path report = ownersOnly(folder.resolve(day + "_close.json"));
    Path errors = ownersOnly(folder.resolve(day + "_close.log"));
    Process process = new ProcessBuilder(command(platform, day))
        .redirectOutput(report.toFile()).redirectError(errors.toFile()).start();
    return new Run(process, report, errors);
  }

  /** The file, new and readable by the service's user only (as the bills beside it): it names orders and trades. */
  private static Path ownersOnly(Path file) throws IOException {
    Files.deleteIfExists(file);
    return file.getFileSystem().supportedFileAttributeViews().contains("posix")
        ? Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))
        : Files.createFile(file);
  }

  private static Tried result(Run run, int exit) throws IOException {
    if (exit == 0 || exit == 1) { // clean, or findings (recorded)
      return Tried.done(CloseSummary.read(run.report()));
    }
    return Tried.failed(lastLine(run.errors(), exit));
  }

  /** {@code paynotify reconcile ...} on the JVM and class path this service runs on, with its configuration. */
  private List<String> command(Platform platform, LocalDate day) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(JAVA_OPTIONS);
    if (Boolean.getBoolean(OutboundHttp.TEST_LOOPBACK_HTTP)) { // the tests' stand-ins, reached by the command too
      command.add("-D" + OutboundHttp.TEST_LOOPBACK_HTTP + "=true");
    }
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), commandLine.getName(), "reconcile",
        "--channel", platform.code(), "--fetch", "--date", day.toString(), "--record", "--json"));
    if (settings.repair()) {
      command.addAll(List.of("--repair", "missing_local"));
    }
    command.addAll(List.of("--config", settings.configFile().toString()));
    return command;
  }

  /** The command's one-line reason (its last line on stderr: "paynotify: ..."), or its exit code. */
  private static String lastLine(Path errors, int exit) throws IOException {
    byte[] tail;
    try (SeekableByteChannel file = Files.newByteChannel(errors)) { // its end only: a crash may write much
      file.position(Math.max(0, file.size() - DETAIL_CHARS));
      ByteBuffer end = ByteBuffer.allocate((int) Math.min(file.size(), DETAIL_CHARS));
      while (end.hasRemaining() && file.read(end) >= 0) {
        // reads to the end
      }
      tail = Arrays.copyOf(end.array(), end.position());
    }
    String[] lines = new String(tail, StandardCharsets.UTF_8).strip().split("\n");
    String last = lines[lines.length - 1].strip().replaceFirst("^paynotify: ", "");
    return "reconcile exited " + exit + (last.isEmpty() ? "" : ": " + last);
  }
}
