package paynotify.alert;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import paynotify.channel.Ids;
import paynotify.net.OutboundFailure.Kind;
import paynotify.net.OutboundFailure;
import paynotify.net.OutboundHttp;

/**
 * One POST to an alert service that says in its JSON answer whether the message went out, as every target but mail
 * does (the chat robots with a code 0, Telegram with ok, Server酱 with code 0, Bark with code 200). Its failures name
 * the service and never show a secret (a webhook's key in its query, a hook id or bot token or SendKey in its path,
 * a signing secret, a device key that Bark repeats in its answer): each reads {@code ***} wherever a message would
 * hold it.
 */
final class ServiceCall {
  private static final String HIDDEN = "***";
  private static final String CUT = "…";

  private final OutboundHttp http;
  private final String service;
  private final List<String> secrets = new ArrayList<>();

  /** @param secrets what no message may show; null or empty ones (a robot without a signing secret) are skipped */
  ServiceCall(OutboundHttp http, String service, String... secrets) {
    this.http = http;
    this.service = service;
    for (String secret : secrets) {
      if (secret != null && !secret.isEmpty()) {
        this.secrets.add(secret);
      }
    }
  }

  /** The values of {@code url}'s query (a robot's key or access_token): secrets. */
  static String[] queryValues(URI url) {
    String query = url.getRawQuery();
    return query == null ? new String[0]
        : Arrays.stream(query.split("&")).map(pair -> pair.substring(pair.indexOf('=') + 1)).toArray(String[]::new);
  }

  /**
   * {@code text} within {@code max} as the service counts its {@code length}, cut between two characters (never
   * inside a surrogate pair) and the cut marked with "…".
   */
  static String cut(String text, int max, ToIntFunction<String> length) {
    if (length.applyAsInt(text) <= max) {
      return text;
    }
    int room = max - length.applyAsInt(CUT);
    int end = 0;
    while (end < text.length()) {
      int next = end + Character.charCount(text.codePointAt(end));
      room -= length.applyAsInt(text.substring(end, next));
      if (room < 0) {
        break;
      }
      end = next;
    }
    return text.substring(0, end) + CUT;
  }

  static int utf8Bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8).length;
  }

  /**
   * POSTs {@code body}; done once the service answered 2xx with a JSON object in which {@code refusal} finds nothing.
   *
   * @param refusal what the answer says went wrong, in the service's words; null when the message went out
   */
  Future<Void> post(URI url, String contentType, Buffer body, Function<JsonObject, String> refusal) {
    MultiMap headers = MultiMap.caseInsensitiveMultiMap().add(HttpHeaders.CONTENT_TYPE, contentType);
    return http.send(HttpMethod.POST, url, headers, body)
        .recover(err -> Future.failedFuture(failure(Kind.UNAVAILABLE, ": " + err.getMessage())))
        .compose(answer -> delivered(answer, refusal));
  }

  private Future<Void> delivered(OutboundHttp.Answer answer, Function<JsonObject, String> refusal) {
    JsonObject json = json(answer.body());
    String refused = json == null ? null : refusal.apply(json);
    int status = answer.status();
    if (status / 100 != 2) {
      // A 4xx but 429 is a wrong token, key or chat: the owner must fix it. The rest may pass if tried later.
      Kind kind = status / 100 == 4 && status != 429 ? Kind.REFUSED : Kind.UNAVAILABLE;
      return Future.failedFuture(failure(kind, " answered HTTP " + status + (refused == null ? "" : ": " + refused)));
    }
    if (json == null) {
      return Future.failedFuture(failure(Kind.UNAVAILABLE, " answered HTTP " + status + " with no JSON object"));
    }
    return refused == null ? Future.succeededFuture()
        : Future.failedFuture(failure(Kind.REFUSED, " refused the alert: " + refused));
  }

  /** The answer's JSON object; null when it is none (an empty body, a page, an array). */
  private static JsonObject json(Buffer body) {
    try {
      return body.toJsonObject();
    } catch (DecodeException e) {
      return null;
    }
  }

  /** Null when the answer's {@code codeField} is {@code success}; else that code and the answer's message. */
  String unlessCode(JsonObject answer, int success, String codeField, String messageField) {
    return answer.getValue(codeField) instanceof Number code && code.doubleValue() == success ? null
        : refusal(answer, codeField, messageField);
  }

  /** The answer's {@code codeField} and {@code messageField}, as a failure names them: "code 40001, message ...". */
  String refusal(JsonObject answer, String codeField, String messageField) {
    return codeField + " " + said(answer.getValue(codeField)) + ", " + messageField + " "
        + said(answer.getValue(messageField));
  }

  /** {@code value} of the service's answer, fit for a log line: the secret hidden before it is cut short. */
  String said(Object value) {
    return Ids.printable(value == null ? null : hide(String.valueOf(value)));
  }

  /** Without a cause: OutboundHttp's names the URL, the secret in it. */
  private OutboundFailure failure(Kind kind, String what) {
    return new OutboundFailure(kind, hide(service + what));
  }

  private String hide(String text) {
    for (String secret : secrets) {
      text = text.replace(secret, HIDDEN);
    }
    return text;
  }
}
