package paynotify.channel.alipay;

import java.nio.charset.Charset;
import java.security.PublicKey;
import java.util.Map;
import java.util.Set;
import paynotify.channel.RejectedNotification;
import paynotify.channel.RejectedNotification.Reason;
import paynotify.channel.RsaSignatureCheck;
import paynotify.channel.Signatures;

/**
 * Alipay's notify signature, as {@code AlipaySignature.rsaCheckV1} in alipay-sdk-java checks it.
 * The algorithm is fixed by configuration: the request's {@code sign_type} is never trusted.
 */
public final class AlipaySignature {

  /** The two algorithms Alipay has used; RSA2 is the current one. */
  public enum Algorithm {
    RSA2("SHA256withRSA"),
    /** Legacy SHA1 keys: only when the operator enables it. */
    RSA("SHA1withRSA");

    final String jca;

    Algorithm(String jca) {
      this.jca = jca;
    }
  }

  /** The parameters of Alipay's asynchronous notification, as its open-platform documentation lists them. */
  private static final Set<String> PARAMETERS = Set.of("notify_time", "notify_type", "notify_id", "charset",
      "version", "sign_type", "sign", "app_id", "auth_app_id", "trade_no", "out_trade_no", "out_biz_no", "buyer_id",
      "buyer_logon_id", "seller_id", "seller_email", "trade_status", "total_amount", "receipt_amount",
      "invoice_amount", "buyer_pay_amount", "point_amount", "refund_fee", "subject", "body", "gmt_create",
      "gmt_payment", "gmt_refund", "gmt_close", "fund_bill_list", "passback_params", "voucher_detail_list");

  private final RsaSignatureCheck alipayKey;

  public AlipaySignature(PublicKey alipayPublicKey, Algorithm algorithm) {
    this.alipayKey = RsaSignatureCheck.of(alipayPublicKey, algorithm.jca);
  }

  /** The signed content (SDK {@code getSignCheckContentV1}): all but sign and sign_type, blank values dropped. */
  static String signContent(Map<String, String> params) {
    return Signatures.sortedContent(params, Set.of("sign", "sign_type"), String::isBlank);
  }

  /**
   * Passes when {@code sign} is a valid signature of the parameters, encoded in {@code charset}, and
   * no value could be re-split into other parameters under the same signature.
   */
  public void verify(Map<String, String> params, Charset charset) throws RejectedNotification {
    String sign = params.get("sign");
    if (sign == null || sign.isBlank()) {
      throw new RejectedNotification(Reason.MISSING_SIGNATURE, "no sign parameter");
    }
    if (!alipayKey.verifies(signContent(params).getBytes(charset), sign)) {
      throw new RejectedNotification(Reason.BAD_SIGNATURE,
          "signature does not verify with the configured Alipay public key (alipay.public_key_file)");
    }
    Signatures.requireUnambiguous(params, PARAMETERS);
  }
}
