package paynotify.channel.epay;

import java.util.Map;
import java.util.Set;
import paynotify.channel.Ids;
import paynotify.channel.RejectedNotification.Reason;
import paynotify.channel.RejectedNotification;
import paynotify.channel.Signatures;
import paynotify.crypto.Digests;

/**
 * The epay {@code sign}, as {@code Payment.php} of the reference implementation (彩虹易支付) computes
 * it: {@code md5(sorted params but sign and sign_type, values empty after PHP trim() skipped, k=v
 * joined with & + merchant key)}, the key appended directly (no {@code &key=}), lower-case hex; and the
 * merchant's {@code pid}.
 */
public final class EpaySignature {
  /** The parameter that carries the sign. */
  public static final String SIGN = "sign";
  /** The parameter naming the algorithm; not signed, never read: the merchant key decides. */
  public static final String SIGN_TYPE = "sign_type";
  /** PHP trim() strips these only (Java's strip() would take more). */
  private static final String PHP_TRIM = " \t\n\r\0\u000B";
  /** What the reference platform's notify sends ({@code creat_callback}, both its MD5 and RSA forms). */
  private static final Set<String> PARAMETERS = Set.of("pid", "trade_no", "out_trade_no", "type", "name", "money",
      "trade_status", "param", "api_trade_no", "buyer", "timestamp", "sign", "sign_type");

  private final String pid;
  private final String key;

  public EpaySignature(String pid, String key) {
    this.pid = pid;
    this.key = key;
  }

  /**
   * The sign of {@code params}, as the platform computes it: what {@link #verify} compares and what the tests
   * play the platform with.
   */
  public String sign(Map<String, String> params) {
    String content = Signatures.sortedContent(params, Set.of(SIGN, SIGN_TYPE),
        value -> value.chars().allMatch(c -> PHP_TRIM.indexOf(c) >= 0));
    return Digests.md5Hex(content + key);
  }

  /**
   * Passes when the {@code sign} parameter is the sign of the others, compared in constant time, no
   * value could be re-split into other parameters under the same sign, and {@code pid} is the merchant's.
   */
  public void verify(Map<String, String> params) throws RejectedNotification {
    String sign = params.get(SIGN);
    if (sign == null || sign.isEmpty()) {
      throw new RejectedNotification(Reason.MISSING_SIGNATURE, "no sign parameter");
    }
    if (!Digests.sameSign(sign(params), sign)) {
      throw new RejectedNotification(Reason.BAD_SIGNATURE,
          "sign does not verify with the configured key (epay.key_file)");
    }
    Signatures.requireUnambiguous(params, PARAMETERS);
    Ids.requireMerchant("pid", params.get("pid"), pid, "epay.pid");
  }
}
