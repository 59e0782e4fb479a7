package paynotify.store;

/**
 * The isolation level a pool's sessions are pinned to ({@link Database#sessionSetup}), never the
 * server's default: which one a pool needs is a decision about its races.
 */
public enum Isolation {
  /**
   * The booking's, the level its races were first proved at (see {@link Database#sessionSetup}). The
   * logs' and the status report's too (one snapshot).
   */
  REPEATABLE_READ("REPEATABLE READ"),
  /** The forward relay's: its claims take no gap locks where bookings insert their events. */
  READ_COMMITTED("READ COMMITTED");

  private final String sql;

  Isolation(String sql) {
    this.sql = sql;
  }

  /** As {@code SET SESSION TRANSACTION ISOLATION LEVEL} takes it. */
  public String sql() {
    return sql;
  }
}
