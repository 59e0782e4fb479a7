package paynotify.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The command-line entry of the jar: {@code serve}, and the tools: reconcile, audit, repair, anomalies, forward, status. */
@Command(name = "paynotify", mixinStandardHelpOptions = true, version = "paynotify 0.1",
    description = "Receives payment notifications and books each payment exactly once.",
    subcommands = {ServeCommand.class, ReconcileCommand.class, AuditCommand.class, RepairCommand.class,
        AnomaliesCommand.class, ForwardCommand.class, StatusCommand.class, CheckCommand.class})
public final class Main {
  public static void main(String[] args) {
    System.exit(new CommandLine(new Main()).execute(args));
  }
}
