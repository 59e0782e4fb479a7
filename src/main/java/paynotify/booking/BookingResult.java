package paynotify.booking;

/** An outcome and the one-line reason an operator reads in notify_log and the log. */
public record BookingResult(Outcome outcome, String detail) {

  /** This result followed by a further step of the same booking: an anomaly in either is an anomaly. */
  BookingResult then(BookingResult next) {
    Outcome combined = outcome == Outcome.ANOMALY || next.outcome == Outcome.ANOMALY ? Outcome.ANOMALY : outcome;
    return new BookingResult(combined, detail + "; " + next.detail);
  }
}
