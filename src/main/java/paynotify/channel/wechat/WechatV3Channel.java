package paynotify.channel.wechat;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.ProviderException;
import java.security.PublicKey;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import paynotify.channel.EventKind;
import paynotify.channel.Ids;
import paynotify.channel.NotifyChannel;
import paynotify.channel.NotifyEvent;
import paynotify.channel.NotifyRequest;
import paynotify.channel.PlatformTime;
import paynotify.channel.RejectedNotification;
import paynotify.channel.RejectedNotification.Reason;
import paynotify.channel.RsaSignatures;

/**
 * WeChat Pay API v3 notifications ({@code POST /notify/wechat/v3}, JSON): SHA256withRSA over
 * {@code timestamp\nnonce\nbody\n} with the platform key named by {@code Wechatpay-Serial}, on the
 * RAW body bytes; then the AES-256-GCM resource decrypted with the APIv3 key. WeChat decides by the
 * status code: 2xx is never retried, anything else is.
 */
public final class WechatV3Channel implements NotifyChannel {
  static final String SIGNATURE_TYPE = "WECHATPAY2-SHA256-RSA2048";
  /** WeChat sends these on purpose to check that forged signatures are refused. */
  static final String PROBE_PREFIX = "WECHATPAY/SIGNTEST/";
  private static final Reply SUCCESS = new Reply(204, null, "");
  /** A certificate serial: at most 20 bytes (RFC 5280), with a sign byte. */
  private static final Pattern HEX_SERIAL = Pattern.compile("[0-9A-Fa-f]{1,42}");

  private final Map<String, PublicKey> platformKeys;
  private final SecretKeySpec apiV3Key;
  private final String mchId;
  private final String appId;
  private final Duration window;
  private final Clock clock;

  /**
   * @param platformKeys several at once: WeChat moves callbacks between keys gradually
   * @param window       zero: no timestamp check (the official SDK has none, and retries may carry
   *                     the original timestamp; replays are harmless, booking is idempotent)
   */
  public WechatV3Channel(Map<String, PublicKey> platformKeys, byte[] apiV3Key, String mchId, String appId,
      Duration window, Clock clock) {
    Map<String, PublicKey> byKeyId = new HashMap<>();
    platformKeys.forEach((id, key) -> {
      if (byKeyId.put(keyId(id), key) != null) {
        throw new IllegalArgumentException("platform key " + id + " is listed twice");
      }
    });
    this.platformKeys = Map.copyOf(byKeyId);
    this.apiV3Key = new SecretKeySpec(apiV3Key, "AES");
    this.mchId = mchId;
    this.appId = appId;
    this.window = window;
    this.clock = clock;
  }

  @Override
  public String endpoint() {
    return "wechat_v3";
  }

  @Override
  public String path() {
    return "/notify/wechat/v3";
  }

  @Override
  public Reply success() {
    return SUCCESS;
  }

  @Override
  public Reply failure(int status, String reason) {
    return new Reply(status, "application/json", new JsonObject().put("code", "FAIL").put("message", reason).encode());
  }

  @Override
  public NotifyEvent verify(NotifyRequest request) throws RejectedNotification {
    String timestamp = request.headers().get("Wechatpay-Timestamp");
    String nonce = request.headers().get("Wechatpay-Nonce");
    String signature = request.headers().get("Wechatpay-Signature");
    String serial = request.headers().get("Wechatpay-Serial");
    if (timestamp == null || nonce == null || signature == null || serial == null) {
      throw new RejectedNotification(Reason.MISSING_SIGNATURE, "a Wechatpay-Timestamp/Nonce/Signature/Serial header is missing");
    }
    String type = request.headers().get("Wechatpay-Signature-Type");
    if (type != null && !type.equals(SIGNATURE_TYPE)) {
      throw new RejectedNotification(Reason.BAD_SIGNATURE, "signature type '" + Ids.printable(type) + "' is not " + SIGNATURE_TYPE);
    }
    if (signature.startsWith(PROBE_PREFIX)) {
      throw new RejectedNotification(Reason.BAD_SIGNATURE, "WeChat Pay's signature probe, refused as it expects");
    }
    PublicKey key = platformKeys.get(keyId(serial));
    if (key == null) {
      throw new RejectedNotification(Reason.UNKNOWN_SERIAL, "Wechatpay-Serial '" + Ids.printable(serial)
          + "' is none of wechat_v3.platform_keys (add the new WeChat Pay public key or certificate)");
    }
    checkWindow(timestamp);
    byte[] body = request.body().getBytes();
    if (!RsaSignatures.verify(key, "SHA256withRSA", signedMessage(timestamp, nonce, body), signature)) {
      throw new RejectedNotification(Reason.BAD_SIGNATURE, "Wechatpay-Signature does not verify with platform key " + serial);
    }
    try {
      JsonObject notification = json(body, "body");
      JsonObject resource = notification.getJsonObject("resource");
      if (resource == null) {
        throw RejectedNotification.malformed("no resource in the notification");
      }
      return normalise(notification.getString("event_type", ""), decrypt(resource));
    } catch (ClassCastException e) { // a field of another JSON type than WeChat's
      throw RejectedNotification.malformed("unexpected JSON structure: " + e.getMessage());
    }
  }

  private NotifyEvent normalise(String eventType, JsonObject plain) throws RejectedNotification {
    if (!mchId.equals(plain.getString("mchid"))) {
      throw new RejectedNotification(Reason.WRONG_MERCHANT,
          "mchid '" + Ids.printable(plain.getString("mchid")) + "' is not wechat_v3.mchid");
    }
    Map<String, String> ids = Map.of(
        "out_trade_no", plain.getString("out_trade_no", ""),
        "transaction_id", plain.getString("transaction_id", ""),
        "refund_id", plain.getString("refund_id", ""));
    JsonObject amount = plain.getJsonObject("amount", new JsonObject());
    if (eventType.equals("REFUND.SUCCESS")) {
      return NotifyEvent.refund(WechatV2Channel.PLATFORM, Ids.require(ids, "out_trade_no"),
          Ids.require(ids, "transaction_id"), cents(amount, "refund"), eventType,
          new NotifyEvent.Refund(Ids.require(ids, "refund_id"), NotifyEvent.Scope.PLATFORM, false,
              PlatformTime.parseOrNull(plain.getString("success_time"))));
    }
    if (eventType.startsWith("REFUND.")) { // ABNORMAL or CLOSED: recorded, no money moved
      return new NotifyEvent(WechatV2Channel.PLATFORM, EventKind.NONE, Ids.require(ids, "out_trade_no"),
          Ids.require(ids, "transaction_id"), cents(amount, "refund"), null, eventType);
    }
    if (!appId.equals(plain.getString("appid"))) {
      throw new RejectedNotification(Reason.WRONG_MERCHANT,
          "appid '" + Ids.printable(plain.getString("appid")) + "' is not wechat_v3.appid");
    }
    String orderNo = Ids.require(ids, "out_trade_no");
    long total = cents(amount, "total");
    if (!eventType.equals("TRANSACTION.SUCCESS") || !"SUCCESS".equals(plain.getString("trade_state"))) {
      return new NotifyEvent(WechatV2Channel.PLATFORM, EventKind.NONE, orderNo,
          ids.get("transaction_id").isEmpty() ? null : Ids.require(ids, "transaction_id"), total, null, eventType);
    }
    return new NotifyEvent(WechatV2Channel.PLATFORM, EventKind.PAYMENT, orderNo, Ids.require(ids, "transaction_id"),
        total, PlatformTime.paidAt("success_time", plain.getString("success_time"),
            PlatformTime.Form.RFC_3339), eventType);
  }

  /**
   * What a platform key is looked up by. A certificate serial is a number: WeChat writes it as
   * upper-case hex of its bytes (a leading '0' kept), BigInteger.toString(16) drops that zero, and
   * wechatpay-java looks certificates up by the value ({@code new BigInteger(serial, 16)}). So hex
   * names the key by its value, in any case; anything else (PUB_KEY_ID_...) must match exactly.
   * Safe: the serial only selects the key; the signature must still verify with it.
   */
  public static String keyId(String serialOrId) {
    if (!HEX_SERIAL.matcher(serialOrId).matches()) {
      return serialOrId;
    }
    return new BigInteger(serialOrId, 16).toString(16).toUpperCase(Locale.ROOT);
  }

  private void checkWindow(String timestamp) throws RejectedNotification {
    long seconds;
    try {
      seconds = Long.parseLong(timestamp);
    } catch (NumberFormatException e) {
      throw RejectedNotification.malformed("Wechatpay-Timestamp is not a number: '" + Ids.printable(timestamp) + "'");
    }
    if (!window.isZero() && Math.abs(clock.instant().getEpochSecond() - seconds) >= window.toSeconds()) {
      throw new RejectedNotification(Reason.STALE_TIMESTAMP, "Wechatpay-Timestamp " + seconds
          + " is outside wechat_v3.timestamp_window_seconds (" + window.toSeconds() + ")");
    }
  }

  /** timestamp \n nonce \n raw body \n, byte for byte (re-serialised JSON would not verify). */
  private static byte[] signedMessage(String timestamp, String nonce, byte[] body) {
    ByteArrayOutputStream message = new ByteArrayOutputStream(body.length + 64);
    message.writeBytes((timestamp + "\n" + nonce + "\n").getBytes(StandardCharsets.UTF_8));
    message.writeBytes(body);
    message.write('\n');
    return message.toByteArray();
  }

  /** AEAD_AES_256_GCM: key = APIv3 key, IV = resource.nonce, AAD = associated_data, tag = last 16 bytes. */
  private JsonObject decrypt(JsonObject resource) throws RejectedNotification {
    byte[] plain;
    try {
      Cipher aes = Cipher.getInstance("AES/GCM/NoPadding");
      aes.init(Cipher.DECRYPT_MODE, apiV3Key,
          new GCMParameterSpec(128, resource.getString("nonce", "").getBytes(StandardCharsets.UTF_8)));
      aes.updateAAD(resource.getString("associated_data", "").getBytes(StandardCharsets.UTF_8));
      byte[] sealed = Base64.getDecoder().decode(resource.getString("ciphertext", ""));
      if (sealed.length < 16) {
        throw new GeneralSecurityException("shorter than the 16-byte tag");
      }
      plain = aes.doFinal(sealed);
    } catch (GeneralSecurityException | IllegalArgumentException | ClassCastException | ProviderException e) {
      throw new RejectedNotification(Reason.DECRYPT_FAILED,
          "resource does not decrypt with the configured APIv3 key (wechat_v3.apiv3_key_file)");
    }
    return json(plain, "decrypted resource");
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
