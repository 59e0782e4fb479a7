package paynotify.channel.wechat;

import io.vertx.core.Future;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.PublicKey;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import paynotify.channel.EventKind;
import paynotify.channel.Ids;
import paynotify.channel.NotifyChannel;
import paynotify.channel.NotifyEvent;
import paynotify.channel.NotifyRequest;
import paynotify.channel.Platform;
import paynotify.channel.PlatformTime;
import paynotify.channel.RejectedNotification;

/**
 * WeChat Pay API v3 notifications ({@code POST /notify/wechat/v3}, JSON): the headers' signature
 * checked, then the AES-256-GCM resource decrypted with the APIv3 key, both by {@link WechatV3Signature}.
 * WeChat decides by the status code: 2xx is never retried, anything else is.
 */
public final class WechatV3Channel implements NotifyChannel {
  /** Where the platform sends notifications: the route, and the key of the channel's "off" hint. */
  public static final String PATH = "/notify/wechat/v3";

  private static final Reply SUCCESS = new Reply(204, null, "");
  private static final String PAYMENT_EVENT = "TRANSACTION.SUCCESS";
  private static final Door DOOR = new Door("wechat_v3", Platform.WECHAT, PATH, SUCCESS);

  private final WechatV3Signature signature;
  /** Set once, at configuration: the merchant whose platform certificates the service downloads itself. */
  private volatile WechatClients.V3 certificateDownloads;

  @Override
  public Door door() {
    return DOOR;
  }

  /** The keys, ids, window and clock are {@link WechatV3Signature}'s. */
  public WechatV3Channel(Map<String, PublicKey> platformKeys, Set<String> publicKeyIds, byte[] apiV3Key, String mchId,
      String appId, Duration window, Clock clock) {
    this.signature = new WechatV3Signature(platformKeys, publicKeyIds, window, clock, apiV3Key, mchId, appId);
  }

  /** Which kind of platform key this instance's notifications came with: {@link WechatV3Signature#keysSeen}. */
  @Override
  public JsonObject keysSeen() {
    return signature.keysSeen();
  }

  /** Its platform keys and merchant ids, which also check the answers of WeChat Pay's order API. */
  public WechatV3Signature signature() {
    return signature;
  }

  /**
   * The merchant's outbound settings ({@code merchant}, with this channel's signature) its platform certificates are
   * downloaded with ({@link WechatV3CertificateKeeper}): the owner gave the merchant key and left
   * wechat_v3.download_certificates on.
   */
  public void downloadCertificates(WechatClients.V3 merchant) {
    certificateDownloads = merchant;
  }

  /** Null when the platform certificates are not downloaded. */
  WechatClients.V3 certificateDownloads() {
    return certificateDownloads;
  }

  @Override
  public Reply failure(int status, String reason) {
    return new Reply(status, "application/json", new JsonObject().put("code", "FAIL").put("message", reason).encode());
  }

  @Override
  public Future<NotifyEvent> check(NotifyRequest request) {
    return NotifyChannel.sync(() -> verified(request));
  }

  private NotifyEvent verified(NotifyRequest request) throws RejectedNotification {
    byte[] body = request.body().getBytes();
    signature.verify(request.headers(), body);
    try {
      JsonObject notification = json(body, "body");
      JsonObject resource = notification.getJsonObject("resource");
      if (resource == null) {
        throw RejectedNotification.malformed("no resource in the notification");
      }
      return normalise(notification.getString("event_type", ""),
          json(signature.decryptResource(resource), "decrypted resource"));
    } catch (ClassCastException e) { // a field of another JSON type than WeChat's
      throw RejectedNotification.malformed("unexpected JSON structure: " + e.getMessage());
    }
  }

  private NotifyEvent normalise(String eventType, JsonObject plain) throws RejectedNotification {
    signature.requireMerchant(plain);
    Map<String, String> ids = ids(plain);
    ids.put("refund_id", plain.getString("refund_id", ""));
    JsonObject amount = plain.getJsonObject("amount", new JsonObject());
    if (eventType.equals("REFUND.SUCCESS")) {
      return NotifyEvent.refund(Platform.WECHAT, Ids.require(ids, "out_trade_no"),
          Ids.require(ids, "transaction_id"), cents(amount, "refund"), eventType,
          new NotifyEvent.Refund(Ids.require(ids, "refund_id"), NotifyEvent.Scope.PLATFORM, false,
              PlatformTime.parseOrNull(plain.getString("success_time"))));
    }
    if (eventType.startsWith("REFUND.")) { // ABNORMAL or CLOSED: recorded, no money moved
      return new NotifyEvent(Platform.WECHAT, EventKind.NONE, Ids.require(ids, "out_trade_no"),
          Ids.require(ids, "transaction_id"), cents(amount, "refund"), null, eventType);
    }
    signature.requireApp(plain);
    if (eventType.equals(PAYMENT_EVENT) && "SUCCESS".equals(plain.getString("trade_state"))) {
      return payment(plain);
    }
    String orderNo = Ids.require(ids, "out_trade_no");
    long total = cents(amount, "total");
    return new NotifyEvent(Platform.WECHAT, EventKind.NONE, orderNo,
        ids.get("transaction_id").isEmpty() ? null : Ids.require(ids, "transaction_id"), total, null, eventType);
  }

  /**
   * The payment of a paid {@code transaction} (a decrypted TRANSACTION.SUCCESS resource, or the answer of
   * the order query): the event its notification carries, so that a payment found by asking books as one
   * notified. Its merchant ids are the caller's to check ({@link WechatV3Signature#requireMerchant}).
   *
   * @throws ClassCastException a field of another JSON type than WeChat's
   */
  public static NotifyEvent payment(JsonObject transaction) throws RejectedNotification {
    Map<String, String> ids = ids(transaction);
    String orderNo = Ids.require(ids, "out_trade_no");
    long total = cents(transaction.getJsonObject("amount", new JsonObject()), "total");
    return new NotifyEvent(Platform.WECHAT, EventKind.PAYMENT, orderNo, Ids.require(ids, "transaction_id"),
        total, PlatformTime.paidAt("success_time", transaction.getString("success_time"),
            PlatformTime.Form.RFC_3339), PAYMENT_EVENT);
  }

  private static Map<String, String> ids(JsonObject plain) {
    Map<String, String> ids = new HashMap<>();
    ids.put("out_trade_no", plain.getString("out_trade_no", ""));
    ids.put("transaction_id", plain.getString("transaction_id", ""));
    return ids;
  }

  private static JsonObject json(byte[] bytes, String what) throws RejectedNotification {
    try {
      return new JsonObject(new String(bytes, StandardCharsets.UTF_8));
    } catch (DecodeException e) {
      throw RejectedNotification.malformed(what + " is not a JSON object");
    }
  }

  private static long cents(JsonObject amount, String field) throws RejectedNotification {
    Object value = amount.getValue(field);
    if (!(value instanceof Integer || value instanceof Long) || ((Number) value).longValue() < 0) {
      throw RejectedNotification.malformed("amount." + field + " is not a whole number of cents");
    }
    return ((Number) value).longValue();
  }
}
