package paynotify.testsupport;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;

/** A clock that says what the test sets: times moved at will, without waiting. */
public final class SettableClock extends Clock {
  private final ZoneId zone;
  private volatile Instant now;

  public SettableClock(Instant now, ZoneId zone) {
    this.now = now;
    this.zone = zone;
  }

  public void set(Instant instant) {
    now = instant;
  }

  @Override
  public Instant instant() {
    return now;
  }

  @Override
  public ZoneId getZone() {
    return zone;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }
}
