package paynotify.channel.wechat;

import io.vertx.core.Future;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import paynotify.channel.BillSource;
import paynotify.channel.DayBill;
import paynotify.channel.Ids;
import paynotify.channel.Platform;
import paynotify.channel.RejectedNotification;
import paynotify.net.Gzip;
import paynotify.net.OutboundFailure;
import paynotify.net.OutboundHttp;

/**
 * WeChat Pay API v2's {@code /pay/downloadbill}: the ALL bill of a day, signed with the API key as
 * {@link WechatV2Gateway}'s requests are (no merchant certificate needed), asked gzipped.
 *
 * <p>A class of its own rather than a second interface on WechatV2Gateway: the answer shares nothing with a
 * query's (no signed XML to verify, a file instead), only the signed request, which both take from
 * {@link WechatV2Client}.
 *
 * <p>The bill itself is <b>not signed</b>: WeChat answers the text (or its gzip) bare, so it is trusted as far
 * as the TLS connection to WeChat that carried our signed request. Only its shape is checked (the header
 * line of a trades bill).
 */
public final class WechatV2Bills implements BillSource {
  private static final String PATH = "/pay/downloadbill";
  /** The first column of the bill's header line, after an optional BOM. */
  private static final String HEADER = "交易时间";
  private static final String BOM = "\uFEFF";
  /** What is looked at to tell a bill from WeChat's XML: its first characters. */
  private static final int HEAD_BYTES = 256;

  private final WechatV2Client client;
  private final URI url;

  WechatV2Bills(WechatV2Client client) {
    this.client = client;
    this.url = client.url(PATH);
  }

  @Override
  public Platform platform() {
    return Platform.WECHAT;
  }

  @Override
  public String name() {
    return "wechat v2 downloadbill";
  }

  @Override
  public Future<DayBill> fetch(LocalDate date) {
    String day = date.format(DateTimeFormatter.BASIC_ISO_DATE);
    Map<String, String> request = new LinkedHashMap<>();
    request.put("bill_date", day);
    request.put("bill_type", "ALL");
    request.put("tar_type", "GZIP");
    return client.post(url, request).map(answer -> bill(date, day, answer));
  }

  private DayBill bill(LocalDate date, String day, OutboundHttp.Answer answer) {
    if (answer.status() / 100 != 2) {
      throw OutboundFailure.unavailable(PATH + " answered HTTP " + answer.status());
    }
    byte[] body = answer.body().getBytes();
    if (Gzip.isGzip(body)) {
      body = Gzip.gunzip(body, PATH + " of " + day);
    }
    // Only the head is read as text: the whole bill decoded would be twice its size again in the tools' heap.
    String head = new String(body, 0, Math.min(body.length, HEAD_BYTES), StandardCharsets.UTF_8);
    if (head.stripLeading().startsWith("<")) {
      return refused(date, day, body);
    }
    if (!(head.startsWith(HEADER) || head.startsWith(BOM + HEADER))) {
      throw OutboundFailure.unavailable(PATH + " of " + day + " answered neither a bill nor WeChat's XML: '"
          + Ids.printable(head.substring(0, Math.min(40, head.length()))) + "'");
    }
    return new DayBill(date, client.mchId() + "_" + day + "_ALL.csv", body);
  }

  /**
   * WeChat's return_code FAIL. Its return_msg is the code (the docs' error table): "No Bill Exist" is a
   * day without trades; "Bill Creating" is a bill not made yet, or, past noon of the next day, a day without
   * trades ({@link DayBill#stillMaking}).
   */
  private static DayBill refused(LocalDate date, String day, byte[] xml) {
    Map<String, String> fields;
    try {
      fields = WechatXml.parse(xml, "xml");
    } catch (RejectedNotification e) {
      throw OutboundFailure.unavailable(PATH + " of " + day + ": unreadable XML answer: " + e.getMessage());
    }
    String message = fields.getOrDefault("return_msg", "");
    String code = message.trim().toLowerCase(Locale.ROOT);
    if (code.equals("no bill exist")) {
      return DayBill.none(date);
    }
    if (code.equals("bill creating") || message.contains("账单生成中") || message.contains("账单未生成")) {
      return DayBill.stillMaking(date, PATH + " of " + day + ": " + Ids.printable(message));
    }
    if (code.equals("systemerror") || code.contains("gzip error")) { // WeChat's own trouble: ask again
      throw OutboundFailure.unavailable(PATH + " of " + day + ": " + Ids.printable(message));
    }
    throw WechatV2Client.refusal(PATH, message);
  }
}
