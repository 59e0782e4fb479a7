package paynotify.alert;

import static paynotify.alert.AlertText.Format.MARKDOWN;
import static paynotify.net.Urls.encode;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.time.Clock;
import java.util.Arrays;
import java.util.Base64;
import paynotify.crypto.Digests;
import paynotify.net.OutboundHttp;

/**
 * A DingTalk (钉钉) custom robot: its webhook ({@code https://oapi.dingtalk.com/robot/send?access_token=T}) answers
 * {@code {"errcode":0,"errmsg":"ok"}}. With 加签 on, each call carries {@code timestamp} (ms) and {@code sign} in
 * the query, DingTalk's rule: URL-encoded Base64 of HMAC-SHA256(key = secret, timestamp + "\n" + secret), the
 * timestamp within an hour of DingTalk's clock; a wrong sign is errcode 310000.
 */
public final class DingtalkTarget implements AlertTarget {
  private final URI url;
  private final String secret;
  private final Clock clock;
  private final ServiceCall call;

  /** @param secret the 加签 secret ({@code SEC...}); null: the robot does not sign */
  public DingtalkTarget(OutboundHttp http, URI webhookUrl, String secret, Clock clock) {
    this.url = webhookUrl;
    this.secret = secret;
    this.clock = clock;
    String[] query = ServiceCall.queryValues(webhookUrl);
    String[] secrets = Arrays.copyOf(query, query.length + 1);
    secrets[query.length] = secret;
    this.call = new ServiceCall(http, name(), secrets);
  }

  @Override
  public String name() {
    return "dingtalk";
  }

  @Override
  public Future<Void> send(Alert alert) {
    // markdown, not text: its title is what the chat list and the phone's notification show, so the alert's
    // one line is read there first; a text message would show the start of the body instead. Text from elsewhere
    // in either made inert (AlertText.Format.MARKDOWN).
    JsonObject message = new JsonObject().put("msgtype", "markdown").put("markdown", new JsonObject()
        .put("title", alert.title(MARKDOWN))
        .put("text", "#### " + alert.title(MARKDOWN) + "\n\n" + alert.text(MARKDOWN)));
    return call.post(signed(), "application/json", message.toBuffer(), answer -> call.unlessCode(answer, 0,
        "errcode", "errmsg"));
  }

  private URI signed() {
    if (secret == null) {
      return url;
    }
    long timestamp = clock.millis();
    String sign = Base64.getEncoder().encodeToString(Digests.hmacSha256(secret, timestamp + "\n" + secret));
    return URI.create(url + (url.getRawQuery() == null ? "?" : "&") + "timestamp=" + timestamp
        + "&sign=" + encode(sign));
  }
}
