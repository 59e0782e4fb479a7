package paynotify.channel.wechat;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import paynotify.channel.BillSource;
import paynotify.channel.DayBill;
import paynotify.channel.Ids;
import paynotify.channel.Platform;
import paynotify.net.Gzip;
import paynotify.net.OutboundFailure;
import paynotify.net.OutboundHttp;

/**
 * WeChat Pay API v3's trade bill: {@code GET /v3/bill/tradebill} (signed, its answer verified, as every v3
 * call by {@link WechatV3Client}) gives a {@code download_url} and the file's SHA1; the file is then fetched
 * with the same kind of Authorization.
 *
 * <p>The file itself is <b>not signed</b> (WeChat puts no Wechatpay-Signature on it): it is trusted because
 * its SHA1 equals the hash_value of the signed answer. That hash is of the plain bill, after gunzip:
 * wechatpay-java's {@code BillDownloadServiceExtension} wraps the download in a GZIPInputStream before its
 * {@code DigestBillEntity} digests it.
 */
public final class WechatV3Bills implements BillSource {
  private static final String PATH = "/v3/bill/tradebill";
  /** The docs' 400 for a day without trades (or refunds): a bill of none. */
  private static final String NO_STATEMENT = "NO_STATEMENT_EXIST";
  /** The docs' 400 for a bill not made yet (from the morning after, 08:00-10:00). */
  private static final String CREATING = "STATEMENT_CREATING";

  private final WechatV3Client client;

  /** The same settings as {@link WechatV3Gateway}'s: the merchant's key and WeChat's platform keys. */
  WechatV3Bills(WechatV3Client client) {
    this.client = client;
  }

  @Override
  public Platform platform() {
    return Platform.WECHAT;
  }

  @Override
  public String name() {
    return "wechat v3 tradebill";
  }

  @Override
  public Future<DayBill> fetch(LocalDate date) {
    return client.call(name(), HttpMethod.GET, PATH + "?bill_date=" + date + "&bill_type=ALL&tar_type=GZIP", null)
        .compose(answer -> {
          String code = WechatV3Client.code(answer);
          if (answer.status() == 400 && NO_STATEMENT.equals(code)) {
            return Future.succeededFuture(DayBill.none(date));
          }
          if (answer.status() == 400 && CREATING.equals(code)) {
            return Future.succeededFuture(DayBill.stillMaking(date, name() + " of " + date + ": "
                + WechatV3Client.error(answer)));
          }
          if (answer.status() != 200) {
            return Future.failedFuture(WechatV3Client.refusal(name(), answer));
          }
          return download(date, answer);
        });
  }

  /** The file at the signed answer's download_url, gunzipped, once its SHA1 is the answer's hash_value. */
  private Future<DayBill> download(LocalDate date, OutboundHttp.Answer answer) {
    String hash;
    URI url;
    try {
      JsonObject bill = new JsonObject(answer.body());
      if (!"SHA1".equals(bill.getString("hash_type"))) {
        return Future.failedFuture(OutboundFailure.unavailable(name() + ": hash_type '"
            + Ids.printable(bill.getString("hash_type")) + "' is not SHA1, the only one WeChat documents"));
      }
      hash = bill.getString("hash_value");
      url = URI.create(bill.getString("download_url"));
    } catch (DecodeException | ClassCastException | IllegalArgumentException | NullPointerException e) {
      return Future.failedFuture(OutboundFailure.unavailable(name() + ": the answer is not a bill's download_url"));
    }
    if (!"https".equals(url.getScheme()) && !OutboundHttp.testLoopback(url)) { // never shown: it holds a token
      return Future.failedFuture(OutboundFailure.untrusted(name() + ": the download_url is not https: refused"));
    }
    String what = "the bill of " + date;
    MultiMap headers = MultiMap.caseInsensitiveMultiMap()
        .add("Accept", "*/*")
        .add("Authorization", client.authorization(HttpMethod.GET, url, null));
    return client.http().send(HttpMethod.GET, url, headers, null).map(file -> {
      if (file.status() == 429 || file.status() >= 500) {
        throw OutboundFailure.unavailable(what + ": HTTP " + file.status());
      }
      if (file.status() != 200) {
        throw WechatV3Client.refusal(what, file);
      }
      byte[] plain = Gzip.gunzip(file.body().getBytes(), what);
      if (hash == null || !hash.equalsIgnoreCase(sha1(plain))) {
        throw OutboundFailure.untrusted(what + " refused: its SHA1 is not the one WeChat gave");
      }
      return new DayBill(date, client.mchId() + "_" + date.format(DateTimeFormatter.BASIC_ISO_DATE) + "_ALL.csv",
          plain);
    });
  }

  private static String sha1(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-1", e);
    }
  }
}
