package paynotify.channel.wechat;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * WeChat Pay API v2 {@code sign}, as {@code SignUtils.createSign} in weixin-java-pay computes it:
 * every field but {@code sign} with a non-empty value ({@code sign_type} included, and fields the
 * platform adds later), sorted by name, {@code k=v} joined with {@code &}, then {@code &key=} and
 * the API key; MD5 or HMAC-SHA256 (keyed with the API key), upper-case hex.
 */
final class WechatV2Signature {
  static final String MD5 = "MD5";
  static final String HMAC_SHA256 = "HMAC-SHA256";

  private final String apiKey;

  WechatV2Signature(String apiKey) {
    this.apiKey = apiKey;
  }

  static String content(Map<String, String> fields, String apiKey) {
    StringBuilder content = new StringBuilder();
    for (Map.Entry<String, String> f : new TreeMap<>(fields).entrySet()) {
      if (!f.getKey().equals("sign") && !f.getValue().isEmpty()) {
        content.append(f.getKey()).append('=').append(f.getValue()).append('&');
      }
    }
    return content.append("key=").append(apiKey).toString();
  }

  /** The sign of {@code fields} with {@code signType} (MD5 or HMAC-SHA256). */
  String sign(Map<String, String> fields, String signType) {
    byte[] content = content(fields, apiKey).getBytes(StandardCharsets.UTF_8);
    try {
      byte[] digest;
      if (signType.equals(HMAC_SHA256)) {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(apiKey.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        digest = mac.doFinal(content);
      } else {
        digest = MessageDigest.getInstance("MD5").digest(content);
      }
      return HexFormat.of().withUpperCase().formatHex(digest);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("MD5 and HmacSHA256 are part of every JDK", e);
    }
  }

  /** Constant-time comparison, so that response timing tells nothing about the expected sign. */
  boolean verify(Map<String, String> fields, String signType, String sign) {
    return MessageDigest.isEqual(sign(fields, signType).getBytes(StandardCharsets.US_ASCII),
        sign.getBytes(StandardCharsets.US_ASCII));
  }
}
