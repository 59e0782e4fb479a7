package paynotify.channel.epay;

import java.net.URI;
import java.util.function.Function;
import paynotify.channel.Outbound;
import paynotify.channel.Platform;
import paynotify.channel.TradeQuery;
import paynotify.net.OutboundHttp;

/**
 * Builds an epay-style aggregator's outbound side: its order query ({@link EpayGateway}), asked with the pid and
 * key the channel has. Opt-in by the aggregator's address: without it, nothing is asked. No bill is read.
 *
 * @param gateway the aggregator's base URL; null when not given
 * @param books   whether its unsigned "paid" is booked without a human
 */
public record EpayClients(URI gateway, String pid, String key, boolean books) implements Outbound {
  @Override
  public Platform platform() {
    return Platform.EPAY;
  }

  @Override
  public Function<OutboundHttp, TradeQuery> query() {
    return gateway == null ? null : http -> new EpayGateway(http, gateway, pid, key, books);
  }
}
