package paynotify.channel;

/**
 * The reply words of Alipay and of the aggregators modelled on it (epay, 虎皮椒, V免签; epusdt says {@code ok}):
 * {@code success} stops the retries, anything else (we send {@code fail}) makes the platform retry.
 */
public interface PlainTextReplies extends NotifyChannel {
  /** The success of all of them but epusdt, for their {@link Door}. */
  Reply SUCCESS = new Reply(200, "text/plain", "success");

  @Override
  default Reply failure(int status, String reason) {
    return new Reply(status, "text/plain", "fail");
  }
}
