package paynotify.alert.watch;

import io.vertx.core.Future;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.alert.AlertMessages;
import paynotify.alert.Alerts;
import paynotify.alert.SelfProbe;

/**
 * The public notify address ({@link SelfProbe}), hourly (the first look at once): told when it fails, and when it
 * works again. The look does not wait for it.
 */
final class ProbeWatch implements Watch {
  private static final Logger LOG = LoggerFactory.getLogger(ProbeWatch.class);
  private static final Duration PROBE_EVERY = Duration.ofHours(1);

  private final SelfProbe probe;
  private final URI url;
  private final Alerts alerts;
  private final AlertMessages messages;
  private Instant probedAt;
  private boolean failing;

  ProbeWatch(SelfProbe probe, URI url, Alerts alerts, AlertMessages messages) {
    this.probe = probe;
    this.url = url;
    this.alerts = alerts;
    this.messages = messages;
  }

  @Override
  public Future<Void> look(Instant now) {
    if (probedAt != null && now.isBefore(probedAt.plus(PROBE_EVERY))) {
      return Future.succeededFuture();
    }
    probedAt = now;
    probe.probe(url).onComplete(probed -> {
      if (probed.failed() && !failing) {
        LOG.warn("alerts: the probe of {} failed: {}", url, probed.cause().getMessage());
        alerts.raise(messages.probeFailed(probed.cause().getMessage()));
      } else if (probed.succeeded() && failing) {
        alerts.raise(messages.probeBack());
      }
      failing = probed.failed();
    });
    return Future.succeededFuture();
  }
}
