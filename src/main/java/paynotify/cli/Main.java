package paynotify.cli;

import paynotify.server.ConsoleLogging;
import picocli.CommandLine.Command;
import picocli.CommandLine;

/**
 * The command-line entry of the jar: {@code serve}, and the tools: reconcile, audit, repair, anomalies, forward,
 * status, check, alerts, probe, doctor.
 */
@Command(name = "paynotify", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
    description = "Receives payment notifications and books each payment exactly once.",
    subcommands = {ServeCommand.class, ReconcileCommand.class, AuditCommand.class, RepairCommand.class,
        AnomaliesCommand.class, ForwardCommand.class, StatusCommand.class, CheckCommand.class,
        AlertsCommand.class, AlertsCommand.Probe.class, DoctorCommand.class})
public final class Main {
  /** The version of the jar's manifest (Implementation-Version, the pom's), as /status shows it; "dev" from classes. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String version = Main.class.getPackage().getImplementationVersion();
      return new String[] {"paynotify " + (version == null ? "dev" : version)};
    }
  }

  public static void main(String[] args) {
    if (args.length == 0 || !args[0].equals("serve")) { // before anything logs: a command's output is its own
      System.setProperty(ConsoleLogging.TO_STDERR, "true");
    }
    System.exit(commandLine().execute(args));
  }

  /**
   * The commands, a failure nobody foresaw exiting {@link ExitCode#CRASHED} with the exception on stderr, never
   * picocli's 1, which reads as "findings" (the daily close would take such a run as a clean close).
   */
  public static CommandLine commandLine() {
    return new CommandLine(new Main()).setExecutionExceptionHandler((e, command, parsed) -> {
      command.getErr().println("paynotify: failed: " + e);
      e.printStackTrace(command.getErr());
      command.getErr().flush();
      return ExitCode.CRASHED;
    });
  }
}
