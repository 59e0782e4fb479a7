package paynotify.channel;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.function.Function;
import paynotify.net.OutboundHttp;

/**
 * What one platform can be asked, going out: its order query and its bill download, built by the platform's
 * factory ({@code <platform>/*Clients}) from its settings. Each piece is made on the HTTP client of whoever asks
 * (the service's, a command's); each is null where the platform cannot do it, or must not be asked: a piece that
 * needs a key that can move money exists only when that key was given, one that needs an API key at all only when it
 * was given (the opt-in).
 */
public interface Outbound {
  /** Whose pieces they are. */
  Platform platform();

  /** Is this order paid? close it: null when the platform is not asked about orders. */
  default Function<OutboundHttp, TradeQuery> query() {
    return null;
  }

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

  /** Its events whose webhook was not delivered (recovery walks them): null when they are not asked for. */
  default Function<OutboundHttp, Undelivered> undelivered() {
    return null;
  }

  /**
   * A platform's list of its events whose delivery to this service has not succeeded, newest first, asked by a window
   * of their times (Unix seconds) and a cursor; each event is read by the platform's channel as its webhook would have
   * been, without the signature: the API's TLS and the account's own key vouch for it. A platform that cannot say
   * which were delivered lists all its payments (Lemon Squeezy's orders), each read as one its webhook may have
   * missed: the booking tells which were.
   */
  interface Undelivered {
    Platform platform();

    /** The list's name, in notify_log and the logs: "stripe events", "paddle events". */
    default String source() {
      return platform().code() + " events";
    }

    /**
     * How long after it is made an event is not read yet, left to its webhook and to the list to settle: a minute; a
     * platform that lists every payment, delivered or not, waits out its webhook's retries.
     */
    default long settleSeconds() {
      return 60;
    }

    /** The events made in [{@code from}, {@code before}), newest first, after {@code after} (null: from the newest). */
    Future<Page> page(long from, long before, String after);

    /** An event of a page, as the channel reads a genuine webhook: what it throws is what it made of it. */
    NotifyEvent read(JsonObject event) throws RejectedNotification;
  }

  /** One page, oldest last; {@code after}: the cursor to the next (null on an empty page). */
  record Page(List<Missed> events, boolean hasMore, String after) {}

  /**
   * An undelivered event: {@code id} its platform's event id (one event however many times it was listed),
   * {@code type} for people, {@code created} when it was made (null: not said), {@code event} what the channel reads.
   */
  record Missed(String id, String type, Long created, JsonObject event) {}
}
