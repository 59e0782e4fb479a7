package paynotify.alert;

import static paynotify.alert.AlertText.Format.FEISHU;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.time.Clock;
import java.util.Base64;
import paynotify.crypto.Digests;
import paynotify.net.OutboundHttp;

/**
 * A Feishu (飞书) custom robot: its webhook ({@code https://open.feishu.cn/open-apis/bot/v2/hook/<id>}, the id a
 * secret) takes a text message and answers {@code {"code":0,"msg":"success"}}. With 签名校验 on, the body carries
 * {@code timestamp} (seconds, a string) and {@code sign}, Feishu's rule and the reverse of DingTalk's: Base64 of
 * HMAC-SHA256 keyed with timestamp + "\n" + secret over nothing. A wrong one is code 19021, as is a timestamp more
 * than an hour off; too many messages are 9499 or 11232.
 */
public final class FeishuTarget implements AlertTarget {
  private final URI url;
  private final String secret;
  private final Clock clock;
  private final ServiceCall call;

  /** @param secret the 签名校验 secret; null: the robot does not check signatures */
  public FeishuTarget(OutboundHttp http, URI webhookUrl, String secret, Clock clock) {
    this.url = webhookUrl;
    this.secret = secret;
    this.clock = clock;
    String path = webhookUrl.getRawPath();
    this.call = new ServiceCall(http, name(), path.substring(path.lastIndexOf('/') + 1), secret);
  }

  @Override
  public String name() {
    return "feishu";
  }

  @Override
  public Future<Void> send(Alert alert) {
    JsonObject message = new JsonObject();
    if (secret != null) {
      String timestamp = Long.toString(clock.instant().getEpochSecond());
      message.put("timestamp", timestamp)
          .put("sign", Base64.getEncoder().encodeToString(Digests.hmacSha256(timestamp + "\n" + secret, "")));
    }
    message.put("msg_type", "text").put("content", new JsonObject().put("text", alert.title(FEISHU) + "\n"
        + alert.text(FEISHU))); // a text message reads <at user_id="all">: FEISHU makes text from elsewhere inert
    // Older answers carry only StatusCode and StatusMessage (today's keep them beside code and msg).
    return call.post(url, "application/json", message.toBuffer(), answer -> answer.containsKey("code")
        ? call.unlessCode(answer, 0, "code", "msg")
        : call.unlessCode(answer, 0, "StatusCode", "StatusMessage"));
  }
}
