package paynotify.alert;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * A channel whose notifications all fail their signature: at least {@value #THRESHOLD} refused for a signature
 * (or a key, or a merchant id) within ten minutes, and none verified meanwhile. That is a configuration mistake
 * far more often than an attack (the application's public key pasted where Alipay's belongs, a new WeChat Pay key
 * not in platform_keys), and the platform keeps retrying while the owner does not know. Told once per episode:
 * a notification that verifies ends it.
 */
final class SignatureBurst {
  static final int THRESHOLD = 5;
  static final Duration WINDOW = Duration.ofMinutes(10);

  /** The reasons that mean "the keys or ids do not match" (RejectedNotification.Reason), as notify_log starts them. */
  private static final String[] KEY_REASONS = {"BAD_SIGNATURE", "UNKNOWN_SERIAL", "MISSING_SIGNATURE",
      "DECRYPT_FAILED", "WRONG_MERCHANT"};

  /** When each refusal in the window was seen, by channel (up to the threshold: then it is told). */
  private final Map<String, Deque<Instant>> refused = new HashMap<>();
  private final Map<String, Boolean> told = new HashMap<>();

  /** Forgets everything seen (another instance watches now). */
  void clear() {
    refused.clear();
    told.clear();
  }

  /** A burst found: the channel, how many in the window, the last refusal's detail. */
  record Burst(String channel, int count, String detail) {}

  /** One notify_log row; the burst it completes, or null. */
  Burst seen(String channel, String outcome, String detail, Instant now) {
    Deque<Instant> window = refused.computeIfAbsent(channel, c -> new ArrayDeque<>());
    while (!window.isEmpty() && window.peekFirst().isBefore(now.minus(WINDOW))) {
      window.pollFirst();
    }
    if (!"rejected".equals(outcome)) {
      if (!"error".equals(outcome)) { // verified (booked, duplicate, anomaly, ignored): the keys are right
        window.clear();
        told.remove(channel);
      }
      return null;
    }
    if (!aboutKeys(detail)) {
      return null;
    }
    if (told.containsKey(channel)) {
      return null; // told; the window is not kept growing while the episode lasts
    }
    window.addLast(now);
    if (window.size() >= THRESHOLD) {
      told.put(channel, true);
      window.clear();
      return new Burst(channel, THRESHOLD, detail);
    }
    return null;
  }

  private static boolean aboutKeys(String detail) {
    if (detail == null || detail.contains("signature probe")) { // WeChat Pay's own test of our refusal
      return false;
    }
    for (String reason : KEY_REASONS) {
      if (detail.startsWith(reason)) {
        return true;
      }
    }
    return false;
  }
}
