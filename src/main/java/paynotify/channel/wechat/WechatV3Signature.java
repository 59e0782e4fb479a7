package paynotify.channel.wechat;

import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.ProviderException;
import java.security.PublicKey;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import paynotify.channel.Ids;
import paynotify.channel.RejectedNotification.Reason;
import paynotify.channel.RejectedNotification;
import paynotify.crypto.RsaSignatureCheck;

/**
 * WeChat Pay API v3 notify signature, as wechatpay-java's {@code NotificationParser} checks it:
 * SHA256withRSA over {@code timestamp\nnonce\nbody\n} (the RAW body bytes) with the platform key
 * that {@code Wechatpay-Serial} names; then the AES-256-GCM resource, whose tag proves it was sealed
 * with the merchant's APIv3 key ({@link #decryptResource}), and the merchant's ids inside it
 * ({@link #requireMerchant}, {@link #requireApp}). Verify only: signing needs WeChat's private key.
 *
 * <p>Two kinds of platform key, both at once while WeChat moves a merchant from one to the other: the WeChat
 * Pay public key (微信支付公钥, {@code PUB_KEY_ID_...}) and platform certificates (平台证书, by serial). Whichever
 * the serial names verifies, as wechatpay-java's {@code RSACombinedNotificationConfig}; requests name the public
 * key ({@link #requestSerial}) so that WeChat signs its answers with it. Beside the configured keys, the platform
 * certificates the service downloads itself ({@link #useDownloaded}, {@link WechatV3CertificateKeeper}): the keys
 * are read by every event loop at once and replaced whole, never changed in place.
 */
public final class WechatV3Signature {
  public static final String TIMESTAMP_HEADER = "Wechatpay-Timestamp";
  public static final String NONCE_HEADER = "Wechatpay-Nonce";
  public static final String SIGNATURE_HEADER = "Wechatpay-Signature";
  /** Which platform key signed: a certificate serial or a public key id ({@link #keyId}). */
  public static final String SERIAL_HEADER = "Wechatpay-Serial";
  /** Optional; when sent, it must be {@link #SIGNATURE_TYPE}. */
  public static final String SIGNATURE_TYPE_HEADER = "Wechatpay-Signature-Type";
  public static final String SIGNATURE_TYPE = "WECHATPAY2-SHA256-RSA2048";
  /** The GCM tag's length, appended to the ciphertext. */
  private static final int TAG_BYTES = 16;
  /** WeChat sends these on purpose to check that forged signatures are refused. */
  private static final String PROBE_PREFIX = "WECHATPAY/SIGNTEST/";
  /** A certificate serial: at most 20 bytes (RFC 5280), with a sign byte. */
  private static final Pattern HEX_SERIAL = Pattern.compile("[0-9A-Fa-f]{1,42}");

  /** The configured keys (wechat_v3.platform_keys), by {@link #keyId}. */
  private final Map<String, RsaSignatureCheck> configured;
  /** The keys that verify now and the downloaded certificates among them: replaced whole, read lock-free. */
  private volatile Keys keys;

  /**
   * @param verifying  the configured keys and the downloaded certificates', by {@link #keyId}
   * @param downloaded the downloaded certificates in use, by {@link #keyId}
   */
  private record Keys(Map<String, RsaSignatureCheck> verifying, Map<String, X509Certificate> downloaded) {}
  /** Told of each serial no key is known for (a rotated certificate, or a forged serial): the keeper's to decide. */
  private volatile Consumer<String> unknownSerial = serial -> { };
  private final Set<String> publicKeyIds;
  private final String requestSerial;
  private final KeysSeen seen = new KeysSeen();
  private final Duration window;
  private final Clock clock;
  private final SecretKeySpec apiV3Key;
  private final String mchId;
  private final String appId;

  /**
   * @param platformKeys several at once: WeChat moves callbacks between keys gradually; in the configuration's order
   * @param publicKeyIds which of them are WeChat Pay public keys (the others are platform certificates)
   * @param window       zero: no timestamp check (the official SDK has none, and retries may carry
   *                     the original timestamp; replays are harmless, booking is idempotent)
   */
  WechatV3Signature(Map<String, PublicKey> platformKeys, Set<String> publicKeyIds, Duration window, Clock clock,
      byte[] apiV3Key, String mchId, String appId) {
    this.configured = platformKeys.entrySet().stream() // a key listed twice: IllegalStateException
        .collect(Collectors.toUnmodifiableMap(k -> keyId(k.getKey()),
            k -> RsaSignatureCheck.of(k.getValue(), "SHA256withRSA")));
    this.keys = new Keys(configured, Map.of());
    this.publicKeyIds = publicKeyIds.stream().map(WechatV3Signature::keyId).collect(Collectors.toUnmodifiableSet());
    this.requestSerial = platformKeys.keySet().stream().filter(publicKeyIds::contains).findFirst().orElse(null);
    this.window = window;
    this.clock = clock;
    this.apiV3Key = new SecretKeySpec(apiV3Key, "AES");
    this.mchId = mchId;
    this.appId = appId;
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

  /**
   * Passes when the {@code Wechatpay-*} headers carry a valid, current signature of a notification's
   * {@code body}: {@link #verifyAnswer}'s check, with the notification's own rules (WeChat's signature
   * probe, the timestamp window) in the order the vectors expect.
   */
  void verify(MultiMap headers, byte[] body) throws RejectedNotification {
    Signed signed = signed(headers);
    if (signed.signature().startsWith(PROBE_PREFIX)) {
      throw new RejectedNotification(Reason.BAD_SIGNATURE, "WeChat Pay's signature probe, refused as it expects");
    }
    RsaSignatureCheck key = key(signed.serial());
    checkWindow(signed.timestamp());
    check(key, signed, body);
    seen.verified(publicKeyIds.contains(keyId(signed.serial())), signed.serial(), clock.instant());
  }

  /**
   * The {@code Wechatpay-Serial} a request sends: the WeChat Pay public key's id (the first listed) when one is
   * configured, as wechatpay-java fills it in from 0.2.15 on; WeChat then signs its answer with that key, which a
   * merchant moved to the public key may be the only one to have. Null with platform certificates alone: no
   * header, WeChat signs with a certificate.
   */
  String requestSerial() {
    return requestSerial;
  }

  /**
   * Which kind of platform key the notifications verified by this instance since its start were signed with: {@code
   * public_key} and {@code platform_certificate} counted, and the last one's kind, key and time (ISO instant); its
   * {@code last} null when none came. Kept in memory: WeChat's switch is seen by the instance that received them.
   */
  JsonObject keysSeen() {
    JsonArray certificates = new JsonArray();
    keys.downloaded().forEach((serial, certificate) -> certificates.add(new JsonObject().put("serial", serial)
        .put("not_after", certificate.getNotAfter().toInstant().toString())));
    return seen.json().put("downloaded_certificates", certificates);
  }

  /** The counts and the last of {@link #keysSeen}; notifications come on several event loops at once. */
  private static final class KeysSeen {
    private record Last(boolean publicKey, String serial, Instant at) {}

    private final AtomicLong publicKey = new AtomicLong();
    private final AtomicLong certificate = new AtomicLong();
    private final AtomicReference<Last> last = new AtomicReference<>();

    void verified(boolean isPublicKey, String serial, Instant at) {
      (isPublicKey ? publicKey : certificate).incrementAndGet();
      last.set(new Last(isPublicKey, serial, at));
    }

    JsonObject json() {
      Last l = last.get();
      return new JsonObject().put("public_key", publicKey.get()).put("platform_certificate", certificate.get())
          .put("last", l == null ? null : new JsonObject().put("kind", kind(l.publicKey()))
              .put("key", Ids.printable(l.serial())).put("at", l.at().toString()));
    }

    static String kind(boolean publicKey) {
      return publicKey ? "public_key" : "platform_certificate";
    }
  }

  /**
   * Passes when the {@code Wechatpay-*} headers of an answer to our request (a query, a close) carry a
   * valid signature of its {@code body} by a configured platform key: the same message, headers and keys
   * as a notification's. No window: the answer is to a request made just now over TLS.
   */
  public void verifyAnswer(MultiMap headers, byte[] body) throws RejectedNotification {
    Signed signed = signed(headers);
    check(key(signed.serial()), signed, body);
  }

  /** The signature headers, all present, of the one signature type. */
  private static Signed signed(MultiMap headers) throws RejectedNotification {
    Signed signed = new Signed(headers.get(TIMESTAMP_HEADER), headers.get(NONCE_HEADER), headers.get(SIGNATURE_HEADER),
        headers.get(SERIAL_HEADER));
    if (signed.timestamp() == null || signed.nonce() == null || signed.signature() == null || signed.serial() == null) {
      throw new RejectedNotification(Reason.MISSING_SIGNATURE, "a Wechatpay-Timestamp/Nonce/Signature/Serial header is missing");
    }
    String type = headers.get(SIGNATURE_TYPE_HEADER);
    if (type != null && !type.equals(SIGNATURE_TYPE)) {
      throw new RejectedNotification(Reason.BAD_SIGNATURE, "signature type '" + Ids.printable(type) + "' is not " + SIGNATURE_TYPE);
    }
    return signed;
  }

  private record Signed(String timestamp, String nonce, String signature, String serial) {}

  private RsaSignatureCheck key(String serial) throws RejectedNotification {
    RsaSignatureCheck key = keys.verifying().get(keyId(serial));
    if (key == null) {
      unknownSerial.accept(serial);
      throw unknown(serial);
    }
    return key;
  }

  private static RejectedNotification unknown(String serial) {
    return new RejectedNotification(Reason.UNKNOWN_SERIAL, "Wechatpay-Serial '" + Ids.printable(serial)
        + "' is none of wechat_v3.platform_keys nor of the platform certificates downloaded (add the new WeChat Pay"
        + " public key or certificate)");
  }

  /**
   * From now on, the configured keys and {@code certificates} (by serial as WeChat lists them) verify; the
   * certificates downloaded before are dropped. A configured key of the same id stays the one used.
   */
  synchronized void useDownloaded(Map<String, X509Certificate> certificates) {
    Map<String, X509Certificate> byId = new HashMap<>();
    Map<String, RsaSignatureCheck> verifying = new HashMap<>();
    certificates.forEach((serial, certificate) -> {
      byId.put(keyId(serial), certificate);
      verifying.put(keyId(serial), RsaSignatureCheck.of(certificate.getPublicKey(), "SHA256withRSA"));
    });
    verifying.putAll(configured);
    keys = new Keys(Map.copyOf(verifying), Map.copyOf(byId));
  }

  /** The downloaded certificates in use, by {@link #keyId}. */
  Map<String, X509Certificate> downloaded() {
    return keys.downloaded();
  }

  /** Whether {@code serial} can name a certificate (hex): a public key's id (PUB_KEY_ID_...) cannot. */
  static boolean isCertificateSerial(String serial) {
    return HEX_SERIAL.matcher(serial).matches();
  }

  /** Whether a key is known for {@code serial}, configured or downloaded. */
  public boolean knows(String serial) {
    return keys.verifying().containsKey(keyId(serial));
  }

  /** {@code listener} is told of each serial that names no known key, on the event loop that met it. */
  void onUnknownSerial(Consumer<String> listener) {
    unknownSerial = listener;
  }

  /**
   * {@link #verifyAnswer}'s check of the answer that lists the platform certificates, where a serial no known key has
   * may name one of the certificates listed ({@code listed}, by serial): WeChat signs the list with a certificate in
   * it, the first one a merchant ever downloads included. Nobody is told of an unknown serial here.
   */
  void verifyCertificateList(MultiMap headers, byte[] body, Map<String, X509Certificate> listed)
      throws RejectedNotification {
    Signed signed = signed(headers);
    RsaSignatureCheck key = keys.verifying().get(keyId(signed.serial()));
    if (key == null) {
      X509Certificate certificate = listed.entrySet().stream().filter(e -> keyId(e.getKey()).equals(keyId(signed.serial())))
          .map(Map.Entry::getValue).findFirst().orElseThrow(() -> unknown(signed.serial()));
      key = RsaSignatureCheck.of(certificate.getPublicKey(), "SHA256withRSA");
    }
    check(key, signed, body);
  }

  private static void check(RsaSignatureCheck key, Signed signed, byte[] body) throws RejectedNotification {
    if (!key.verifies(signedMessage(signed.timestamp(), signed.nonce(), body), signed.signature())) {
      throw new RejectedNotification(Reason.BAD_SIGNATURE, "Wechatpay-Signature does not verify with platform key "
          + signed.serial());
    }
  }

  /**
   * The plain bytes of a notification's {@code resource}, sealed with AEAD_AES_256_GCM: key = APIv3 key,
   * IV = nonce, AAD = associated_data, tag = the ciphertext's last 16 bytes. What does not decrypt
   * (a wrong key, a changed byte, a field of another JSON type) is refused.
   */
  byte[] decryptResource(JsonObject resource) throws RejectedNotification {
    try {
      Cipher aes = Cipher.getInstance("AES/GCM/NoPadding");
      aes.init(Cipher.DECRYPT_MODE, apiV3Key,
          new GCMParameterSpec(TAG_BYTES * 8, resource.getString("nonce", "").getBytes(StandardCharsets.UTF_8)));
      aes.updateAAD(resource.getString("associated_data", "").getBytes(StandardCharsets.UTF_8));
      byte[] sealed = Base64.getDecoder().decode(resource.getString("ciphertext", ""));
      if (sealed.length < TAG_BYTES) {
        throw new GeneralSecurityException("shorter than the 16-byte tag");
      }
      return aes.doFinal(sealed);
    } catch (GeneralSecurityException | IllegalArgumentException | ClassCastException | ProviderException e) {
      throw new RejectedNotification(Reason.DECRYPT_FAILED,
          "resource does not decrypt with the configured APIv3 key (wechat_v3.apiv3_key_file)");
    }
  }

  /** The decrypted resource's (or a queried transaction's) mchid must be the configured one. */
  public void requireMerchant(JsonObject resource) throws RejectedNotification {
    Ids.requireMerchant("mchid", resource.getString("mchid"), mchId, "wechat_v3.mchid");
  }

  /** A payment's appid must be the configured one (refund resources carry none). */
  public void requireApp(JsonObject resource) throws RejectedNotification {
    Ids.requireMerchant("appid", resource.getString("appid"), appId, "wechat_v3.appid");
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
}
