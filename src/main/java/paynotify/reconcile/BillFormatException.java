package paynotify.reconcile;

/** A bill that cannot be used: says what is wrong and where (file, line, column). */
public final class BillFormatException extends Exception {
  public BillFormatException(String file, long line, String column, String problem) {
    super(file + (line > 0 ? ":" + line : "") + (column == null ? "" : " (" + column + ")") + ": " + problem, null,
        false, false);
  }
}
