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
 * A platform's JSON API read with the account's API key as a Bearer token (Stripe's events, Paddle's notifications,
 * Lemon Squeezy's orders): the answer's object once it is a 200; a 401 or 403 the key refused (said with what the key
 * must be), anything else the platform unavailable, each with the platform's own error words.
 *
 * @param name     the list's name, first in every message ("stripe events")
 * @param keyNeeds what the key must be, said when it is refused
 * @param accept   the media type asked for (a JSON:API's {@code application/vnd.api+json})
 * @param words    the platform's words for what was wrong, read from an answer's body; null when it has none
 */
public record BearerApi(String name, String keyNeeds, String accept, Function<JsonObject, String> words) {
  /**
   * An {@code application/json} API whose answer says what was wrong in its {@code error} object, read by
   * {@code error}.
   */
  public BearerApi(String name, String keyNeeds, Function<JsonObject, String> error) {
    this(name, keyNeeds, "application/json",
        body -> body.getValue("error") instanceof JsonObject e ? error.apply(e) : null);
  }

  /** GET {@code url} with {@code key}. */
  public Future<JsonObject> get(OutboundHttp http, URI url, String key) {
    return send(http, url, key).map(answer -> body(answer, false));
  }

  /** GET {@code url} with {@code key}: null when the platform has no such object (404). */
  public Future<JsonObject> find(OutboundHttp http, URI url, String key) {
    return send(http, url, key).map(answer -> body(answer, true));
  }

  private Future<OutboundHttp.Answer> send(OutboundHttp http, URI url, String key) {
    MultiMap headers = MultiMap.caseInsensitiveMultiMap()
        .add(HttpHeaders.AUTHORIZATION, "Bearer " + key)
        .add(HttpHeaders.ACCEPT, accept);
    return http.send(HttpMethod.GET, url, headers, null);
  }

  private JsonObject body(OutboundHttp.Answer answer, boolean notFound) {
    JsonObject body;
    try {
      body = new JsonObject(answer.body());
    } catch (DecodeException e) {
      throw OutboundFailure.unavailable(name + ": HTTP " + answer.status() + ", not JSON");
    }
    int status = answer.status();
    if (status == 404 && notFound) {
      return null;
    }
    if (status == 401 || status == 403) {
      throw OutboundFailure.refused(name + ": HTTP " + status + error(body) + ": " + keyNeeds);
    }
    if (status != 200) {
      throw OutboundFailure.unavailable(name + ": HTTP " + status + error(body));
    }
    return body;
  }

  private String error(JsonObject body) {
    String said = words.apply(body);
    return said == null ? "" : " " + said;
  }
}
