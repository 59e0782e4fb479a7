package paynotify.doctor;

import static paynotify.store.SqlQueries.REFUSED_BY_KEY;
import static paynotify.store.SqlQueries.REFUSED_SERIALS;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Pattern;
import paynotify.channel.wechat.WechatV3Signature;
import paynotify.crypto.PublicKeys;

/**
 * The notifications refused lately for their signature or key (notify_log), against the keys configured now. A
 * refused request keeps no body (store/RejectedLog: its size, SHA-256 and first 64 characters) and no headers, so
 * no key can be tried on it again; what its row does keep is said: WeChat Pay v3's refusals name the serial they
 * were signed under, which is matched against wechat_v3.platform_keys. Of the other channels, how many were refused
 * is said, and that which key would have verified them cannot be told.
 */
public final class RefusedNotifications {
  static final int DAYS = 7;
  /** A serial or public key id as WeChat writes them; anything else in a refused request is not repeated. */
  private static final Pattern SERIAL = Pattern.compile("[0-9A-Fa-f]{1,42}|PUB_KEY_ID_[0-9A-Za-z]{1,53}");
  private static final String PUBLIC_KEY = "商户平台 (pay.weixin.qq.com) → 账户中心 → API安全 → 微信支付公钥";

  private RefusedNotifications() {}

  /** @param settings the configuration as read (AppConfig.settings), for wechat_v3.platform_keys */
  public static void check(Connection session, JsonObject settings, Checkup checkup) throws SQLException {
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
    Set<String> listed = wechatKeyIds(settings);
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
  private static void serial(String serial, long refused, Set<String> listed, Checkup checkup) {
    if (serial == null || !SERIAL.matcher(serial).matches()) {
      checkup.skipped(refused + " wechat_v3 notification(s) refused for a Wechatpay-Serial that is no serial (forged,"
          + " most likely)");
      return;
    }
    String where = "wechat_v3.platform_keys";
    if (listed.contains(WechatV3Signature.keyId(serial))) {
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

  /** The ids of wechat_v3.platform_keys: each entry's id, or its certificate's serial (as ChannelsConfig names it). */
  private static Set<String> wechatKeyIds(JsonObject settings) {
    Set<String> ids = new HashSet<>();
    JsonObject v3 = settings.getValue("wechat_v3") instanceof JsonObject section ? section : new JsonObject();
    JsonArray keys = v3.getValue("platform_keys") instanceof JsonArray list ? list : new JsonArray();
    for (int i = 0; i < keys.size(); i++) {
      if (keys.getValue(i) instanceof JsonObject entry) {
        Object id = entry.getValue("id");
        String serial = id != null && !id.toString().isBlank() ? id.toString().trim() : certificateSerial(entry);
        if (serial != null) {
          ids.add(WechatV3Signature.keyId(serial));
        }
      }
    }
    return ids;
  }

  private static String certificateSerial(JsonObject entry) {
    try {
      String text = entry.getValue("key") != null ? entry.getValue("key").toString()
          : entry.getValue("key_file") == null ? null
          : Files.readString(Path.of(entry.getValue("key_file").toString().trim()), StandardCharsets.UTF_8);
      return text == null || !text.contains("BEGIN CERTIFICATE") ? null
          : PublicKeys.parseCertificate(text).getSerialNumber().toString(16);
    } catch (IOException | IllegalArgumentException e) {
      return null; // KeyChecks says what is wrong with it
    }
  }
}
