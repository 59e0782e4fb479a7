package paynotify.channel.wechat;

import io.vertx.core.Future;
import java.util.Map;
import paynotify.channel.EventKind;
import paynotify.channel.Ids;
import paynotify.channel.Money;
import paynotify.channel.NotifyChannel;
import paynotify.channel.NotifyEvent;
import paynotify.channel.NotifyRequest;
import paynotify.channel.Platform;
import paynotify.channel.PlatformTime;
import paynotify.channel.RejectedNotification;

/**
 * WeChat Pay API v2 notifications ({@code POST /notify/wechat/v2}, XML). Payment notifications
 * carry a {@code sign}; refund notifications carry none and are authenticated by {@code req_info}
 * decrypting with the API key: both rules, and the merchant's ids, are {@link WechatV2Signature}'s.
 */
public final class WechatV2Channel implements NotifyChannel {
  /** Where the platform sends notifications: the route, and the key of the channel's "off" hint. */
  public static final String PATH = "/notify/wechat/v2";

  private static final String XML = "text/xml; charset=utf-8";
  private static final Reply SUCCESS = new Reply(200, XML,
      "<xml><return_code><![CDATA[SUCCESS]]></return_code><return_msg><![CDATA[OK]]></return_msg></xml>");
  private static final Door DOOR = new Door("wechat_v2", Platform.WECHAT, PATH, SUCCESS);

  private final WechatV2Signature signature;

  @Override
  public Door door() {
    return DOOR;
  }

  /** @param signType one of {@link WechatV2Signature#SIGN_TYPES}: the merchant's, the only one accepted */
  public WechatV2Channel(String apiKey, String signType, String appId, String mchId) {
    this.signature = new WechatV2Signature(apiKey, signType, appId, mchId);
  }

  /** The signature rules, for the client that asks WeChat Pay v2 ({@link WechatV2Gateway}): one API key. */
  public WechatV2Signature signature() {
    return signature;
  }

  @Override
  public Reply failure(int status, String reason) {
    return new Reply(status, XML, "<xml><return_code><![CDATA[FAIL]]></return_code><return_msg><![CDATA["
        + reason + "]]></return_msg></xml>");
  }

  @Override
  public Future<NotifyEvent> check(NotifyRequest request) {
    return NotifyChannel.sync(() -> verified(request));
  }

  private NotifyEvent verified(NotifyRequest request) throws RejectedNotification {
    Map<String, String> fields = WechatXml.parse(request.body().getBytes(), "xml");
    if (fields.containsKey("req_info")) {
      return refund(fields);
    }
    signature.verify(fields);
    requireSuccess(fields, "return_code");
    signature.requireMerchant(fields);
    return payment(fields);
  }

  /**
   * The event of verified payment fields: a payment notification's, or an orderquery answer's (which
   * names the trade, amount and time the same way), so that a payment found by asking is booked under the
   * same key and fingerprint as its notification. Its status is the trade_state where the fields carry one
   * (an orderquery answer), else the result_code.
   */
  public static NotifyEvent payment(Map<String, String> fields) throws RejectedNotification {
    String orderNo = Ids.require(fields, "out_trade_no");
    long amountCents = Money.cents("total_fee", fields.get("total_fee"));
    String resultCode = fields.getOrDefault("result_code", "");
    if (!resultCode.equals("SUCCESS")) { // a failed payment: genuine, nothing to book
      String tradeNo = fields.getOrDefault("transaction_id", "").isEmpty() ? null : Ids.require(fields, "transaction_id");
      return new NotifyEvent(Platform.WECHAT, EventKind.NONE, orderNo, tradeNo, amountCents, null, resultCode);
    }
    return new NotifyEvent(Platform.WECHAT, EventKind.PAYMENT, orderNo, Ids.require(fields, "transaction_id"),
        amountCents, PlatformTime.paidAt("time_end", fields.get("time_end"), PlatformTime.Form.COMPACT),
        fields.getOrDefault("trade_state", resultCode));
  }

  /** Refund notify: authentic when req_info decrypts ({@link WechatV2Signature#decryptRefund}). */
  private NotifyEvent refund(Map<String, String> outer) throws RejectedNotification {
    requireSuccess(outer, "return_code");
    signature.requireMerchant(outer);
    Map<String, String> info = signature.decryptRefund(outer.get("req_info"));
    String orderNo = Ids.require(info, "out_trade_no");
    String tradeNo = Ids.require(info, "transaction_id");
    long refunded = Money.cents("refund_fee", info.get("refund_fee"));
    String status = info.getOrDefault("refund_status", "");
    if (!status.equals("SUCCESS")) { // CHANGE (failed) or REFUNDCLOSE: recorded, no money moved
      return new NotifyEvent(Platform.WECHAT, EventKind.NONE, orderNo, tradeNo, refunded, null,
          "refund " + status);
    }
    return NotifyEvent.refund(Platform.WECHAT, orderNo, tradeNo, refunded, status,
        new NotifyEvent.Refund(Ids.require(info, "refund_id"), NotifyEvent.Scope.PLATFORM, false,
            PlatformTime.parseOrNull(info.get("success_time"))));
  }

  private static void requireSuccess(Map<String, String> fields, String name) throws RejectedNotification {
    if (!"SUCCESS".equals(fields.get(name))) {
      throw RejectedNotification.malformed(name + " is '" + Ids.printable(fields.get(name)) + "', not SUCCESS");
    }
  }
}
