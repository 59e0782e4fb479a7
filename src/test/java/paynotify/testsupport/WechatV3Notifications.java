package paynotify.testsupport;

import com.wechat.pay.java.core.cipher.AeadAesCipher;
import com.wechat.pay.java.core.cipher.RSASigner;
import com.wechat.pay.java.core.util.PemUtil;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import paynotify.channel.wechat.WechatV3Signature;

/**
 * WeChat Pay v3 notifications built with the official wechatpay-java SDK: the resource encrypted
 * by its {@code AeadAesCipher}, the message signed by its {@code RSASigner}.
 */
public final class WechatV3Notifications {
  public static final JsonObject VECTORS = Vectors.load("wechat_v3");
  private static final JsonObject KEYS = VECTORS.getJsonObject("keys");
  public static final String MCH_ID = VECTORS.getJsonObject("merchant").getString("mchid");
  public static final String APP_ID = VECTORS.getJsonObject("merchant").getString("appid");
  public static final String APIV3_KEY = KEYS.getString("apiv3_key");
  public static final String PUBLIC_KEY_ID = KEYS.getString("platform_public_key_id");
  public static final String PUBLIC_KEY_PEM = KEYS.getString("platform_public_key_pem");
  public static final PrivateKey PRIVATE_KEY =
      PemUtil.loadPrivateKeyFromString(KEYS.getString("TEST_ONLY_platform_private_key_pkcs8_pem"));
  public static final String PATH = "/notify/wechat/v3";

  private WechatV3Notifications() {}

  /** The decrypted Transaction of a successful payment. */
  public static JsonObject transaction(String orderNo, String tradeNo, long cents) {
    return new JsonObject()
        .put("mchid", MCH_ID).put("appid", APP_ID).put("out_trade_no", orderNo).put("transaction_id", tradeNo)
        .put("trade_type", "NATIVE").put("trade_state", "SUCCESS").put("trade_state_desc", "支付成功")
        .put("bank_type", "OTHERS").put("attach", "").put("success_time", "2026-11-29T14:29:57+08:00")
        .put("payer", new JsonObject().put("openid", "oUpF8uMuAJO_M2pxb1Q9zNjWeS6o"))
        .put("amount", new JsonObject().put("total", cents).put("payer_total", cents).put("currency", "CNY")
            .put("payer_currency", "CNY"));
  }

  /** A TRANSACTION.SUCCESS notification signed now with the vectors' platform key. */
  public static Notification payment(String orderNo, String tradeNo, long cents) {
    return notification(transaction(orderNo, tradeNo, cents), System.currentTimeMillis() / 1000, PRIVATE_KEY,
        PUBLIC_KEY_ID);
  }

  /** The resource encrypted with the APIv3 key, the message signed with {@code key} under {@code serial}. */
  public static Notification notification(JsonObject transaction, long timestamp, PrivateKey key, String serial) {
    return notification("TRANSACTION.SUCCESS", "transaction", transaction, timestamp, key, serial);
  }

  /** A REFUND.SUCCESS notification for {@code refundCents} of a {@code totalCents} trade, signed now. */
  public static Notification refund(String orderNo, String tradeNo, long totalCents, String refundId, long refundCents) {
    return refund(orderNo, tradeNo, totalCents, refundId, refundCents, "SUCCESS");
  }

  /** A REFUND.{@code status} notification (SUCCESS, ABNORMAL or CLOSED), signed now. */
  public static Notification refund(String orderNo, String tradeNo, long totalCents, String refundId, long refundCents,
      String status) {
    JsonObject refund = new JsonObject()
        .put("mchid", MCH_ID).put("out_trade_no", orderNo).put("transaction_id", tradeNo)
        .put("out_refund_no", "R-" + refundId).put("refund_id", refundId).put("refund_status", status)
        .put("success_time", "2026-11-29T14:29:58+08:00").put("user_received_account", "支付用户零钱")
        .put("amount", new JsonObject().put("total", totalCents).put("refund", refundCents)
            .put("payer_total", totalCents).put("payer_refund", refundCents));
    return notification("REFUND." + status, "refund", refund, System.currentTimeMillis() / 1000, PRIVATE_KEY,
        PUBLIC_KEY_ID);
  }

  private static Notification notification(String eventType, String originalType, JsonObject resource,
      long timestamp, PrivateKey key, String serial) {
    String nonce = UUID.randomUUID().toString().substring(0, 12);
    String ciphertext = new AeadAesCipher(APIV3_KEY.getBytes(StandardCharsets.UTF_8)).encrypt(
        originalType.getBytes(StandardCharsets.UTF_8), nonce.getBytes(StandardCharsets.UTF_8),
        resource.encode().getBytes(StandardCharsets.UTF_8));
    String body = new JsonObject()
        .put("id", UUID.randomUUID().toString()).put("create_time", "2026-11-29T14:29:59+08:00")
        .put("resource_type", "encrypt-resource").put("event_type", eventType).put("summary", "通知")
        .put("resource", new JsonObject().put("original_type", originalType).put("algorithm", "AEAD_AES_256_GCM")
            .put("ciphertext", ciphertext).put("associated_data", originalType).put("nonce", nonce))
        .encode();
    return signedBody(body, timestamp, key, serial);
  }

  /** Headers for {@code body} signed over timestamp\nnonce\nbody\n. */
  public static Notification signedBody(String body, long timestamp, PrivateKey key, String serial) {
    String nonce = UUID.randomUUID().toString().replace("-", "");
    String signature = new RSASigner(serial, key).sign(timestamp + "\n" + nonce + "\n" + body + "\n").getSign();
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Content-Type", "application/json");
    headers.put(WechatV3Signature.TIMESTAMP_HEADER, Long.toString(timestamp));
    headers.put(WechatV3Signature.NONCE_HEADER, nonce);
    headers.put(WechatV3Signature.SIGNATURE_HEADER, signature);
    headers.put(WechatV3Signature.SERIAL_HEADER, serial);
    headers.put(WechatV3Signature.SIGNATURE_TYPE_HEADER, WechatV3Signature.SIGNATURE_TYPE);
    return new Notification("POST", PATH, headers, body.getBytes(StandardCharsets.UTF_8), null);
  }

  /** The same request with one header replaced. */
  public static Notification withHeader(Notification n, String name, String value) {
    Map<String, String> headers = new LinkedHashMap<>(n.headers());
    headers.put(name, value);
    return new Notification(n.method(), n.path(), headers, n.body(), n.query());
  }
}
