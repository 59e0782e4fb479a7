package paynotify.booking;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The idempotency keys this process last saw committed, at most {@link #CAPACITY} (the oldest go first).
 * Only a key in here is looked up before the booking (the duplicate pre-check): it is a repeat, answered
 * by one read, and 503 when that read cannot answer. Any other key goes straight to the transaction: a
 * first delivery has nothing to find. Only verified events' keys enter, so its bound is the only one it needs.
 */
final class BookedKeys {
  static final int CAPACITY = 4096;

  private final Map<String, Boolean> keys = new LinkedHashMap<>(CAPACITY * 4 / 3 + 1, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
      return size() > CAPACITY;
    }
  };

  synchronized void add(String key) {
    keys.put(key, Boolean.TRUE);
  }

  synchronized boolean contains(String key) {
    return keys.get(key) != null; // a read in access order: a key replayed stays in
  }
}
