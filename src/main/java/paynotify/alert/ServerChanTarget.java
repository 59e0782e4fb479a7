package paynotify.alert;

import static paynotify.alert.AlertText.Format.MARKDOWN;
import static paynotify.net.Urls.encode;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.net.URI;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import paynotify.net.OutboundHttp;
import paynotify.net.Urls;

/**
 * Server酱 (ServerChan), to WeChat or its app: {@code POST {api_base}/<SendKey>.send} with a form of title and desp
 * (Markdown: text from elsewhere in it made inert, AlertText.Format.MARKDOWN), answered {@code {"code":0,...}}.
 * The SendKey in the path is its only secret. A Server酱³ SendKey ({@code sctp<uid>t...}) goes to that uid's own
 * host, as the official serverchan-sdk sends it.
 */
public final class ServerChanTarget implements AlertTarget {
  /** title: at most 32 characters; counted in UTF-16 units here, never more than Server酱's count. */
  private static final int MAX_TITLE = 32;
  /** desp: at most 32 KB. */
  private static final int MAX_DESP_BYTES = 32 * 1024;
  /** What may enter the URL's path unencoded: SendKeys are letters and digits. */
  private static final Pattern SENDKEY = Pattern.compile("[A-Za-z0-9_-]+");
  private static final Pattern SC3_SENDKEY = Pattern.compile("sctp([0-9]+)t.*");

  private final ServiceCall call;
  private final URI url;

  /** @param apiBase https://sctapi.ftqq.com, or a relay of it (Server酱 Turbo's SendKeys, SCT...) */
  public ServerChanTarget(OutboundHttp http, URI apiBase, String sendKey) {
    if (!SENDKEY.matcher(sendKey).matches()) {
      throw new IllegalArgumentException("the Server酱 SendKey is not letters and digits as the site shows it");
    }
    this.call = new ServiceCall(http, name(), sendKey);
    this.url = url(apiBase, sendKey);
  }

  /** Turbo's {@code {api_base}/<key>.send}, or Server酱³'s {@code https://<uid>.push.ft07.com/send/<key>.send}. */
  static URI url(URI apiBase, String sendKey) {
    if (!sendKey.startsWith("sctp")) {
      return Urls.at(apiBase, "/" + sendKey + ".send");
    }
    Matcher sc3 = SC3_SENDKEY.matcher(sendKey);
    if (!sc3.matches()) {
      throw new IllegalArgumentException("the Server酱³ SendKey does not read sctp<digits>t... as the site shows it");
    }
    return URI.create("https://" + sc3.group(1) + ".push.ft07.com/send/" + sendKey + ".send");
  }

  @Override
  public String name() {
    return "serverchan";
  }

  @Override
  public Future<Void> send(Alert alert) {
    String form = "title=" + encode(ServiceCall.cut(alert.title(MARKDOWN), MAX_TITLE, String::length))
        + "&desp=" + encode(ServiceCall.cut(alert.text(MARKDOWN), MAX_DESP_BYTES, ServiceCall::utf8Bytes));
    return call.post(url, "application/x-www-form-urlencoded", Buffer.buffer(form),
        answer -> call.unlessCode(answer, 0, "code", "message"));
  }
}
