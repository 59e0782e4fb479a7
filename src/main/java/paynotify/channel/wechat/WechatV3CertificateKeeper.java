package paynotify.channel.wechat;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.channel.Ids;
import paynotify.channel.NotifyChannel;
import paynotify.crypto.CertificateShelf.Shelved;
import paynotify.crypto.CertificateShelf;
import paynotify.crypto.PublicKeys;
import paynotify.net.OutboundHttp;
import paynotify.timer.Periodic;

/**
 * Keeps WeChat Pay's platform certificates current (opt-in: wechat_v3.merchant_private_key_file given, and
 * wechat_v3.download_certificates not false): downloaded ({@link WechatV3Certificates}) at start and every hour, as
 * wechatpay-java's AutoCertificateService, and when a notification or an answer names a serial no key is known for
 * (a certificate WeChat rotated in); kept on a {@link CertificateShelf} every instance reads (the database), and put to use in
 * the channel's {@link WechatV3Signature} with the configured keys.
 *
 * <p>What it never does: call WeChat for each unknown serial. The shelf is read first (another instance may have the
 * certificate already), at most every {@link #SHELF_GAP}; a download for an unknown serial at most every
 * {@link #DOWNLOAD_GAP}, whatever the serials; the hourly one skipped when an instance downloaded within half the
 * period (the timer starts before the first download ends: a whole period would skip every other tick).
 * WeChat's 404 RESOURCE_NOT_EXISTS (the merchant has the WeChat Pay public key only) is said once and stops the
 * downloads for {@link #NOT_FOUND_PAUSE}.
 *
 * <p>Only what the latest download listed verifies, as wechatpay-java's AutoCertificateService replaces its
 * certificates with each download's: a certificate WeChat stopped listing (withdrawn) is left out though it is still
 * valid and still in the table ({@link #latestListing}). A notification met with an unknown serial is still answered failure: WeChat retries it,
 * and the retry verifies once the certificate is known.
 */
public final class WechatV3CertificateKeeper {
  /** As wechatpay-java's AutoCertificateService.UPDATE_INTERVAL_MINUTE. */
  static final Duration PERIOD = Duration.ofHours(1);
  /** At most one download a minute for unknown serials: a forged one must not make us call WeChat each time. */
  static final Duration DOWNLOAD_GAP = Duration.ofMinutes(1);
  /** At most one read of the shelf every 10 s for unknown serials: a flood of forged ones is not a flood of reads. */
  static final Duration SHELF_GAP = Duration.ofSeconds(10);
  /** After WeChat's 404: the merchant is on the public key, which does not change back; asked again a day later. */
  static final Duration NOT_FOUND_PAUSE = Duration.ofDays(1);
  /**
   * Rows kept this close to the newest were listed by the same download: its keeps are a few statements apart, and
   * one instance's downloads at least {@link #DOWNLOAD_GAP} apart.
   */
  static final Duration LISTED_TOGETHER = Duration.ofSeconds(30);
  /** A download's answer: a few certificates, about 2 KiB each. */
  private static final int MAX_ANSWER_BYTES = 64 * 1024;
  private static final Duration TIMEOUT = Duration.ofSeconds(10);
  private static final Logger LOG = LoggerFactory.getLogger(WechatV3CertificateKeeper.class);

  /** Why a refresh runs. */
  private enum Reason { START, HOURLY, UNKNOWN_SERIAL }

  private final Vertx vertx;
  private final OutboundHttp http;
  private final WechatV3Certificates certificates;
  private final WechatV3Signature signature;
  private final CertificateShelf shelf;
  private final Clock clock;
  private final Duration period;
  // Guarded by this: what runs, and when the gaps end.
  private Future<Void> inFlight = Future.succeededFuture();
  private Instant lastShelfRead = Instant.MIN;
  private Instant lastUnknownDownload = Instant.MIN;
  private Instant pausedUntil = Instant.MIN;
  private boolean stopped;
  private Periodic hourly;

  WechatV3CertificateKeeper(Vertx vertx, OutboundHttp http, WechatV3Certificates certificates,
      WechatV3Signature signature, CertificateShelf shelf, Clock clock, Duration period) {
    this.vertx = vertx;
    this.http = http;
    this.certificates = certificates;
    this.signature = signature;
    this.shelf = shelf;
    this.clock = clock;
    this.period = period;
  }

  /**
   * The keeper of the WeChat Pay v3 channel among {@code channels} whose certificates are to be downloaded, on an HTTP
   * client of its own; null when there is none (no v3 channel, no merchant key, or downloads turned off).
   */
  public static WechatV3CertificateKeeper of(Vertx vertx, List<NotifyChannel> channels, CertificateShelf shelf, Clock clock) {
    for (NotifyChannel channel : channels) {
      if (channel instanceof WechatV3Channel v3 && v3.certificateDownloads() != null) {
        WechatClients.V3 merchant = v3.certificateDownloads();
        OutboundHttp http = new OutboundHttp(vertx, TIMEOUT, MAX_ANSWER_BYTES);
        return new WechatV3CertificateKeeper(vertx, http,
            new WechatV3Certificates(merchant.client(http), clock),
            merchant.signature(), shelf, clock, PERIOD);
      }
    }
    return null;
  }

  /** Loads the kept certificates and downloads when due; then every hour; unknown serials listened to. */
  public synchronized void start() {
    signature.onUnknownSerial(this::unknownSerial);
    inFlight = refresh(Reason.START, null);
    hourly = Periodic.every(vertx, period, () -> {
      synchronized (this) {
        if (stopped) {
          return Future.succeededFuture();
        }
        inFlight = inFlight.transform(done -> refresh(Reason.HOURLY, null));
        return inFlight;
      }
    });
  }

  /** The refresh in flight, if any, over: what a test waits for. */
  public synchronized Future<Void> settled() {
    return inFlight;
  }

  /** No more refreshes; completes once the one in flight, if any, is over; then its HTTP client is closed. */
  public Future<Void> stop() {
    Future<Void> last;
    Periodic timer;
    synchronized (this) {
      stopped = true;
      signature.onUnknownSerial(serial -> { });
      last = inFlight;
      timer = hourly;
    }
    Future<Void> ticks = timer == null ? Future.succeededFuture() : timer.stop();
    return Future.join(ticks, last).<Void>mapEmpty().otherwiseEmpty().eventually(http::close);
  }

  /** From an event loop verifying a notification or an answer: a refresh when the gaps allow, else nothing. */
  private synchronized void unknownSerial(String serial) {
    Instant now = clock.instant();
    if (stopped || !inFlight.isComplete() || now.isBefore(lastShelfRead.plus(SHELF_GAP))) {
      return;
    }
    lastShelfRead = now;
    inFlight = refresh(Reason.UNKNOWN_SERIAL, serial);
  }

  private Future<Void> refresh(Reason reason, String serial) {
    return shelf.kept()
        .compose(kept -> {
          use(latestListing(kept));
          return download(reason, serial, kept) ? downloadAndKeep() : Future.succeededFuture();
        })
        .onFailure(err -> LOG.warn("{}; the certificates known are kept, tried again within the hour"
            + " (wechat_v3.download_certificates)", err.getMessage()))
        .otherwiseEmpty();
  }

  /** Whether to call WeChat now: the gaps, the pause, and what the shelf already holds. */
  private synchronized boolean download(Reason reason, String serial, List<Shelved> kept) {
    Instant now = clock.instant();
    if (stopped || now.isBefore(pausedUntil)) {
      return false;
    }
    if (reason == Reason.UNKNOWN_SERIAL) {
      if (signature.knows(serial) || !WechatV3Signature.isCertificateSerial(serial)
          || now.isBefore(lastUnknownDownload.plus(DOWNLOAD_GAP))) {
        return false; // another instance had it; a public key's id, no list has it; a download a moment ago did not
      }
      lastUnknownDownload = now;
      return true;
    }
    // else an instance listed them lately; half the period, as this one's own download may have ended just after the
    // timer started, and the database's clock may be a little ahead of ours
    return !now.isBefore(newest(kept).plus(period.dividedBy(2)));
  }

  /**
   * The certificates the latest download (any instance's) listed: the rows kept within {@link #LISTED_TOGETHER} of the
   * newest, as each download moves the fetched_at of every certificate it lists; the ones WeChat no longer lists are
   * left out.
   */
  private static Map<String, X509Certificate> latestListing(List<Shelved> kept) {
    Instant since = kept.isEmpty() ? Instant.MIN : newest(kept).minus(LISTED_TOGETHER);
    Map<String, X509Certificate> listed = new LinkedHashMap<>();
    kept.stream().filter(s -> !s.fetchedAt().isBefore(since)).forEach(s -> listed.put(s.serial(), s.certificate()));
    return listed;
  }

  private static Instant newest(List<Shelved> kept) {
    return kept.stream().map(Shelved::fetchedAt).max(Instant::compareTo).orElse(Instant.MIN);
  }

  private Future<Void> downloadAndKeep() {
    return certificates.download().compose(listed -> {
      if (listed.isEmpty()) {
        synchronized (this) {
          pausedUntil = clock.instant().plus(NOT_FOUND_PAUSE);
        }
        LOG.warn("{}: WeChat Pay has none for this merchant (HTTP 404: 无可用的平台证书): it signs with the WeChat Pay"
            + " public key. List the public key PUB_KEY_ID_... in wechat_v3.platform_keys (id and key_file: 商户平台"
            + " → 账户中心 → API安全 → 微信支付公钥), and set wechat_v3.download_certificates: false. Asked again in {}"
            + " hours", WechatV3Certificates.WHAT, NOT_FOUND_PAUSE.toHours());
        return Future.succeededFuture();
      }
      Future<Void> kept = Future.succeededFuture();
      for (Map.Entry<String, X509Certificate> c : listed.entrySet()) {
        kept = kept.compose(v -> shelf.keep(c.getKey(), List.of(c.getValue())));
      }
      return kept.map(v -> {
        use(listed); // exactly what WeChat lists now
        LOG.info("{}: {} listed by WeChat Pay, {} in use", WechatV3Certificates.WHAT,
            listed.keySet().stream().map(Ids::printable).collect(Collectors.joining(", ")),
            signature.downloaded().size());
        return null;
      });
    });
  }

  /** Of {@code listed} (by serial), the ones valid now verify from now on, beside the configured keys. */
  private void use(Map<String, X509Certificate> listed) {
    // expired ones stay in the table for the record; not-yet-valid ones are taken up once they are
    Instant now = clock.instant();
    Map<String, X509Certificate> valid = new LinkedHashMap<>();
    listed.forEach((serial, certificate) -> {
      if (PublicKeys.validAt(certificate, now)) {
        valid.put(serial, certificate);
      }
    });
    signature.useDownloaded(valid);
  }
}
