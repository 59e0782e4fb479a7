package paynotify.doctor;

import io.vertx.core.Vertx;
import java.net.URI;
import java.time.Duration;
import paynotify.alert.SelfProbe;
import paynotify.net.OutboundHttp;

/**
 * The public notify address ({@code alerts.probe_url}) probed as the alert watch probes it (alert/SelfProbe):
 * through DNS, TLS, the CDN and nginx to this installation's running service.
 */
public final class NotifyUrl {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final int ANSWER_BYTES = 4096;

  private NotifyUrl() {}

  /** @param url alerts.probe_url; null when not set (then not checked, and said so) */
  public static void check(Vertx vertx, URI url, Checkup checkup) {
    if (url == null) {
      checkup.skipped("the public notify URL: alerts.probe_url is not set (set it to https://<your site>"
          + SelfProbe.PATH + " to have it probed here and hourly)");
      return;
    }
    OutboundHttp http = new OutboundHttp(vertx, WAIT, ANSWER_BYTES);
    try {
      new SelfProbe(http).probe(url).await();
      checkup.checked("alerts.probe_url: " + url + " reaches paynotify");
    } catch (IllegalStateException e) {
      checkup.found("alerts.probe_url", e.getMessage(), "the platforms cannot call back through it either: make that"
          + " address reach the running service (DNS, the TLS certificate, the CDN, nginx's location /notify/):"
          + " docs/integration.md, section 3");
    } finally {
      http.close().await();
    }
  }
}
