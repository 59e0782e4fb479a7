package paynotify.channel.tokenpay;

import java.net.URI;
import java.util.function.Function;
import paynotify.channel.Outbound;
import paynotify.channel.Platform;
import paynotify.channel.TradeQuery;
import paynotify.net.OutboundHttp;

/**
 * Builds TokenPay's outbound side: its order query ({@link TokenPayQuery}), asked with the ApiToken the channel has.
 * Opt-in by the TokenPay server's address: without it, nothing is asked. No bill is read.
 *
 * @param apiBase the TokenPay server's URL (tokenpay.api_base); null when not given
 */
public record TokenPayClients(URI apiBase, String apiToken) implements Outbound {
  @Override
  public Platform platform() {
    return Platform.TOKENPAY;
  }

  @Override
  public Function<OutboundHttp, TradeQuery> query() {
    return apiBase == null ? null : http -> new TokenPayQuery(http, apiBase, apiToken);
  }
}
