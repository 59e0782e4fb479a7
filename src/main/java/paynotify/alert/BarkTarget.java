package paynotify.alert;

import static paynotify.alert.AlertText.Format.PLAIN;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.util.Set;
import paynotify.net.OutboundHttp;
import paynotify.net.Urls;

/**
 * Bark, a push to the owner's iPhone: bark-server's API v2, {@code POST {server}/push} with JSON, answered
 * {@code {"code":200,"message":"success"}}. The device key travels in the body, never in the URL; bark-server repeats
 * an unknown one in its error message, where it is hidden like the other targets' secrets.
 */
public final class BarkTarget implements AlertTarget {
  /** The interruption levels Bark knows; timeSensitive breaks through a Focus mode, critical even through mute. */
  private static final Set<String> LEVELS = Set.of("active", "timeSensitive", "passive", "critical");
  /**
   * APNs takes 4096 bytes of payload (bark-server's apns.PayloadMaximum) and bark-server sends a longer one all the
   * same, to have it refused; the body is kept to 3 KB, leaving the rest to the title, the group and the JSON.
   */
  private static final int MAX_BODY_BYTES = 3 * 1024;

  private final ServiceCall call;
  private final URI push;
  private final String deviceKey;
  private final String group;
  private final String level;

  /**
   * @param server    https://api.day.app, or the owner's own bark-server
   * @param deviceKey the key in the URL the Bark app shows ({@code https://api.day.app/<key>/...})
   * @param group     what the app groups the alerts under
   * @param level     active, timeSensitive, passive or critical
   */
  public BarkTarget(OutboundHttp http, URI server, String deviceKey, String group, String level) {
    if (!LEVELS.contains(level)) {
      throw new IllegalArgumentException("Bark's level '" + level + "' is not one of active, timeSensitive, passive,"
          + " critical");
    }
    this.call = new ServiceCall(http, name(), deviceKey);
    this.push = Urls.at(server, "/push");
    this.deviceKey = deviceKey;
    this.group = group;
    this.level = level;
  }

  @Override
  public String name() {
    return "bark";
  }

  @Override
  public Future<Void> send(Alert alert) {
    JsonObject message = new JsonObject()
        .put("device_key", deviceKey)
        .put("title", alert.title(PLAIN))
        .put("body", ServiceCall.cut(alert.text(PLAIN), MAX_BODY_BYTES, ServiceCall::utf8Bytes))
        .put("group", group)
        .put("level", level);
    return call.post(push, "application/json", message.toBuffer(), answer -> call.unlessCode(answer, 200, "code", "message"));
  }
}
