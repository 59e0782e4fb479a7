package paynotify.crypto;

import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;

/**
 * Where a certificate stands as the owner is told of it, by the alert watch and by {@code paynotify doctor} alike:
 * expired, expiring within {@link #WARNING}, or fine.
 */
public enum Expiry {
  EXPIRED, EXPIRING, FINE;

  /** The platforms' certificates are renewed by hand: a month to do it in. */
  public static final Duration WARNING = Duration.ofDays(30);

  /** {@code certificate}'s stage at {@code now}. */
  public static Expiry of(X509Certificate certificate, Instant now) {
    Instant notAfter = certificate.getNotAfter().toInstant();
    return !notAfter.isAfter(now) ? EXPIRED : notAfter.isBefore(now.plus(WARNING)) ? EXPIRING : FINE;
  }
}
