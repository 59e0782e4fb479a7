package paynotify.channel.wechat;

import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import paynotify.channel.Ids;
import paynotify.channel.RejectedNotification;
import paynotify.crypto.PublicKeys;
import paynotify.net.OutboundFailure;
import paynotify.net.OutboundHttp;

/**
 * WeChat Pay's platform certificates (平台证书) as {@code GET /v3/certificates} lists them, signed with the merchant
 * key like any v3 call ({@link WechatV3Client}). Each {@code encrypt_certificate} is AEAD_AES_256_GCM with the APIv3
 * key ({@link WechatV3Signature#decryptResource}), as wechatpay-java's {@code CertificateDownloader} decrypts it: the
 * tag proves that WeChat sealed it for this merchant. Beyond what wechatpay-java 0.2.17 checks (the decryption
 * alone: its download answers pass an empty validator), as its first auto-update provider and
 * wechatpay-apache-httpclient's {@code CertificatesManager} did: the answer's signature by a key already known or by
 * a certificate of the list itself (the first download has nothing else); each certificate's serial the one listed;
 * each valid now (one expired or not yet valid is left out).
 *
 * <p>A 404 whose code is {@code RESOURCE_NOT_EXISTS} ("无可用的平台证书", as WeChat answers, wechatpay-java#354) or
 * {@code NOT_FOUND} means the merchant has no platform certificate: WeChat verifies it with the WeChat Pay public key
 * only ({@link Listed#none}). That answer's signature is not checked (such a merchant may have no key configured to
 * check it with): it is read by its code alone, over TLS. Any other 404 (a wrong wechat_v3.gateway_url, a proxy) is a
 * failure like any other.
 */
final class WechatV3Certificates {
  /** As wechatpay-java's RSAAutoCertificateProvider asks. */
  static final String PATH = "/v3/certificates?algorithm_type=RSA";
  static final String WHAT = "wechat v3 platform certificates";
  private static final String ALGORITHM = "AEAD_AES_256_GCM";
  /** The codes of WeChat's 404 for a merchant without platform certificates. */
  private static final Set<String> NO_CERTIFICATE = Set.of("RESOURCE_NOT_EXISTS", "NOT_FOUND");
  private static final Logger LOG = LoggerFactory.getLogger(WechatV3Certificates.class);

  private final WechatV3Client client;
  private final WechatV3Signature signature;
  private final Clock clock;

  WechatV3Certificates(WechatV3Client client, Clock clock) {
    this.client = client;
    this.signature = client.signature();
    this.clock = clock;
  }

  /**
   * The list as WeChat gives it now, checked: the certificates valid now by serial as WeChat writes it; none when it
   * has none for this merchant (its 404). A failure says what to fix, never a key.
   */
  Future<Map<String, X509Certificate>> download() {
    return client.send(WHAT, HttpMethod.GET, PATH, null).compose(answer -> {
      if (answer.status() == 404) {
        String code = WechatV3Client.code(answer);
        return code != null && NO_CERTIFICATE.contains(code) ? Future.succeededFuture(Map.of())
            : Future.failedFuture(OutboundFailure.refused(WHAT + ": HTTP 404 " + WechatV3Client.error(answer)
                + " is not WeChat Pay's answer (RESOURCE_NOT_EXISTS for a merchant without platform certificates):"
                + " check wechat_v3.gateway_url (https://api.mch.weixin.qq.com) and any proxy on the way"));
      }
      if (answer.status() != 200) {
        return Future.failedFuture(WechatV3Client.refusal(WHAT, answer));
      }
      try {
        Map<String, X509Certificate> listed = certificates(answer);
        signature.verifyCertificateList(answer.headers(), answer.body().getBytes(), listed);
        Map<String, X509Certificate> valid = new LinkedHashMap<>();
        listed.forEach((serial, certificate) -> {
          if (validNow(serial, certificate)) {
            valid.put(serial, certificate);
          }
        });
        if (valid.isEmpty()) {
          return Future.failedFuture(OutboundFailure.untrusted(WHAT + ": none of the " + listed.size()
              + " listed is valid now (check this machine's clock)"));
        }
        return Future.succeededFuture(Map.copyOf(valid));
      } catch (RejectedNotification e) {
        return Future.failedFuture(WechatV3Client.untrusted(WHAT, answer, e));
      }
    });
  }

  /** Each entry decrypted and read; anything amiss refuses the whole answer. */
  private Map<String, X509Certificate> certificates(OutboundHttp.Answer answer) throws RejectedNotification {
    JsonArray data;
    try {
      data = new JsonObject(answer.body()).getJsonArray("data");
    } catch (DecodeException | ClassCastException e) {
      throw RejectedNotification.malformed("not a JSON object with a data list");
    }
    if (data == null || data.isEmpty()) {
      throw RejectedNotification.malformed("no certificate in data");
    }
    Map<String, X509Certificate> listed = new LinkedHashMap<>();
    for (int i = 0; i < data.size(); i++) {
      try {
        JsonObject entry = data.getJsonObject(i);
        String serial = entry.getString("serial_no");
        JsonObject sealed = entry.getJsonObject("encrypt_certificate");
        if (serial == null || sealed == null) {
          throw RejectedNotification.malformed("data[" + i + "] has no serial_no or encrypt_certificate");
        }
        if (!ALGORITHM.equals(sealed.getString("algorithm"))) {
          throw RejectedNotification.malformed("data[" + i + "] is sealed with '"
              + Ids.printable(sealed.getString("algorithm")) + "', not " + ALGORITHM);
        }
        X509Certificate certificate = certificate(i, signature.decryptResource(sealed));
        if (!WechatV3Signature.keyId(certificate.getSerialNumber().toString(16)).equals(WechatV3Signature.keyId(serial))) {
          throw RejectedNotification.malformed("data[" + i + "]: serial_no " + Ids.printable(serial)
              + " is not its certificate's");
        }
        listed.put(serial, certificate);
      } catch (ClassCastException e) {
        throw RejectedNotification.malformed("data[" + i + "] is not as WeChat writes it");
      }
    }
    return listed;
  }

  private static X509Certificate certificate(int i, byte[] pem) throws RejectedNotification {
    try {
      X509Certificate certificate = PublicKeys.parseCertificate(new String(pem, StandardCharsets.UTF_8));
      if (!"RSA".equals(certificate.getPublicKey().getAlgorithm())) {
        throw RejectedNotification.malformed("data[" + i + "] is not an RSA certificate");
      }
      return certificate;
    } catch (IllegalArgumentException e) {
      throw RejectedNotification.malformed("data[" + i + "] decrypts to no certificate");
    }
  }

  private boolean validNow(String serial, X509Certificate certificate) {
    if (PublicKeys.validAt(certificate, clock.instant())) {
      return true;
    }
    LOG.warn("{}: certificate {} is left out: valid from {} to {}", WHAT, Ids.printable(serial),
        certificate.getNotBefore().toInstant(), certificate.getNotAfter().toInstant());
    return false;
  }
}
