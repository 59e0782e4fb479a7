package paynotify.testsupport;

import io.vertx.core.Future;
import paynotify.channel.NotifyChannel;
import paynotify.channel.NotifyEvent;
import paynotify.channel.NotifyRequest;
import paynotify.channel.RejectedNotification;

/** A synchronous channel's {@link NotifyChannel#check} as a call: its event, or what its future failed with, thrown. */
public final class SyncCheck {
  private SyncCheck() {}

  public static NotifyEvent event(NotifyChannel channel, NotifyRequest request) throws RejectedNotification {
    Future<NotifyEvent> checked = channel.check(request);
    if (!checked.isComplete()) {
      throw new AssertionError(channel.endpoint() + " did not decide at once: not a synchronous channel");
    }
    if (checked.succeeded()) {
      return checked.result();
    }
    if (checked.cause() instanceof RejectedNotification rejected) {
      throw rejected;
    }
    if (checked.cause() instanceof RuntimeException e) {
      throw e;
    }
    throw new AssertionError(checked.cause());
  }
}
