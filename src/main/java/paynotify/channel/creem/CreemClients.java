package paynotify.channel.creem;

import java.net.URI;
import java.util.List;
import java.util.function.Function;
import paynotify.channel.Outbound;
import paynotify.channel.Platform;
import paynotify.channel.TradeQuery;
import paynotify.net.OutboundHttp;

/**
 * Builds Creem's outbound side: its checkout query ({@link CreemQuery}), whose paid checkouts the channel reads as
 * their webhooks. Opt-in by the account's API key: Creem has no key that can only read, so the one given can do
 * whatever Creem's API does; without it, Creem is not asked. No bill, no close.
 *
 * @param api    {@code https://api.creem.io}, {@code https://test-api.creem.io}, or a stand-in's
 * @param apiKey the key; null when not given
 */
public record CreemClients(URI api, String apiKey, CreemChannel channel) implements Outbound {
  /** Creem's API hosts, live (the default) and Test Mode (another environment, own keys): its key goes only here. */
  public static final List<String> HOSTS = List.of("api.creem.io", "test-api.creem.io");

  @Override
  public Platform platform() {
    return Platform.CREEM;
  }

  /** The checkout query: null when the key is not given. */
  @Override
  public Function<OutboundHttp, TradeQuery> query() {
    return apiKey == null ? null : http -> new CreemQuery(http, api, apiKey, channel);
  }
}
