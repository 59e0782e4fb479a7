package paynotify.cli;

/** The commands' exit codes, one per kind of outcome, so that cron (and a test) can tell them apart. */
public final class ExitCode {
  /** Something was found (reconcile, audit, status), or a repair did not apply. */
  public static final int FOUND = 1;
  /** Unusable input or configuration: the message says what and where. */
  public static final int UNUSABLE = 2;
  /** The database failed while the command ran. */
  public static final int DATABASE = 3;
  /**
   * Asked too early: the platform has not made the day's bill yet (reconcile --fetch before about 10:00 the next
   * day). Not 3, which cron already reads as a database failure.
   */
  public static final int NOT_READY = 4;
  /** A failure nobody foresaw (a bug): the exception is on stderr. EX_SOFTWARE, as sysexits.h numbers it. */
  public static final int CRASHED = 70;

  private ExitCode() {}
}
