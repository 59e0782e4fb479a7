package paynotify.channel.alipay;

import java.nio.charset.Charset;
import java.security.PublicKey;
import java.util.Map;
import java.util.Set;
import paynotify.channel.Ids;
import paynotify.channel.RejectedNotification.Reason;
import paynotify.channel.RejectedNotification;
import paynotify.channel.Signatures;
import paynotify.crypto.RsaSignatureCheck;

/**
 * Alipay's notify signature, as {@code AlipaySignature.rsaCheckV1} in alipay-sdk-java checks it (in certificate
 * mode, {@code rsaCertCheckV1}: the same check with the key of the Alipay certificate, or of one re-issued since), and
 * the rest of what makes a notification Alipay's and ours: the merchant's ids, and the notify_type
 * that return_url parameters lack. The algorithm is fixed by configuration: the request's
 * {@code sign_type} is never trusted.
 */
public final class AlipaySignature {
  /** The parameter that carries the signature. */
  public static final String SIGN = "sign";
  /** The parameter naming the algorithm ({@link Algorithm}); never read here. */
  public static final String SIGN_TYPE = "sign_type";
  private static final String NOTIFY_TYPE = "trade_status_sync";

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

  /** The SN of the certificate that signed, where Alipay names it (its answers do; a notification may). */
  static final String CERT_SN = "alipay_cert_sn";

  /** The parameters of Alipay's asynchronous notification, as its open-platform documentation lists them. */
  private static final Set<String> PARAMETERS = Set.of(CERT_SN, "notify_time", "notify_type", "notify_id", "charset",
      "version", "sign_type", "sign", "app_id", "auth_app_id", "trade_no", "out_trade_no", "out_biz_no", "buyer_id",
      "buyer_logon_id", "seller_id", "seller_email", "trade_status", "total_amount", "receipt_amount",
      "invoice_amount", "buyer_pay_amount", "point_amount", "refund_fee", "subject", "body", "gmt_create",
      "gmt_payment", "gmt_refund", "gmt_close", "fund_bill_list", "passback_params", "voucher_detail_list");

  /** Public-key mode's key (公钥模式); null in certificate mode. */
  private final RsaSignatureCheck alipayKey;
  /** Certificate mode's (公钥证书模式); null in public-key mode. */
  private final AlipayCertificates certificates;
  private final String appId;
  private final String sellerId;

  /** Public-key mode (alipay.public_key_file). @param sellerId checked when not null */
  public AlipaySignature(PublicKey alipayPublicKey, Algorithm algorithm, String appId, String sellerId) {
    this(RsaSignatureCheck.of(alipayPublicKey, algorithm.jca), null, appId, sellerId);
  }

  /** Certificate mode (alipay.alipay_cert_file and the two others). @param sellerId checked when not null */
  public AlipaySignature(AlipayCertificates certificates, String appId, String sellerId) {
    this(null, certificates, appId, sellerId);
  }

  private AlipaySignature(RsaSignatureCheck alipayKey, AlipayCertificates certificates, String appId,
      String sellerId) {
    this.alipayKey = alipayKey;
    this.certificates = certificates;
    this.appId = appId;
    this.sellerId = sellerId;
  }

  /** Certificate mode's certificates; null in public-key mode. */
  public AlipayCertificates certificates() {
    return certificates;
  }

  /** The signed content (SDK {@code getSignCheckContentV1}): all but sign and sign_type, blank values dropped. */
  static String signContent(Map<String, String> params) {
    return Signatures.sortedContent(params, Set.of(SIGN, SIGN_TYPE), String::isBlank);
  }

  /**
   * Passes when {@code sign} is a valid signature of the parameters, encoded in {@code charset}, no
   * value could be re-split into other parameters under the same signature, the merchant's ids are the
   * configured ones, and it is an asynchronous notification.
   */
  public void verify(Map<String, String> params, Charset charset) throws RejectedNotification {
    String sign = params.get(SIGN);
    if (sign == null || sign.isBlank()) {
      throw new RejectedNotification(Reason.MISSING_SIGNATURE, "no sign parameter");
    }
    byte[] content = signContent(params).getBytes(charset);
    if (certificates != null ? !certificates.verifies(content, sign, params.get(CERT_SN))
        : !alipayKey.verifies(content, sign)) {
      throw new RejectedNotification(Reason.BAD_SIGNATURE, certificates != null
          ? "signature does not verify with the key of the configured Alipay certificate (alipay.alipay_cert_file)"
              + " nor of one Alipay re-issued since, of those valid now"
          : "signature does not verify with the configured Alipay public key (alipay.public_key_file)");
    }
    Signatures.requireUnambiguous(params, PARAMETERS);
    Ids.requireMerchant("app_id", params.get("app_id"), appId, "alipay.app_id");
    if (sellerId != null) {
      Ids.requireMerchant("seller_id", params.get("seller_id"), sellerId, "alipay.seller_id");
    }
    requireAsyncNotification(params);
  }

  /**
   * Whether {@code sign} is Alipay's signature of {@code content}, as alipay-sdk-java's {@code rsaCheck}
   * decides for an OpenAPI answer (the exact text of its {@code ..._response} object): the signature alone,
   * none of a notification's rules. In certificate mode, with the key of the certificate {@code certSn} names
   * (the answer's {@code alipay_cert_sn}; when it names none, the configured one), which must be known here.
   */
  public boolean signs(byte[] content, String sign, String certSn) {
    if (sign == null || sign.isBlank()) {
      return false;
    }
    if (certificates == null) {
      return alipayKey.verifies(content, sign);
    }
    RsaSignatureCheck key = certificates.key(certSn == null ? certificates.configuredSn() : certSn);
    return key != null && key.verifies(content, sign);
  }

  /**
   * Every asynchronous notification names itself; the buyer's return_url parameters, signed the
   * same way and shown in the browser, do not: they are not ours to log or book.
   */
  private static void requireAsyncNotification(Map<String, String> params) throws RejectedNotification {
    if (!NOTIFY_TYPE.equals(params.get("notify_type")) || params.getOrDefault("notify_id", "").isBlank()) {
      throw RejectedNotification.malformed("not an asynchronous notification: notify_type is '"
          + Ids.printable(params.get("notify_type")) + "' (not " + NOTIFY_TYPE + ") or notify_id is blank"
          + " (the parameters of a return_url?)");
    }
  }
}
