package paynotify.channel.wechat;

import java.net.URI;
import java.util.function.Function;
import paynotify.channel.BillSource;
import paynotify.channel.Outbound;
import paynotify.channel.Platform;
import paynotify.channel.TradeQuery;
import paynotify.crypto.MerchantKey;
import paynotify.net.OutboundHttp;

/**
 * Builds WeChat Pay's outbound side: one order query and one bill download for its one trade space. API v3's
 * ({@link WechatV3Gateway}, {@link WechatV3Bills}: its bill's hash is signed) when its merchant key is given (it
 * serves v2's trades too; the key, which can refund, is the owner's opt-in); else API v2's ({@link WechatV2Gateway},
 * {@link WechatV2Bills}, each given a {@link WechatV2Client}), signed with the API key its channel has (no
 * certificate: that key alone moves no money out).
 *
 * @param v2 API v2's settings; null when its channel is off
 * @param v3 API v3's settings; null when its channel is off or the merchant key is not given
 */
public record WechatClients(V2 v2, V3 v3) implements Outbound {
  /** API v2's base URL and its channel's signature rules (the API key, the sign type, the merchant's ids). */
  public record V2(URI base, WechatV2Signature signature) {
    /** The one signed call both v2 clients make, over {@code http}. */
    WechatV2Client client(OutboundHttp http) {
      return new WechatV2Client(http, base, signature);
    }
  }

  /** API v3's base URL, the merchant's id, key and certificate serial, and its channel's check of WeChat's answers. */
  public record V3(URI base, String mchId, String serial, MerchantKey key, WechatV3Signature signature) {
    /** The one signed call every v3 client makes (the query, the bills, the certificates' download), over {@code http}. */
    WechatV3Client client(OutboundHttp http) {
      return new WechatV3Client(http, base, mchId, serial, key, signature);
    }
  }

  @Override
  public Platform platform() {
    return Platform.WECHAT;
  }

  @Override
  public Function<OutboundHttp, TradeQuery> query() {
    if (v3 != null) {
      return http -> new WechatV3Gateway(v3.client(http));
    }
    return v2 == null ? null : http -> new WechatV2Gateway(v2.client(http));
  }

  /** v3's query is opted in by its merchant key; v2's asks with what the channel has. */
  @Override
  public boolean optedIn() {
    return v3 != null;
  }

  @Override
  public Function<OutboundHttp, BillSource> bills() {
    if (v3 != null) {
      return http -> new WechatV3Bills(v3.client(http));
    }
    return v2 == null ? null : http -> new WechatV2Bills(v2.client(http));
  }
}
