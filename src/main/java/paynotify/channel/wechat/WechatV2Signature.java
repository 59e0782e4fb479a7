package paynotify.channel.wechat;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;
import paynotify.channel.Ids;
import paynotify.channel.RejectedNotification.Reason;
import paynotify.channel.RejectedNotification;
import paynotify.channel.Signatures;
import paynotify.crypto.Digests;

/**
 * WeChat Pay API v2 {@code sign}, as {@code SignUtils.createSign} in weixin-java-pay computes it:
 * every field but {@code sign} with a non-empty value ({@code sign_type} included, and fields the
 * platform adds later), sorted by name, {@code k=v} joined with {@code &}, then {@code key=} and
 * the API key; MD5 or HMAC-SHA256 (keyed with the API key), upper-case hex. Refund notifications
 * carry no sign: they are authentic when {@code req_info} decrypts with the API key
 * ({@link #decryptRefund}). Both name the merchant's appid and mch_id ({@link #requireMerchant}).
 */
public final class WechatV2Signature {
  /** The element that carries the sign. */
  public static final String SIGN = "sign";
  /** The element naming the algorithm, signed like the others; a notification may leave it out. */
  public static final String SIGN_TYPE = "sign_type";
  public static final String MD5 = "MD5";
  public static final String HMAC_SHA256 = "HMAC-SHA256";
  /** The values of wechat_v2.sign_type, as WeChat writes them in {@code <sign_type>}. */
  public static final List<String> SIGN_TYPES = List.of(MD5, HMAC_SHA256);

  /**
   * The fields of the payment notification (支付结果通知), service-provider fields included;
   * {@code _$n} stands for the numbered coupon fields.
   */
  private static final Set<String> FIELDS = Set.of("return_code", "return_msg", "appid", "mch_id", "sub_appid",
      "sub_mch_id", "device_info", "nonce_str", "sign", "sign_type", "result_code", "err_code", "err_code_des",
      "openid", "is_subscribe", "sub_openid", "sub_is_subscribe", "trade_type", "bank_type", "total_fee",
      "settlement_total_fee", "fee_type", "cash_fee", "cash_fee_type", "coupon_fee", "coupon_count",
      "coupon_type_$n", "coupon_id_$n", "coupon_fee_$n", "transaction_id", "out_trade_no", "attach", "time_end");

  private final String apiKey;
  private final String signType;
  /** req_info's key: the lower-case hex MD5 of the API key, its 32 characters as the AES-256 key. */
  private final SecretKeySpec refundKey;
  private final String appId;
  private final String mchId;

  /** @param signType one of {@link #SIGN_TYPES}: the merchant's, the only one accepted */
  public WechatV2Signature(String apiKey, String signType, String appId, String mchId) {
    if (!SIGN_TYPES.contains(signType)) {
      throw new IllegalArgumentException("sign type " + signType + " is not one of " + SIGN_TYPES);
    }
    this.apiKey = apiKey;
    this.signType = signType;
    this.refundKey = new SecretKeySpec(
        HexFormat.of().formatHex(Digests.md5(apiKey)).getBytes(StandardCharsets.US_ASCII), "AES");
    this.appId = appId;
    this.mchId = mchId;
  }

  /**
   * The sign of {@code fields}, as the platform computes it: what {@link #verify} compares, what the tests
   * play the platform with, and what {@link WechatV2Client} signs its requests with.
   */
  public String sign(Map<String, String> fields) {
    String content = Signatures.sortedContent(fields, Set.of(SIGN), String::isEmpty, "key=" + apiKey);
    byte[] digest = signType.equals(HMAC_SHA256) ? Digests.hmacSha256(apiKey, content) : Digests.md5(content);
    return HexFormat.of().withUpperCase().formatHex(digest);
  }

  /** The configured wechat_v2.appid: what a request names and a notification or answer must. */
  String appId() {
    return appId;
  }

  /** The configured wechat_v2.mch_id. */
  String mchId() {
    return mchId;
  }

  /** The configured algorithm, one of {@link #SIGN_TYPES}: a request signed with HMAC-SHA256 must say so. */
  public String signType() {
    return signType;
  }

  /**
   * A payment notification: its sign ({@link #verifySign}), and no value that could be re-split into
   * another field of the notification under the same sign.
   */
  void verify(Map<String, String> fields) throws RejectedNotification {
    verifySign(fields);
    Signatures.requireUnambiguous(fields, FIELDS);
  }

  /**
   * Passes when the {@code sign} field is the sign of the others, compared in constant time: the check
   * of every signed message of the platform, a notification's or an API answer's (whose fields differ).
   */
  public void verifySign(Map<String, String> fields) throws RejectedNotification {
    String sign = fields.get(SIGN);
    if (sign == null || sign.isEmpty()) {
      throw new RejectedNotification(Reason.MISSING_SIGNATURE, "no sign element");
    }
    // The algorithm is the merchant's, never the request's: taking it from <sign_type> would let
    // anyone who can forge MD5 in for a merchant on HMAC-SHA256. A notification may leave it out.
    String declared = fields.get(SIGN_TYPE);
    if (declared != null && !declared.equals(signType)) {
      throw new RejectedNotification(Reason.BAD_SIGNATURE, "sign_type '" + Ids.printable(declared)
          + "' is not the configured wechat_v2.sign_type (" + signType + ")");
    }
    if (!Digests.sameSign(sign(fields), sign)) {
      throw new RejectedNotification(Reason.BAD_SIGNATURE, "sign does not verify with the configured API key"
          + " (wechat_v2.api_key_file) and wechat_v2.sign_type (" + signType + ")");
    }
  }

  /** A payment's, refund's or API answer's appid and mch_id must be the configured ones. */
  public void requireMerchant(Map<String, String> fields) throws RejectedNotification {
    Ids.requireMerchant("appid", fields.get("appid"), appId, "wechat_v2.appid");
    Ids.requireMerchant("mch_id", fields.get("mch_id"), mchId, "wechat_v2.mch_id");
  }

  /**
   * The fields of a refund notification's {@code req_info} (root {@code <root>}): authentic when it
   * decrypts (AES-256-ECB, PKCS#5 padding, base64 that may be wrapped) with the key made from the API key.
   */
  Map<String, String> decryptRefund(String reqInfo) throws RejectedNotification {
    byte[] plain;
    try {
      Cipher aes = Cipher.getInstance("AES/ECB/PKCS5Padding");
      aes.init(Cipher.DECRYPT_MODE, refundKey);
      plain = aes.doFinal(Base64.getMimeDecoder().decode(reqInfo));
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new RejectedNotification(Reason.DECRYPT_FAILED,
          "req_info does not decrypt with the configured API key (wechat_v2.api_key_file)");
    }
    return WechatXml.parse(plain, "root");
  }
}
