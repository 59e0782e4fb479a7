package paynotify.alert;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A channel whose notifications all fail their signature: at least {@value #THRESHOLD} refused for a signature
 * (or a key, or a merchant id) within ten minutes, and none verified meanwhile. That is a configuration mistake
 * far more often than an attack (the application's public key pasted where Alipay's belongs, a new WeChat Pay key
 * not in platform_keys), and the platform keeps retrying while the owner does not know. Told with how many there
 * were when it is told; told again once its window is over if the refusals go on (an attacker's burst must not
 * hide a real key mistake after it); a notification that verifies ends it.
 */
public final class SignatureBurst {
  static final int THRESHOLD = 5;
  public static final Duration WINDOW = Duration.ofMinutes(10);

  /** The reasons that mean "the keys or ids do not match" (RejectedNotification.Reason), as notify_log starts them. */
  private static final String[] KEY_REASONS = {"BAD_SIGNATURE", "UNKNOWN_SERIAL", "MISSING_SIGNATURE",
      "DECRYPT_FAILED", "WRONG_MERCHANT"};

  /**
   * A burst to tell: how many were refused within the window, the last one's reason (one of ours, never its text)
   * and address; {@code again} when it was told before and the refusals went on.
   */
  public record Burst(String channel, int count, String reason, String address, boolean again) {}

  /** One channel's refusals within the window, counted by the second they came: a flood holds 600 entries. */
  private static final class Refusals {
    final Deque<long[]> perSecond = new ArrayDeque<>(); // {epoch second, refusals in it}, oldest first
    int count;
    String reason;
    String address;
    Instant toldUntil; // told: not again before this; null: not told

    void add(Instant at) {
      long second = at.getEpochSecond();
      long[] last = perSecond.peekLast();
      if (last != null && last[0] == second) {
        last[1]++;
      } else {
        perSecond.addLast(new long[] {second, 1});
      }
      count++;
      forgetBefore(at.minus(WINDOW));
    }

    void forgetBefore(Instant start) {
      while (!perSecond.isEmpty() && perSecond.peekFirst()[0] < start.getEpochSecond()) {
        count -= (int) perSecond.pollFirst()[1];
      }
    }
  }

  private final Map<String, Refusals> channels = new HashMap<>();

  /** Forgets everything seen (another instance watches now). */
  public void clear() {
    channels.clear();
  }

  /** One notify_log row, received at {@code at}; rows come in the order they were received. */
  public void seen(String channel, String outcome, String detail, String address, Instant at) {
    if (!"rejected".equals(outcome)) {
      if (!"error".equals(outcome)) { // verified (booked, duplicate, anomaly, ignored): the keys are right
        channels.remove(channel);
      }
      return;
    }
    String reason = keyReason(detail);
    if (reason == null) {
      return;
    }
    Refusals refusals = channels.computeIfAbsent(channel, c -> new Refusals());
    refusals.add(at);
    refusals.reason = reason;
    refusals.address = address;
  }

  /** After a look's rows: the bursts to tell at {@code now}, each with all the refusals of its window. */
  public List<Burst> due(Instant now) {
    List<Burst> due = new ArrayList<>();
    channels.forEach((channel, r) -> {
      r.forgetBefore(now.minus(WINDOW));
      if (r.count >= THRESHOLD && (r.toldUntil == null || !now.isBefore(r.toldUntil))) {
        due.add(new Burst(channel, r.count, r.reason, r.address, r.toldUntil != null));
        r.toldUntil = now.plus(WINDOW);
      }
    });
    // a channel quiet for a window and not told within one: its episode is over
    channels.values().removeIf(r -> r.count == 0 && (r.toldUntil == null || !now.isBefore(r.toldUntil)));
    return due;
  }

  /** The reason a refusal's detail starts with, when it is about keys; else null. */
  private static String keyReason(String detail) {
    if (detail == null || detail.contains("signature probe")) { // WeChat Pay's own test of our refusal
      return null;
    }
    for (String reason : KEY_REASONS) {
      if (detail.startsWith(reason)) {
        return reason;
      }
    }
    return null;
  }
}
