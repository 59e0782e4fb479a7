package paynotify.http;

/**
 * Whether notifications may be booked: not before the database has answered and its schema is
 * migrated. The HTTP listener starts before that, so that /health and the platforms get a 503
 * (and retry) instead of a refused connection while the database comes up.
 */
public final class Readiness {
  private volatile boolean ready;

  public void markReady() {
    ready = true;
  }

  public boolean isReady() {
    return ready;
  }
}
