package paynotify.channel;

/**
 * The payment platforms, by the code stored with their bookings (payments.channel,
 * refunds.channel, anomalies.channel). Not an endpoint: WeChat Pay has two ({@code wechat_v2},
 * {@code wechat_v3}, see {@link NotifyChannel#endpoint()}) and one platform, because API v2 and v3
 * share one trade id space.
 */
public enum Platform {
  /** trade_no: String(64), Alipay's async notification (opendocs.alipay.com, 异步通知参数); 28 in practice. */
  ALIPAY("alipay", 64),
  /**
   * transaction_id: String(32) in API v2 (pay.weixin.qq.com/wiki/doc/api/jsapi.php?chapter=9_7) and
   * string[1,32] in v3 (pay.weixin.qq.com/wiki/doc/apiv3/apis/chapter3_2_5.shtml).
   */
  WECHAT("wechat", 32),
  /**
   * trade_no: no maximum documented (彩虹易支付's notification lists it as String, 20 digits in its
   * example); the aggregator may pass on an upstream id, so as long as Alipay's, the longest of those.
   */
  EPAY("epay", 64),
  /**
   * The PaymentIntent id (pi_...): Stripe may change the length of object ids without notice
   * (docs.stripe.com/upgrades, backwards-compatible changes) and says the ids it generates stay
   * within 255 characters.
   */
  STRIPE("stripe", 255),
  /** txn_id: "Length: 19 characters" (PayPal IPN Guide, IPN variable reference; 17 in practice). */
  PAYPAL("paypal", 19),
  /**
   * open_order_id, 虎皮椒's own order id: string(32) (xunhupay.com/doc/api/pay.html, 付款成功回调通知); 11-12
   * digits in practice.
   */
  XUNHUPAY("xunhupay", 32),
  /**
   * trade_id: 24 digits (assimon/epusdt), 24 base64url characters (GMWalletApp/epusdt), 18 (BEpusdt, whose
   * column is varchar(128)); no maximum documented.
   */
  EPUSDT("epusdt", 64),
  /** payId, which the site chose when it created the V免签 order: the site's own length. */
  VMQ("vmq", 64),
  /**
   * The transaction id: {@code ^txn_[a-z\d]{26}$}, 30 characters (developer.paddle.com/api-reference/about/paddle-ids,
   * "a prefix ... followed by a unique string of 26 alphanumeric characters").
   */
  PADDLE("paddle", 30),
  /**
   * Id, TokenPay's own order: a GUID, 36 characters ({@code 63234df7-55bf-93fc-0010-67be493c0c27} in
   * LightCountry/TokenPay's Wiki/docs.md; {@code order.Id.ToString()} in ObjectExtension.ToDic). It delivers a
   * refused notification again, but only twice, a minute apart (OrderNotifyService: CallbackNum < 3).
   */
  TOKENPAY("tokenpay", 36),
  /**
   * The Order's id (data.id), a JSON:API string of an integer ("1" in docs.lemonsqueezy.com/api/orders); no maximum
   * documented.
   */
  LEMONSQUEEZY("lemonsqueezy", 64),
  /** The order id (ord_...; 26 characters in Creem's docs): no maximum documented. */
  CREEM("creem", 64);

  private final String code;
  private final int documentedTradeNoLength;

  Platform(String code, int documentedTradeNoLength) {
    this.code = code;
    this.documentedTradeNoLength = documentedTradeNoLength;
  }

  /**
   * The longest trade number (the id booked as trade_no) it may send: the documented maximum above,
   * within what any notification may carry ({@link Ids}).
   */
  public int tradeNoLength() {
    return Math.min(documentedTradeNoLength, Ids.LONGEST);
  }

  /**
   * Whether its signature binds a notification's amount to its order. V免签's does not: MD5 over the values
   * concatenated without a separator, under which a price's digits can be read into its neighbours' (and the
   * createOrder sign the buyer is sent is the same string short of one value). So there, an amount that is not its
   * order's, or one for no order, is no payment.
   */
  public boolean signsAmountToOrder() {
    return this != VMQ;
  }

  /**
   * Whether it delivers a notification answered failure again. epusdt (and BEpusdt, GMWalletApp's) sends once and
   * marks the callback done whatever the answer; V免签's app pushes once per payment: a booking refused while
   * the database refuses writes is then lost to the site unless the owner looks.
   */
  public boolean retries() {
    return this != EPUSDT && this != VMQ;
  }

  /** The platforms that never deliver a refused notification again, in declaration order. */
  public static java.util.List<Platform> withoutRetries() {
    return java.util.Arrays.stream(values()).filter(p -> !p.retries()).toList();
  }

  /** Its name for people: the code, and V免签's Chinese name beside it. */
  public String label() {
    return this == VMQ ? "V免签 (vmq)" : code;
  }

  /** The platform stored as {@code code}. */
  public static Platform of(String code) {
    for (Platform p : values()) {
      if (p.code.equals(code)) {
        return p;
      }
    }
    throw new IllegalArgumentException("no platform " + code);
  }

  /** What is stored, e.g. {@code wechat}. */
  public String code() {
    return code;
  }
}
