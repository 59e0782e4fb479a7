package paynotify.channel.alipay;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import paynotify.channel.BillSource;
import paynotify.channel.DayBill;
import paynotify.channel.Platform;
import paynotify.channel.PlatformTime;
import paynotify.net.OutboundFailure;
import paynotify.net.OutboundHttp;

/**
 * Alipay's trades bill of a day: {@code alipay.data.dataservice.bill.downloadurl.query} (signed and verified as
 * every OpenAPI call) gives a download URL valid for 30 seconds, and that URL gives the zip of GBK CSVs the
 * owner would download by hand. The zip carries no signature of its own: it is fetched over https (an http
 * URL is asked for over https, as Alipay's download host serves both), right after the signed answer named it.
 */
public final class AlipayBills implements BillSource {
  static final String METHOD = "alipay.data.dataservice.bill.downloadurl.query";
  private static final String NOT_EXIST = "isp.bill_not_exist";
  private static final Pattern FILE_NAME = Pattern.compile("[?&]downloadFileName=([A-Za-z0-9_.-]{1,100}\\.zip)(&|$)");

  private final AlipayOpenApi api;
  private final OutboundHttp http;

  /** @param api on a client whose answer cap holds a day's zip (see the caller's): the zip comes over it too */
  AlipayBills(AlipayOpenApi api) {
    this.api = api;
    this.http = api.http();
  }

  @Override
  public Platform platform() {
    return Platform.ALIPAY;
  }

  @Override
  public String name() {
    return METHOD;
  }

  @Override
  public Future<DayBill> fetch(LocalDate date) {
    JsonObject biz = new JsonObject().put("bill_type", "trade").put("bill_date", date.toString());
    return api.call(METHOD, biz).compose(answer -> {
      if (answer.failedWith(NOT_EXIST)) {
        return Future.failedFuture(notThere(date));
      }
      answer.requireSuccess();
      URI url = downloadUrl(answer.fields().get("bill_download_url"));
      return http.send(HttpMethod.GET, url, MultiMap.caseInsensitiveMultiMap(), null).map(file -> {
        if (file.status() != 200) {
          throw OutboundFailure.unavailable("Alipay's bill download answered HTTP " + file.status()
              + " (its URL is valid for 30 s: try again)");
        }
        byte[] zip = file.body().getBytes();
        if (zip.length < 4 || zip[0] != 'P' || zip[1] != 'K') { // an expired link answers a page, not the zip
          throw OutboundFailure.unavailable("Alipay's bill download answered something that is not a zip (its URL"
              + " is valid for 30 s: try again)");
        }
        return new DayBill(date, fileName(url, date), zip);
      });
    });
  }

  /**
   * Alipay has no bill for the day: not made yet when the day is yesterday or today (bills are ready after
   * about 10:00 the next day), else a date it keeps none for.
   */
  private OutboundFailure notThere(LocalDate date) {
    LocalDate today = LocalDate.now(api.clock().withZone(PlatformTime.BEIJING));
    return date.isBefore(today.minusDays(1))
        ? OutboundFailure.refused(METHOD + ": Alipay has no bill for " + date + " (isp.bill_not_exist)")
        : OutboundFailure.notReady(METHOD + ": Alipay has not made the bill of " + date + " yet; it is ready after"
            + " about 10:00 (Beijing time) on " + date.plusDays(1));
  }

  /** The URL Alipay's signed answer gave, over https (http is upgraded, but for a test's stand-in). */
  private static URI downloadUrl(String text) {
    try {
      URI url = new URI(text == null ? "" : text);
      if ("http".equals(url.getScheme()) && !OutboundHttp.testLoopback(url)) {
        return new URI("https" + text.substring("http".length()));
      }
      if (!"https".equals(url.getScheme()) && !"http".equals(url.getScheme())) {
        throw OutboundFailure.untrusted(METHOD + " gave no usable bill_download_url");
      }
      return url;
    } catch (URISyntaxException e) {
      throw OutboundFailure.untrusted(METHOD + " gave no usable bill_download_url"); // never shown: it holds a token
    }
  }

  /** The name Alipay gives the file (downloadFileName), else one of the same form. */
  private static String fileName(URI url, LocalDate date) {
    Matcher m = FILE_NAME.matcher("?" + (url.getRawQuery() == null ? "" : url.getRawQuery()));
    return m.find() ? m.group(1)
        : "alipay_" + date.format(DateTimeFormatter.BASIC_ISO_DATE) + ".csv.zip";
  }
}
