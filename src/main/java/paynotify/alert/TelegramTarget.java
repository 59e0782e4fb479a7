package paynotify.alert;

import static paynotify.alert.AlertText.Format.PLAIN;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.util.regex.Pattern;
import paynotify.net.OutboundHttp;
import paynotify.net.Urls;

/**
 * A Telegram bot writing to one chat: the Bot API's sendMessage ({@code POST {api_base}/bot<token>/sendMessage}),
 * answered {@code {"ok":true,...}}. The token in the path is the bot's password. Telegram is not reachable from
 * mainland China without a proxy: the caller's OutboundHttp then goes through one.
 */
public final class TelegramTarget implements AlertTarget {
  /** sendMessage's text: 1-4096 characters; counted in UTF-16 units here (an emoji two): never more than Telegram's. */
  private static final int MAX_TEXT = 4096;
  /** @BotFather's tokens: the bot's id, a colon, the secret; nothing else may enter the URL's path. */
  private static final Pattern TOKEN = Pattern.compile("[0-9]+:[A-Za-z0-9_-]+");

  private final ServiceCall call;
  private final URI sendMessage;
  private final String chatId;

  /**
   * @param apiBase https://api.telegram.org, or a relay of it
   * @param chatId  the owner's chat with the bot, a group's (negative) id, or a channel's @name
   */
  public TelegramTarget(OutboundHttp http, URI apiBase, String botToken, String chatId) {
    if (!TOKEN.matcher(botToken).matches()) {
      throw new IllegalArgumentException("the Telegram bot token is not <digits>:<letters> as @BotFather gives it");
    }
    this.call = new ServiceCall(http, name(), botToken);
    this.sendMessage = Urls.at(apiBase, "/bot" + botToken + "/sendMessage");
    this.chatId = chatId;
  }

  @Override
  public String name() {
    return "telegram";
  }

  /**
   * Sent as plain text, without parse_mode: in Markdown or HTML an order number's "_" or an "&lt;" in a detail would
   * make Telegram refuse the whole message ("can't parse entities"). Link previews off: a URL in an alert is to be
   * read, not shown as a card. (link_preview_options replaced disable_web_page_preview in Bot API 7.0.)
   */
  @Override
  public Future<Void> send(Alert alert) {
    JsonObject message = new JsonObject()
        .put("chat_id", chatId)
        .put("text", ServiceCall.cut(alert.title(PLAIN) + "\n\n" + alert.text(PLAIN), MAX_TEXT, String::length))
        .put("link_preview_options", new JsonObject().put("is_disabled", true));
    return call.post(sendMessage, "application/json", message.toBuffer(), this::refusal);
  }

  /** Null when ok; else error_code and description, with a 429's retry_after (flood control: seconds to wait). */
  private String refusal(JsonObject answer) {
    if (Boolean.TRUE.equals(answer.getValue("ok"))) {
      return null;
    }
    String refusal = call.refusal(answer, "error_code", "description");
    Object retryAfter = answer.getValue("parameters") instanceof JsonObject parameters
        ? parameters.getValue("retry_after") : null;
    return retryAfter == null ? refusal : refusal + ", retry_after " + call.said(retryAfter) + " s";
  }
}
