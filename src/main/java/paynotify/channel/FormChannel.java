package paynotify.channel;

import io.vertx.core.Future;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * A channel of the epay family (epay, 虎皮椒, V免签): a UTF-8 form, in a POST body or a GET query string, decided
 * on the request alone, with Alipay's reply words.
 */
public interface FormChannel extends PlainTextReplies {
  @Override
  default Future<NotifyEvent> check(NotifyRequest request) {
    return NotifyChannel.sync(() -> verified(FormBody.decode(request.payload().getBytes(), StandardCharsets.UTF_8)));
  }

  /** The form's event once its rules passed, or why not (every rule is the platform's {@code ...Signature}). */
  NotifyEvent verified(Map<String, String> params) throws RejectedNotification;
}
