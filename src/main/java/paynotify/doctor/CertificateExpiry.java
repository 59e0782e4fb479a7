package paynotify.doctor;

import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import paynotify.crypto.Expiry;
import paynotify.crypto.PublicKeys;

/** A configured certificate expired, or expiring within 30 days: a finding before the platform refuses it. */
final class CertificateExpiry {
  private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")
      .withZone(ZoneOffset.UTC);

  private CertificateExpiry() {}

  /**
   * @param where the key that names the certificate
   * @param renew where the current certificate is found
   */
  static void check(X509Certificate cert, String where, String renew, Clock clock, Checkup checkup) {
    Instant notAfter = cert.getNotAfter().toInstant();
    Instant now = clock.instant();
    String serial = PublicKeys.serial(cert);
    Expiry expiry = Expiry.of(cert, now);
    if (expiry == Expiry.EXPIRED) {
      checkup.found(where, "the certificate (serial " + serial + ") expired on " + DAY.format(notAfter), renew);
    } else if (expiry == Expiry.EXPIRING) {
      checkup.found(where, "the certificate (serial " + serial + ") expires on " + DAY.format(notAfter) + ", in "
          + Duration.between(now, notAfter).toDays() + " days", renew);
    } else {
      checkup.checked(where + ": certificate valid until " + DAY.format(notAfter));
    }
  }
}
