/**
 * What the commands' options are read with: the {@code --channel}, {@code --bill}, {@code --date} mixin of the
 * commands that read a platform's bill (BillOptions), and a path typed by the operator (CallerPath, for
 * {@code --config} and {@code --bill}). Below the commands, which it knows nothing of.
 */
package paynotify.cli.options;
