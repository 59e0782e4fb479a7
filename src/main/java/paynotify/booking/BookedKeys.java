package paynotify.booking;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The idempotency keys this process last saw committed, at most {@link #CAPACITY} (the oldest go first).
 * What the duplicate pre-check falls back on when it cannot answer: a key in here is a repeat,
 * whatever the database would say. Only verified events' keys enter, so its bound is the only one
 * it needs.
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
