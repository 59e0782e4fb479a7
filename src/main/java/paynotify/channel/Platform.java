package paynotify.channel;

/**
 * The payment platforms, by the code stored with their bookings (payments.channel,
 * refunds.channel, anomalies.channel). Not an endpoint: WeChat Pay has two ({@code wechat_v2},
 * {@code wechat_v3}, see {@link NotifyChannel#endpoint()}) and one platform, because API v2 and v3
 * share one trade id space.
 */
public enum Platform {
  ALIPAY("alipay"), WECHAT("wechat"), EPAY("epay"), STRIPE("stripe"), PAYPAL("paypal");

  private final String code;

  Platform(String code) {
    this.code = code;
  }

  /** What is stored, e.g. {@code wechat}. */
  public String code() {
    return code;
  }
}
