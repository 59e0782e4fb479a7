package paynotify.channel.paddle;

import java.net.URI;
import java.util.List;
import java.util.function.Function;
import paynotify.channel.Outbound;
import paynotify.channel.Platform;
import paynotify.net.OutboundHttp;

/**
 * Builds Paddle's outbound side: the notifications to this service's destination that were not delivered
 * ({@link PaddleEvents}), read as their webhooks by the channel. Opt-in by an API key with only Notifications: read:
 * without it, Paddle is not asked. No order query (a missed payment comes back as its notification) and no bill.
 *
 * @param api         {@code https://api.paddle.com}, {@code https://sandbox-api.paddle.com}, or a stand-in's
 * @param apiKey      the key; null when not given
 * @param destination the notification destination's id ({@code ntfset_...}); null when the key is not given
 */
public record PaddleClients(URI api, String apiKey, String destination, PaddleChannel channel) implements Outbound {
  /** Paddle's API hosts, live (the default) and sandbox (another account): a key is sent to no other. */
  public static final List<String> HOSTS = List.of("api.paddle.com", "sandbox-api.paddle.com");

  @Override
  public Platform platform() {
    return Platform.PADDLE;
  }

  /** The undelivered notifications: null when the key is not given. */
  @Override
  public Function<OutboundHttp, Undelivered> undelivered() {
    return apiKey == null ? null : http -> new PaddleEvents(http, api, apiKey, destination, channel);
  }
}
