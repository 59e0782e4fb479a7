package paynotify.channel.alipay;

import io.vertx.core.Future;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.channel.Ids;
import paynotify.crypto.PublicKeys;
import paynotify.net.OutboundFailure;

/**
 * Alipay re-issued its certificate (支付宝公钥证书无感知升级): an answer names an {@code alipay_cert_sn} not known
 * here. As alipay-sdk-java's {@code checkResponseCertSign}: the certificate is fetched with
 * {@code alipay.open.app.alipaycert.download} (its answer is not signed: the certificate is trusted only when it
 * chains to the configured alipayRootCert.crt and is valid now, {@code isTrusted}, and here also only when it is
 * issued to Alipay as the configured one is), then used from then on; here also kept with its chain for every
 * instance, and the owner told to replace alipay.alipay_cert_file. First what another instance kept
 * is looked at; a download of one SN is started at most once in {@link AlipayCertificates#DOWNLOAD_EVERY}.
 */
final class AlipayReissue {
  static final String METHOD = "alipay.open.app.alipaycert.download";
  private static final Logger LOG = LoggerFactory.getLogger(AlipayReissue.class);

  private final AlipayOpenApi api;
  private final AlipayCertificates certs;

  AlipayReissue(AlipayOpenApi api, AlipayCertificates certs) {
    this.api = api;
    this.certs = certs;
  }

  /** Makes the certificate {@code sn} known, or fails untrusted (the answer that named it is not taken). */
  Future<Void> fetch(String sn) {
    return certs.fromStore().compose(found -> certs.key(sn) != null ? Future.succeededFuture()
        : certs.downloadOnce(sn, () -> download(sn)));
  }

  private Future<Void> download(String sn) {
    return api.send(METHOD, new JsonObject().put("alipay_cert_sn", sn)).map(body -> {
      List<X509Certificate> chain = trusted(sn, certificate(sn, body));
      certs.adopt(chain.get(0));
      return chain;
    }).compose(chain -> certs.keep(chain).transform(kept -> {
      X509Certificate cert = chain.get(0);
      LOG.warn("Alipay re-issued its certificate: alipay_cert_sn {} (valid until {}) checked against"
          + " alipay.alipay_root_cert_file and used from now on{}; replace alipay.alipay_cert_file with the new"
          + " alipayCertPublicKey_RSA2.crt (支付宝开放平台 open.alipay.com → 开发设置 → 接口加签方式 → 证书 → 下载支付宝公钥证书)",
          sn, cert.getNotAfter().toInstant(), kept.succeeded() ? ", kept in platform_certificates for every instance"
              : " (not kept for the other instances: " + kept.cause().getMessage() + ")");
      return Future.<Void>succeededFuture();
    }));
  }

  /** The answer's certificates ({@code alipay_cert_content}: base64 of the PEM), leaf first. */
  private static List<X509Certificate> certificate(String sn, String body) {
    String node = SignedAnswer.text(body, METHOD.replace('.', '_') + "_response");
    JsonObject answer;
    try {
      answer = node == null ? null : new JsonObject(node);
    } catch (DecodeException e) {
      answer = null;
    }
    if (answer == null || !AlipayOpenApi.SUCCESS.equals(answer.getString("code"))) {
      throw OutboundFailure.unavailable(METHOD + " for alipay_cert_sn " + Ids.printable(sn) + " failed: "
          + (answer == null ? "no answer object" : Ids.printable(answer.getString("code", "")) + " "
              + Ids.printable(answer.getString("sub_code", answer.getString("msg", "")))) + retry());
    }
    try {
      String pem = new String(Base64.getMimeDecoder().decode(answer.getString("alipay_cert_content", "")),
          StandardCharsets.UTF_8);
      return PublicKeys.parseCertificates(pem);
    } catch (IllegalArgumentException e) {
      throw untrusted(sn, "its alipay_cert_content is not a certificate (" + e.getMessage() + ")");
    }
  }

  /** The chain, when its leaf is the certificate asked for and Alipay's ({@link AlipayCertificates#refusal}). */
  private List<X509Certificate> trusted(String sn, List<X509Certificate> chain) {
    X509Certificate leaf = chain.get(0);
    if (!AlipayCertRules.sn(leaf).equals(sn)) {
      throw untrusted(sn, "the certificate given is " + AlipayCertRules.sn(leaf) + ", not the one asked for");
    }
    String refusal = certs.refusal(chain);
    if (refusal != null) {
      throw untrusted(sn, refusal);
    }
    return chain;
  }

  private static OutboundFailure untrusted(String sn, String why) {
    String message = "an answer is signed with Alipay certificate " + Ids.printable(sn) + ", not known here, and "
        + METHOD + " gave one that is refused: " + why + "; nothing is taken from such an answer" + retry();
    LOG.error("{}", message);
    return OutboundFailure.untrusted(message);
  }

  private static String retry() {
    return " (asked again at most every " + AlipayCertificates.DOWNLOAD_EVERY.toMinutes() + " minutes)";
  }
}
