package paynotify.app;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The command-line entry of the jar: {@code paynotify serve}, and later the repair tools. */
@Command(name = "paynotify", mixinStandardHelpOptions = true, version = "paynotify 0.1",
    description = "Receives payment notifications and books each payment exactly once.",
    subcommands = {ServeCommand.class})
public final class Main {
  public static void main(String[] args) {
    System.exit(new CommandLine(new Main()).execute(args));
  }
}
