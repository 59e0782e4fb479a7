package paynotify.testsupport;

import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.time.LocalDateTime;

/**
 * A payment platform's order API played by a real local HTTP server: it checks each request's signature
 * as the platform does (a request it cannot verify is answered as the platform answers one), keeps the
 * trades a test sets, and signs its answers with the platform's test keys. Each implementation is proved
 * right by the platform's official SDK (its client pointed here accepts the answers, and the stand-in
 * accepts the SDK's requests).
 */
public interface PlatformStandIn extends AutoCloseable {
  /** How the next answers go wrong, if at all. */
  enum Mode {
    /** As the platform answers. */
    NORMAL,
    /** Answers signed with another key than the platform's (or, where unsigned, tampered). */
    BAD_SIGNATURE,
    /** 503 with no usable body, as a platform in trouble or a proxy before it. */
    DOWN,
    /** No answer for 30 s: the client's time limit must cut it. */
    SLOW
  }

  /** The base URL the service is configured with (the platform's gateway_url). */
  URI url();

  /**
   * The configuration keys that point the service at this stand-in and give it the keys it needs (merchant
   * key files written with mode 600), merged into {@code config} (the service's whole configuration).
   */
  JsonObject configure(JsonObject config);

  /**
   * The trade of {@code outTradeNo} is paid: trade {@code tradeNo}, {@code amount} as the platform writes it,
   * paid now (the platform's clock, Beijing time; {@link #paidAt} says another time).
   */
  void paid(String outTradeNo, String tradeNo, String amount);

  /** The paid trade of {@code outTradeNo} was paid at {@code beijingTime}, as the platform's answers say. */
  void paidAt(String outTradeNo, LocalDateTime beijingTime);

  /**
   * The paid trade of {@code outTradeNo} was refunded at the platform (in its merchant console: no refund
   * notification), as its order query then words it: WeChat's REFUND, Alipay's TRADE_CLOSED after a full
   * refund (its payment time kept), epay's status 2.
   */
  void refunded(String outTradeNo);

  /** The trade exists and waits for the buyer (WAIT_BUYER_PAY / NOTPAY). */
  void waiting(String outTradeNo);

  /** The trade was closed (TRADE_CLOSED / CLOSED). */
  void closed(String outTradeNo);

  /** What the trade of {@code outTradeNo} is now, as the platform would word it; null when there is none. */
  String state(String outTradeNo);

  /** Queries received for {@code outTradeNo} that verified. */
  int queries(String outTradeNo);

  /** Close requests received for {@code outTradeNo} that verified (each closes a waiting trade). */
  int closes(String outTradeNo);

  /** Requests refused because their signature did not verify. */
  int refusedRequests();

  void mode(Mode mode);

  @Override
  void close();
}
