package paynotify.cli;

import picocli.CommandLine.Command;

/** repair: idempotent fixes for what reconciliation found. */
@Command(name = "repair", mixinStandardHelpOptions = true, subcommands = RepairBookCommand.class,
    description = "Idempotent repairs: each says what it would do, and does it only with --apply.")
final class RepairCommand extends ParentCommand {
}
