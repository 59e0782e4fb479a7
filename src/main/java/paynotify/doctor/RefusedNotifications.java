package paynotify.doctor;

import static paynotify.store.SqlQueries.PLATFORM_CERTIFICATES;
import static paynotify.store.SqlQueries.REFUSED_BY_KEY;
import static paynotify.store.SqlQueries.REFUSED_SERIALS;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import paynotify.channel.Platform;
import paynotify.channel.wechat.WechatV3Signature;

/**
 * The notifications refused lately for their signature or key (notify_log), against the keys configured now. A
 * refused request keeps no body (store/RejectedLog: its size, SHA-256 and first 64 characters) and no headers, so
 * no key can be tried on it again; what its row does keep is said: WeChat Pay v3's refusals name the serial they
 * were signed under, which is matched against the keys the WeChat Pay v3 channel is configured with and the
 * platform certificates the service downloaded (platform_certificates). Of the other channels, how many were refused
 * is said, and that which key would have verified them cannot be told.
 */
public final class RefusedNotifications {
  static final int DAYS = 7;
  /** A serial or public key id as WeChat writes them; anything else in a refused request is not repeated. */
  private static final Pattern SERIAL = Pattern.compile("[0-9A-Fa-f]{1,42}|PUB_KEY_ID_[0-9A-Za-z]{1,53}");
  private static final String PUBLIC_KEY = "商户平台 (pay.weixin.qq.com) → 账户中心 → API安全 → 微信支付公钥";

  private RefusedNotifications() {}

  /** @param configured whether the WeChat Pay v3 channel knows a serial from its configuration (WechatV3Signature) */
  public static void check(Connection session, Predicate<String> configured, Checkup checkup) throws SQLException {
    boolean any = false;
    try (PreparedStatement s = session.prepareStatement(REFUSED_BY_KEY)) {
      s.setInt(1, DAYS);
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          any = true;
          String channel = r.getString(1);
          String reason = r.getString(2);
          if (!"wechat_v3".equals(channel) || !"UNKNOWN_SERIAL".equals(reason)) {
            checkup.skipped("which configured key would have verified the " + r.getLong(3) + " " + channel
                + " notification(s) refused (" + reason + ") in the last " + DAYS + " days, the last at "
                + r.getObject(4) + ": a refused request's body and headers are not kept (only its size, SHA-256 and"
                + " first 64 characters), so no key can be tried on it again");
          }
        }
      }
    }
    if (!any) {
      checkup.checked("notifications refused for their signature or key in the last " + DAYS + " days: none");
      return;
    }
    Set<String> downloaded = new HashSet<>();
    try (PreparedStatement s = session.prepareStatement(PLATFORM_CERTIFICATES)) {
      s.setString(1, Platform.WECHAT.code());
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          downloaded.add(WechatV3Signature.keyId(r.getString(1)));
        }
      }
    }
    Predicate<String> listed = configured.or(serial -> downloaded.contains(WechatV3Signature.keyId(serial)));
    try (PreparedStatement s = session.prepareStatement(REFUSED_SERIALS)) {
      s.setInt(1, DAYS);
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          serial(r.getString(1), r.getLong(2), listed, checkup);
        }
      }
    }
  }

  /** WeChat Pay v3 notifications signed under {@code serial}, unknown when they came: listed now, or not. */
  private static void serial(String serial, long refused, Predicate<String> listed, Checkup checkup) {
    if (serial == null || !SERIAL.matcher(serial).matches()) {
      checkup.skipped(refused + " wechat_v3 notification(s) refused for a Wechatpay-Serial that is no serial (forged,"
          + " most likely)");
      return;
    }
    String where = "wechat_v3.platform_keys";
    if (listed.test(serial)) {
      checkup.checked(where + " lists " + serial + " now, which " + refused + " notification(s) refused in the last "
          + DAYS + " days were signed under (WeChat Pay retries them for 24 h)");
    } else if (serial.startsWith("PUB_KEY_ID_")) {
      checkup.found(where, refused + " notification(s) in the last " + DAYS + " days were refused for naming a WeChat"
          + " Pay public key it does not list (a refused request named " + serial + ": unverified, anyone can send"
          + " one): if WeChat moved this merchant to its public key (微信支付公钥), every notification is refused",
          "add the public key: at " + PUBLIC_KEY + " copy 公钥ID and download pub_key.pem, and list them as - id:"
              + " <公钥ID from that page> with key_file: <that file>; then restart. Take the id from the console only,"
              + " never from the refused request");
    } else {
      checkup.found(where, refused + " notification(s) in the last " + DAYS + " days were signed under the platform"
          + " certificate of serial " + serial + ", which it does not list (WeChat Pay rotated its certificate)",
          "list that platform certificate (平台证书: the official SDKs' certificate downloader, or /v3/certificates),"
              + " or better WeChat Pay's public key, which does not rotate: " + PUBLIC_KEY + "; then restart");
    }
  }
}
