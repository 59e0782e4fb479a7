package paynotify.net;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.util.function.Function;

/**
 * A platform's JSON API read with the account's API key as a Bearer token (Stripe's events, Paddle's notifications):
 * the answer's object once it is a 200; a 401 or 403 the key refused (said with what the key must be), anything else
 * the platform unavailable, each with the platform's own error words.
 *
 * @param name        the list's name, first in every message ("stripe events")
 * @param keyNeeds    what the key must be, said when it is refused
 * @param error       the platform's words for what was wrong, from the answer's {@code error} object
 */
public record BearerApi(String name, String keyNeeds, Function<JsonObject, String> error) {
  /** GET {@code url} with {@code key}. */
  public Future<JsonObject> get(OutboundHttp http, URI url, String key) {
    MultiMap headers = MultiMap.caseInsensitiveMultiMap()
        .add(HttpHeaders.AUTHORIZATION, "Bearer " + key)
        .add(HttpHeaders.ACCEPT, "application/json");
    return http.send(HttpMethod.GET, url, headers, null).map(this::body);
  }

  private JsonObject body(OutboundHttp.Answer answer) {
    JsonObject body;
    try {
      body = new JsonObject(answer.body());
    } catch (DecodeException e) {
      throw OutboundFailure.unavailable(name + ": HTTP " + answer.status() + ", not JSON");
    }
    int status = answer.status();
    if (status == 401 || status == 403) {
      throw OutboundFailure.refused(name + ": HTTP " + status + error(body) + ": " + keyNeeds);
    }
    if (status != 200) {
      throw OutboundFailure.unavailable(name + ": HTTP " + status + error(body));
    }
    return body;
  }

  private String error(JsonObject body) {
    return body.getValue("error") instanceof JsonObject e ? " " + error.apply(e) : "";
  }
}
