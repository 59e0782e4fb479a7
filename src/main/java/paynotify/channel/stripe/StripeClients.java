package paynotify.channel.stripe;

import java.net.URI;
import java.util.function.Function;
import paynotify.channel.Outbound;
import paynotify.channel.Platform;
import paynotify.net.OutboundHttp;

/**
 * Builds Stripe's outbound side: its list of undelivered events ({@link StripeEvents}), read as their webhooks by
 * the channel. Opt-in by a restricted key that can only read: without it, Stripe is not asked. No order query (a
 * missed payment comes back as its event) and no bill.
 *
 * @param api           {@code https://api.stripe.com}, or a stand-in's
 * @param restrictedKey an rk_... key with only Events: Read; null when not given
 */
public record StripeClients(URI api, String restrictedKey, StripeChannel channel) implements Outbound {
  @Override
  public Platform platform() {
    return Platform.STRIPE;
  }

  /** The undelivered events: null when the key is not given. */
  @Override
  public Function<OutboundHttp, Undelivered> undelivered() {
    return restrictedKey == null ? null : http -> new StripeEvents(http, api, restrictedKey, channel);
  }
}
