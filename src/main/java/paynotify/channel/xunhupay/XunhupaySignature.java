package paynotify.channel.xunhupay;

import java.util.Map;
import java.util.Set;
import paynotify.channel.Ids;
import paynotify.channel.RejectedNotification.Reason;
import paynotify.channel.RejectedNotification;
import paynotify.channel.Signatures;
import paynotify.crypto.Digests;

/**
 * The 虎皮椒 {@code hash}, as its official SDK's {@code generate_xh_hash} computes it ({@code api.php}, the
 * same in xiusin/pinecms and phalapi/xunhupay): {@code md5(every field but hash, sorted by name, values that
 * are null or exactly '' skipped (not trimmed: "0" and " " are signed), k=v joined with & + APPSECRET)}, the
 * secret appended directly (no {@code &key=}), lower-case hex; and the merchant's {@code appid}. Every field
 * received is signed, those the platform adds later too (its document: 验证签名时必须支持增加的扩展字段).
 */
public final class XunhupaySignature {
  /** The field that carries the hash. */
  public static final String HASH = "hash";
  /** What the platform's notification sends (付款成功回调通知), hash included. */
  private static final Set<String> PARAMETERS = Set.of("trade_order_id", "total_fee", "transaction_id",
      "open_order_id", "order_title", "status", "plugins", "attach", "appid", "time", "nonce_str", "hash");

  /**
   * What only the site's own payment request (payment/do.html) carries, hashed with the same APPSECRET: a
   * notification with them is such a request's hash with a status and an open_order_id spliced in.
   */
  private static final Set<String> REQUEST_ONLY = Set.of("notify_url", "return_url", "callback_url", "wap_url");

  private final String appId;
  private final String appSecret;

  public XunhupaySignature(String appId, String appSecret) {
    this.appId = appId;
    this.appSecret = appSecret;
  }

  /** The hash of {@code params}, as the platform computes it: what {@link #verify} compares. */
  public String sign(Map<String, String> params) {
    String content = Signatures.sortedContent(params, Set.of(HASH), String::isEmpty);
    return Digests.md5Hex(content + appSecret);
  }

  /**
   * Passes when {@code hash} is the hash of the other fields, compared in constant time, no value could be
   * re-split into other fields under the same hash, and {@code appid} is the merchant's.
   */
  public void verify(Map<String, String> params) throws RejectedNotification {
    String hash = params.get(HASH);
    if (hash == null || hash.isEmpty()) {
      throw new RejectedNotification(Reason.MISSING_SIGNATURE, "no hash field");
    }
    if (!Digests.sameSign(sign(params), hash)) {
      throw new RejectedNotification(Reason.BAD_SIGNATURE,
          "hash does not verify with the configured APPSECRET (xunhupay.appsecret_file)");
    }
    Signatures.requireUnambiguous(params, PARAMETERS);
    Signatures.requireNoneOf(params, REQUEST_ONLY);
    Ids.requireMerchant("appid", params.get("appid"), appId, "xunhupay.appid");
  }
}
