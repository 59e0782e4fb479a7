package paynotify.testsupport;

import com.github.binarywang.wxpay.util.SignUtils;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import paynotify.channel.wechat.WechatV2Signature;

/** WeChat Pay v2 notifications as WeChat sends them, signed by the official weixin-java-pay SDK. */
public final class WechatV2Notifications {
  public static final JsonObject VECTORS = Vectors.load("wechat_v2");
  public static final String APP_ID = VECTORS.getJsonObject("merchant").getString("appid");
  public static final String MCH_ID = VECTORS.getJsonObject("merchant").getString("mch_id");
  public static final String API_KEY = VECTORS.getJsonObject("keys").getString("api_key");
  public static final String OTHER_API_KEY = VECTORS.getJsonObject("keys").getString("other_api_key");
  public static final String PATH = "/notify/wechat/v2";

  private WechatV2Notifications() {}

  /** A payment notify (result_code SUCCESS), unsigned; {@code attempt} changes the nonce as retries do. */
  public static Map<String, String> payment(String orderNo, String tradeNo, long cents, int attempt) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("appid", APP_ID);
    p.put("bank_type", "OTHERS");
    p.put("cash_fee", Long.toString(cents));
    p.put("fee_type", "CNY");
    p.put("is_subscribe", "N");
    p.put("mch_id", MCH_ID);
    p.put("nonce_str", "n" + attempt + "x" + Long.toHexString(System.nanoTime()));
    p.put("openid", "oUpF8uMuAJO_M2pxb1Q9zNjWeS6o");
    p.put("out_trade_no", orderNo);
    p.put("result_code", "SUCCESS");
    p.put("return_code", "SUCCESS");
    p.put("time_end", "20261129101509");
    p.put("total_fee", Long.toString(cents));
    p.put("trade_type", "NATIVE");
    p.put("transaction_id", tradeNo);
    return p;
  }

  /**
   * A refund notify: no sign; req_info is the refund, AES-256-ECB encrypted with the lower-case hex
   * md5 of the API key (as WeChat does; weixin-java-pay only decrypts).
   */
  public static Notification refund(String orderNo, String tradeNo, long totalCents, String refundId,
      long refundCents, int attempt) throws Exception {
    Map<String, String> info = new LinkedHashMap<>();
    info.put("out_refund_no", "R-" + refundId);
    info.put("out_trade_no", orderNo);
    info.put("refund_account", "REFUND_SOURCE_RECHARGE_FUNDS");
    info.put("refund_fee", Long.toString(refundCents));
    info.put("refund_id", refundId);
    info.put("refund_recv_accout", "支付用户零钱");
    info.put("refund_request_source", "API");
    info.put("refund_status", "SUCCESS");
    info.put("settlement_refund_fee", Long.toString(refundCents));
    info.put("settlement_total_fee", Long.toString(totalCents));
    info.put("success_time", "2026-11-29 14:29:58");
    info.put("total_fee", Long.toString(totalCents));
    info.put("transaction_id", tradeNo);
    String plain = xml(info).replace("<xml>", "<root>").replace("</xml>", "</root>");
    byte[] md5 = java.security.MessageDigest.getInstance("MD5").digest(API_KEY.getBytes(StandardCharsets.UTF_8));
    javax.crypto.Cipher aes = javax.crypto.Cipher.getInstance("AES/ECB/PKCS5Padding");
    aes.init(javax.crypto.Cipher.ENCRYPT_MODE, new javax.crypto.spec.SecretKeySpec(
        java.util.HexFormat.of().formatHex(md5).getBytes(StandardCharsets.US_ASCII), "AES"));
    Map<String, String> outer = new LinkedHashMap<>();
    outer.put("return_code", "SUCCESS");
    outer.put("appid", APP_ID);
    outer.put("mch_id", MCH_ID);
    outer.put("nonce_str", "r" + attempt + "x" + Long.toHexString(System.nanoTime()));
    outer.put("req_info", java.util.Base64.getEncoder().encodeToString(aes.doFinal(plain.getBytes(StandardCharsets.UTF_8))));
    return Notification.post(PATH, "text/xml; charset=UTF-8", xml(outer));
  }

  /** Signed by the SDK ({@code SignUtils.createSign}) with {@code apiKey}, as XML. */
  public static Notification signed(Map<String, String> params, String apiKey, String signType) {
    Map<String, String> signed = new LinkedHashMap<>(params);
    if (!signType.equals(WechatV2Signature.MD5)) {
      signed.put(WechatV2Signature.SIGN_TYPE, signType);
    }
    signed.put(WechatV2Signature.SIGN, SignUtils.createSign(signed, signType, apiKey, new String[0]));
    return Notification.post(PATH, "text/xml; charset=UTF-8", xml(signed));
  }

  public static Notification signed(Map<String, String> params) {
    return signed(params, API_KEY, WechatV2Signature.MD5);
  }

  public static String xml(Map<String, String> fields) {
    StringBuilder xml = new StringBuilder("<xml>");
    fields.forEach((k, v) -> xml.append('<').append(k).append("><![CDATA[").append(v).append("]]></").append(k).append('>'));
    return xml.append("</xml>").toString();
  }
}
