package paynotify.booking;

/** An outcome and the one-line reason an operator reads in notify_log and the log. */
public record BookingResult(Outcome outcome, String detail) {}
