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
 * A platform's JSON API read with the account's API key, as a Bearer token (Stripe's events, Paddle's notifications,
 * Lemon Squeezy's orders) or in a header of its own (Creem's {@code x-api-key}): the answer's object once it is a 200;
 * a 401 or 403 the key refused (said with what the key must be), another 4xx a question the platform refuses, a 429 or
 * anything else the platform unavailable, each with the platform's own error words.
 *
 * @param name      the list's name, first in every message ("stripe events")
 * @param keyNeeds  what the key must be, said when it is refused
 * @param keyHeader the header the key goes in ({@code Authorization})
 * @param keyPrefix what comes before the key in it ({@code "Bearer "}), or ""
 * @param accept    the media type asked for (a JSON:API's {@code application/vnd.api+json})
 * @param words     the platform's words for what was wrong, read from an answer's body; null when it has none
 */
public record BearerApi(String name, String keyNeeds, String keyHeader, String keyPrefix, String accept,
    Function<JsonObject, String> words) {
  /** An API whose key is a Bearer token. */
  public BearerApi(String name, String keyNeeds, String accept, Function<JsonObject, String> words) {
    this(name, keyNeeds, HttpHeaders.AUTHORIZATION.toString(), "Bearer ", accept, words);
  }

  /**
   * An {@code application/json} API whose key is a Bearer token and whose answer says what was wrong in its
   * {@code error} object, read by {@code error}.
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
        .add(keyHeader, keyPrefix + key)
        .add(HttpHeaders.ACCEPT, accept);
    return http.send(HttpMethod.GET, url, headers, null);
  }

  /** The status decides before the body is read: a 404 found nothing, whatever its body is. */
  private JsonObject body(OutboundHttp.Answer answer, boolean notFound) {
    int status = answer.status();
    if (status == 404 && notFound) {
      return null;
    }
    JsonObject body;
    try {
      body = new JsonObject(answer.body());
    } catch (DecodeException | ClassCastException e) {
      body = null;
    }
    if (status == 200 && body != null) {
      return body;
    }
    String said = name + ": HTTP " + status + (body == null ? ", not JSON" : error(body));
    if (status == 401 || status == 403) {
      throw OutboundFailure.refused(said + ": " + keyNeeds);
    }
    throw status / 100 == 4 && status != 429 ? OutboundFailure.refused(said) : OutboundFailure.unavailable(said);
  }

  private String error(JsonObject body) {
    String said = words.apply(body);
    return said == null ? "" : " " + said;
  }
}
