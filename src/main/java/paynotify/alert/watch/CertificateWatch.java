package paynotify.alert.watch;

import io.vertx.core.Future;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import paynotify.alert.AlertMessages;
import paynotify.alert.Alerts;
import paynotify.channel.Platform;
import paynotify.crypto.Expiry;
import paynotify.crypto.PublicKeys;
import paynotify.store.Database;
import paynotify.store.PlatformCertificates.Kept;
import paynotify.store.PlatformCertificates.Source;
import paynotify.store.PlatformCertificates;

/**
 * Certificates about to break, hourly (the first look at once): each configured one expiring within 30 days, told
 * once, and again once it has expired; the platform certificates the service downloads from WeChat Pay only when the
 * newest of them expires within 30 days (WeChat issues the next one well before, so that means none is coming); and
 * a certificate Alipay re-issued (platform_certificates, source reissued) while alipay.alipay_cert_file still holds
 * another, told once per certificate. A configured platform certificate expiring while the service holds a
 * downloaded one valid beyond the 30 days is not news: notifications verify with that one.
 */
final class CertificateWatch implements Watch {
  private static final Duration CHECK_EVERY = Duration.ofHours(1);
  /** Where the certificates the service downloaded from WeChat Pay are kept, as the alert names them. */
  static final String DOWNLOADED = "platform_certificates (wechat)";

  /** How far a certificate is in breaking. */

  private final PlatformCertificates kept;
  private final Alerts alerts;
  private final AlertMessages messages;
  private final WatchedKeys keys;
  /** By where and serial: the stage told; a certificate out of its 30 days again leaves (its episode is over). */
  private final Map<String, Expiry> told = new HashMap<>();
  private final Set<String> reissuedTold = new HashSet<>();
  private Instant checkedAt;

  CertificateWatch(Database db, Alerts alerts, AlertMessages messages, WatchedKeys keys) {
    this.kept = new PlatformCertificates(db);
    this.alerts = alerts;
    this.messages = messages;
    this.keys = keys;
  }

  @Override
  public Future<Void> look(Instant now) {
    if (checkedAt != null && now.isBefore(checkedAt.plus(CHECK_EVERY))) {
      return Future.succeededFuture();
    }
    return kept.kept(Platform.WECHAT).compose(wechat -> kept.kept(Platform.ALIPAY).map(alipay -> {
      checkedAt = now;
      expiry(now, wechat);
      reissued(alipay);
      return null;
    }));
  }

  private void expiry(Instant now, List<Kept> wechat) {
    X509Certificate newest = wechat.stream().filter(k -> k.source() == Source.DOWNLOADED).map(Kept::certificate)
        .findFirst().orElse(null); // the one valid longest first
    boolean newerHeld = newest != null && Expiry.of(newest, now) == Expiry.FINE;
    List<WatchedKeys.Configured> watched = new ArrayList<>();
    for (WatchedKeys.Configured c : keys.certificates()) {
      if (!(newerHeld && c.where().startsWith("wechat_v3.platform_keys"))) {
        watched.add(c);
      }
    }
    if (newest != null) {
      watched.add(new WatchedKeys.Configured(DOWNLOADED, newest));
    }
    List<AlertMessages.Expiring> news = new ArrayList<>();
    for (WatchedKeys.Configured c : watched) {
      Instant notAfter = c.certificate().getNotAfter().toInstant();
      String serial = PublicKeys.serial(c.certificate());
      String episode = c.where() + " " + serial;
      Expiry stage = Expiry.of(c.certificate(), now);
      if (stage == Expiry.FINE) {
        told.remove(episode);
      } else if (told.get(episode) != stage && told.get(episode) != Expiry.EXPIRED) {
        told.put(episode, stage);
        news.add(new AlertMessages.Expiring(c.where(), serial, notAfter));
      }
    }
    if (!news.isEmpty()) {
      alerts.raise(messages.certificatesExpiring(news, now));
    }
  }

  /** Alipay's re-issued certificates the configured file is older than: the owner is to replace the file. */
  private void reissued(List<Kept> alipay) {
    X509Certificate configured = keys.configured(WatchedKeys.ALIPAY_CERT);
    for (Kept k : alipay) {
      boolean news = k.source() == Source.REISSUED && (configured == null || !configured.equals(k.certificate())
          && k.certificate().getNotAfter().after(configured.getNotAfter()));
      if (news && reissuedTold.add(k.serial())) {
        alerts.raise(messages.alipayCertificateReissued(k.serial(), k.certificate().getNotAfter().toInstant()));
      }
    }
  }
}
