/**
 * The command line: {@code serve} and the operator's tools ({@code status}, {@code reconcile}, {@code audit},
 * {@code repair}, {@code anomalies}, {@code forward}), with picocli. {@link paynotify.cli.Main} is the entry point;
 * each command reads the configuration, opens what it needs and exits with an {@link paynotify.cli.ExitCode}.
 * Nothing here is called by the rooms below: it is the top floor.
 */
package paynotify.cli;
