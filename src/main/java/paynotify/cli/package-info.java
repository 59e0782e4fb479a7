/**
 * The command line: {@code serve} and the operator's tools ({@code status}, {@code check}, {@code reconcile},
 * {@code audit}, {@code repair}, {@code anomalies}, {@code forward}, {@code alerts}, {@code probe}, {@code doctor}), with
 * picocli; the options several commands share are in cli/options, doctor's checks in paynotify.doctor.
 * {@link paynotify.cli.Main} is the entry point; each command reads the configuration, opens what it needs and
 * exits with an {@link paynotify.cli.ExitCode}. It is the top floor: nothing below uses it, nor names one of its
 * classes in a string (ArchitectureTest checks both).
 */
package paynotify.cli;
