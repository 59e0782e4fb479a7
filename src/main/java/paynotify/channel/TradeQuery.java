package paynotify.channel;

import io.vertx.core.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import paynotify.net.OutboundFailure;

/**
 * A platform asked about one of the site's orders by its out_trade_no: is it paid? And, where the
 * platform can, told to close it so that no late payment lands on it. One implementation per platform;
 * none touches the database: what is booked is the caller's to decide, through the same booking as a
 * notification ({@link TradeAnswer#payment()} is the event its notification would have carried).
 *
 * <p>Every future fails with {@link OutboundFailure}: the platform unreachable or slow, an answer that does
 * not verify, or a refusal that needs the owner (a wrong app id, a key the platform does not know).
 */
public interface TradeQuery {
  /** Whose trades it asks about (both WeChat Pay APIs: {@link Platform#WECHAT}). */
  Platform platform();

  /** What this client is, for logs and the status page, e.g. {@code alipay.trade.query}. */
  String name();

  /** What the platform says of the trade of {@code outTradeNo}, its answer verified. */
  Future<TradeAnswer> query(String outTradeNo);

  /**
   * What the platform says of its own {@code id} (a trade, a checkout), made for the order it knows as
   * {@code outTradeNo}: the question of a confirmation, which knows the trade from a signed notification, or of an
   * order whose platform_ref the site filled. Asked by the order's number but where the platform can be asked by its
   * own id only ({@link ById}); an answer about another order than {@code outTradeNo} fails (untrusted).
   */
  default Future<TradeAnswer> query(String outTradeNo, String id) {
    return query(outTradeNo);
  }

  /**
   * Closes the unpaid trade of {@code outTradeNo} at the platform, so that it can no longer be paid.
   * Succeeds once the platform confirms it closed, or says there is no such trade to pay (nothing can
   * land on it either); fails otherwise (paid in the meantime: query again).
   */
  Future<Void> close(String outTradeNo);

  /**
   * Whether a paid answer is booked without a human: false where the answer is not signed (epay), so that
   * whoever can answer in the platform's place cannot mark orders paid; it is then an anomaly to look at.
   */
  default boolean books() {
    return true;
  }

  /** Whether the platform has an API to close a trade ({@link #close}); where not, expired orders are left as they are. */
  default boolean closes() {
    return true;
  }

  /**
   * A platform asked by its own id only (TokenPay's order Id, Creem's checkout, Lemon Squeezy's order), about the
   * trades whose notifications wait for it and the id the site keeps in orders.columns.platform_ref, never by the
   * site's number ({@link #query(String)} fails); none has an API to close a trade.
   */
  interface ById extends TradeQuery {
    /** How this platform writes the ids it is asked by (a TokenPay GUID, a Creem {@code ch_...}). */
    Pattern ids();

    /** {@link #ids()} in words, for the refusal of another id: "a TokenPay Id (a lower-case GUID)". */
    String idShape();

    /** {@link #query(String, String)} of an id written as {@link #ids()} says. */
    Future<TradeAnswer> ask(String outTradeNo, Matcher id);

    /**
     * Whether {@code id} is written as this platform writes its ids: another's (a site without a channel column keeps
     * several platforms' ids in one platform_ref) is no question for it.
     */
    default boolean isOwnId(String id) {
      return id != null && ids().matcher(id).matches();
    }

    @Override
    default Future<TradeAnswer> query(String outTradeNo, String id) {
      Matcher own = id == null ? null : ids().matcher(id);
      return own != null && own.matches() ? ask(outTradeNo, own) : Future.failedFuture(OutboundFailure.untrusted(
          name() + ": '" + Ids.printable(id) + "' is not " + idShape()));
    }

    @Override
    default Future<TradeAnswer> query(String outTradeNo) {
      return Future.failedFuture(OutboundFailure.refused(name() + " is asked by " + platform().code()
          + "'s own id only (orders.columns.platform_ref), not by an order number"));
    }

    @Override
    default boolean closes() {
      return false;
    }

    @Override
    default Future<Void> close(String outTradeNo) {
      return Future.failedFuture(OutboundFailure.refused(platform().code() + " has no API to close a trade"));
    }
  }
}
