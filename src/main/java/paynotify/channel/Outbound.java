package paynotify.channel;

import java.util.function.Function;
import paynotify.net.OutboundHttp;

/**
 * What one platform can be asked, going out: its order query and its bill download, built by the platform's
 * factory ({@code <platform>/*Clients}) from its settings. Each piece is made on the HTTP client of whoever asks
 * (the service's, a command's); each is null where the platform cannot do it, or must not be asked: a piece that
 * needs a key that can move money exists only when that key was given.
 */
public interface Outbound {
  /** Whose pieces they are. */
  Platform platform();

  /** Is this order paid? close it: null when the platform is not asked. */
  Function<OutboundHttp, TradeQuery> query();

  /**
   * Whether {@link #query()} exists because the owner gave a setting for asking alone (a key that can move money,
   * the aggregator's address): that setting is the owner's yes, and the platform is asked on its own. False where it
   * needs only what the notification channel already holds (WeChat Pay v2's API key): then it is asked once asking is
   * switched on, or another platform was opted in, and a bill's row is confirmed with it in any case.
   */
  default boolean optedIn() {
    return true;
  }

  /** The day's bill: null when it cannot be fetched. */
  default Function<OutboundHttp, BillSource> bills() {
    return null;
  }
}
