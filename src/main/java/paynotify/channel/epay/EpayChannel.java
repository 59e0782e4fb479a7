package paynotify.channel.epay;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import paynotify.channel.EventKind;
import paynotify.channel.FormBody;
import paynotify.channel.Ids;
import paynotify.channel.Money;
import paynotify.channel.NotifyEvent;
import paynotify.channel.NotifyRequest;
import paynotify.channel.PlainTextReplies;
import paynotify.channel.PlatformTime;
import paynotify.channel.RejectedNotification.Reason;
import paynotify.channel.RejectedNotification;

/**
 * Epay-style aggregators (彩虹易支付 and compatibles), {@code GET} or {@code POST /notify/epay}:
 * {@code sign = md5(sorted non-empty params except sign/sign_type, k=v joined with & + key)},
 * lower-case hex, as {@code Payment.php} of the reference implementation computes it.
 */
public final class EpayChannel implements PlainTextReplies {
  public static final String PLATFORM = "epay";

  private final String pid;
  private final String key;

  public EpayChannel(String pid, String key) {
    this.pid = pid;
    this.key = key;
  }

  @Override
  public String endpoint() {
    return PLATFORM;
  }

  @Override
  public String path() {
    return "/notify/epay";
  }

  @Override
  public boolean acceptsGet() {
    return true; // the reference platform calls the notify URL with a GET query string
  }

  @Override
  public NotifyEvent verify(NotifyRequest request) throws RejectedNotification {
    Map<String, String> params = FormBody.decode(request.payload().getBytes(), StandardCharsets.UTF_8);
    String sign = params.get("sign");
    if (sign == null || sign.isEmpty()) {
      throw new RejectedNotification(Reason.MISSING_SIGNATURE, "no sign parameter");
    }
    if (!MessageDigest.isEqual(sign(params, key).getBytes(StandardCharsets.US_ASCII),
        sign.getBytes(StandardCharsets.US_ASCII))) {
      throw new RejectedNotification(Reason.BAD_SIGNATURE, "sign does not verify with the configured key (epay.key_file)");
    }
    if (!pid.equals(params.get("pid"))) {
      throw new RejectedNotification(Reason.WRONG_MERCHANT,
          "pid '" + Ids.printable(params.get("pid")) + "' is not the configured epay.pid");
    }
    String orderNo = Ids.require(params, "out_trade_no");
    String tradeNo = Ids.require(params, "trade_no");
    long amountCents = Money.yuanToCents("money", params.get("money"));
    String status = params.getOrDefault("trade_status", "");
    boolean paid = status.equals("TRADE_SUCCESS");
    return new NotifyEvent(PLATFORM, paid ? EventKind.PAYMENT : EventKind.NONE, orderNo, tradeNo, amountCents,
        paid ? PlatformTime.now() : null, status);
  }

  /** md5(content + key): PHP's ksort, values empty after trim() skipped, no URL-encoding, key appended. */
  static String sign(Map<String, String> params, String key) {
    StringBuilder content = new StringBuilder();
    for (Map.Entry<String, String> p : new TreeMap<>(params).entrySet()) {
      String name = p.getKey();
      if (name.equals("sign") || name.equals("sign_type") || phpTrim(p.getValue()).isEmpty()) {
        continue;
      }
      if (content.length() > 0) {
        content.append('&');
      }
      content.append(name).append('=').append(p.getValue());
    }
    try {
      byte[] md5 = MessageDigest.getInstance("MD5").digest((content + key).getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(md5);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("MD5 is part of every JDK", e);
    }
  }

  /** PHP trim(): strips " \t\n\r\0\x0B" only (Java's strip() would take more). */
  private static String phpTrim(String value) {
    int start = 0;
    int end = value.length();
    while (start < end && " \t\n\r\0\u000B".indexOf(value.charAt(start)) >= 0) {
      start++;
    }
    while (end > start && " \t\n\r\0\u000B".indexOf(value.charAt(end - 1)) >= 0) {
      end--;
    }
    return value.substring(start, end);
  }
}
