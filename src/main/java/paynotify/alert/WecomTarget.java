package paynotify.alert;

import static paynotify.alert.AlertText.Format.MARKDOWN;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import paynotify.net.OutboundHttp;

/**
 * A WeCom (企业微信) group robot: its webhook ({@code https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=KEY}) takes
 * a markdown message (text from elsewhere in it made inert: {@link AlertText.Format#MARKDOWN}) and answers
 * {@code {"errcode":0,"errmsg":"ok"}}. The key in the URL is the robot's only secret.
 */
public final class WecomTarget implements AlertTarget {
  /** WeCom's limit on markdown.content, in UTF-8 bytes: a longer one is refused whole (errcode 40058). */
  private static final int MAX_CONTENT_BYTES = 4096;

  private final URI url;
  private final ServiceCall call;

  public WecomTarget(OutboundHttp http, URI webhookUrl) {
    this.url = webhookUrl;
    this.call = new ServiceCall(http, name(), ServiceCall.queryValues(webhookUrl));
  }

  @Override
  public String name() {
    return "wecom";
  }

  @Override
  public Future<Void> send(Alert alert) {
    JsonObject message = new JsonObject().put("msgtype", "markdown")
        .put("markdown", new JsonObject().put("content", ServiceCall.cut(alert.title(MARKDOWN) + "\n"
            + alert.text(MARKDOWN), MAX_CONTENT_BYTES, ServiceCall::utf8Bytes)));
    return call.post(url, "application/json", message.toBuffer(), answer -> call.unlessCode(answer, 0, "errcode",
        "errmsg"));
  }
}
